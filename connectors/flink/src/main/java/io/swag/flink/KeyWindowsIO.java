package io.swag.flink;

import io.swag.core.plan.KeyWindows;
import io.swag.core.plan.PartialCodec;
import io.swag.core.plan.WindowGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The checkpoint format of one key's {@link KeyWindows}: the fired watermark, the number of
 * entries, then per entry (oldest first) its time and its partial encoded by the group's
 * {@link PartialCodec}. Reading rebuilds the aggregator with one bulk load. Shared by the DataStream
 * operator and the SQL process table function.
 */
public final class KeyWindowsIO {
  private KeyWindowsIO() {}

  public static void write(KeyWindows k, WindowGroup g, DataOutputView out) throws IOException {
    PartialCodec codec = g.codec();
    out.writeLong(k.firedWatermark());
    out.writeInt(k.entries());
    try {
      k.snapshot((time, partial) -> {
        try {
          byte[] b = codec.encode(partial);
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

  public static void read(KeyWindows k, WindowGroup g, DataInputView in) throws IOException {
    PartialCodec codec = g.codec();
    long fired = in.readLong();
    int n = in.readInt();
    long[] times = new long[n];
    Object[] partials = new Object[n];
    for (int i = 0; i < n; i++) {
      times[i] = in.readLong();
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      partials[i] = codec.decode(b);
    }
    k.restore(times, partials, n, fired);
  }
}
