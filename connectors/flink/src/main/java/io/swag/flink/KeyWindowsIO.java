package io.swag.flink;

import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.RowCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The checkpoint format of one key's {@link KeyWindows} (made with {@code retainRows}): the fired
 * watermark, the number of retained rows, then per row (oldest first) its time and its
 * {@link RowCodec} bytes. Reading rebuilds the aggregator with one bulk insert
 * ({@link KeyWindows#restore}). Used by the SQL process table function's RAW state (the
 * DataStream operator writes its keyed state incrementally, {@link io.swag.core.plan.StoredWindows}).
 * Rows hold only the columns the query uses, normalized to RowCodec's types ({@link Layout#values}).
 */
public final class KeyWindowsIO {
  private KeyWindowsIO() {}

  public static void write(KeyWindows k, DataOutputView out) throws IOException {
    out.writeLong(k.firedWatermark());
    out.writeLong(k.records());
    try {
      k.forEachRow((time, row) -> {
        try {
          byte[] b = RowCodec.encode(row);
          out.writeLong(time);
          out.writeInt(b.length);
          out.write(b);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  public static void read(KeyWindows k, DataInputView in) throws IOException {
    long fired = in.readLong();
    long n = in.readLong();
    if (n > Integer.MAX_VALUE) {
      throw new IOException("swag: a key with " + n + " rows in a checkpoint");
    }
    long[] times = new long[(int) n];
    Object[][] rows = new Object[(int) n][];
    for (int i = 0; i < n; i++) {
      times[i] = in.readLong();
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      List<Object[]> r = RowCodec.decode(b);
      rows[i] = r.get(0);
    }
    k.restore(times, rows, (int) n, fired);
  }
}
