package io.swag.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.execution.streaming.state.StateStore;
import org.apache.spark.sql.streaming.StatefulProcessorHandle;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The watermark below which the records of a micro-batch are late, derived the way Spark derives
 * its own: the eviction watermark of batch {@code N} is {@code batchWatermarkMs} of the offset log
 * entry {@code <checkpoint>/offsets/N}, and the late-events watermark of batch {@code N} is that of
 * batch {@code N - 1} (0 for batch 0). Spark writes the offset log entry of a batch before running
 * it, keeps it across restarts and never changes it, so reading it from any executor, in any task
 * attempt, after any restart, gives the same answer: a restarted query accepts exactly the records
 * the uninterrupted one accepts.
 *
 * <p>The checkpoint directory is the parent of the state store's checkpoint root
 * ({@code <checkpoint>/state}), which {@code transformWithState} does not expose: it is read from
 * the processor handle by reflection. Values are cached per (query id, batch id), immutable facts.
 * If the offset log cannot be read, the current watermark is used (stricter: more records reported
 * late, never lost) and a warning is printed once per query.
 */
final class LateEventsWatermark implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Pattern WATERMARK = Pattern.compile("\"batchWatermarkMs\"\\s*:\\s*(-?\\d+)");
  /** (query id, batch id) to the batch's eviction watermark, from the offset log. */
  private static final Map<BatchKey, Long> CACHE = new ConcurrentHashMap<>();
  private static final Map<UUID, Boolean> WARNED = new ConcurrentHashMap<>();

  private record BatchKey(UUID query, long batch) {}

  private final SerializableConfiguration hadoopConf;

  LateEventsWatermark(SerializableConfiguration hadoopConf) {
    this.hadoopConf = hadoopConf;
  }

  /** The late-events watermark (Spark's: records with time {@code <} it are late) of the handle's batch. */
  long of(StatefulProcessorHandle handle, long current) {
    long batch = handle.getQueryInfo().getBatchId();
    if (batch <= 0) {
      return Math.min(0L, current);
    }
    BatchKey k = new BatchKey(handle.getQueryInfo().getQueryId(), batch - 1);
    Long prev = CACHE.get(k);
    if (prev == null) {
      prev = read(handle, batch - 1);
      if (prev == null) {
        if (WARNED.putIfAbsent(k.query(), Boolean.TRUE) == null) {
          System.err.println("swag: could not read the watermark of batch " + (batch - 1)
              + " from the checkpoint's offset log; using the current one (records may be reported late"
              + " that Spark's built-in aggregation would accept)");
        }
        return current;
      }
      if (CACHE.size() > 4096) {
        CACHE.clear();
      }
      CACHE.put(k, prev);
    }
    return Math.min(prev, current);
  }

  /** {@code batchWatermarkMs} of {@code <checkpoint>/offsets/<batch>}, or null if unavailable. */
  private Long read(StatefulProcessorHandle handle, long batch) {
    try {
      String stateRoot = stateStore(handle).id().checkpointRootLocation();
      Path file = new Path(new Path(stateRoot).getParent(), "offsets/" + batch);
      FileSystem fs = file.getFileSystem(hadoopConf.value());
      try (FSDataInputStream in = fs.open(file);
          BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        r.readLine(); // version line, e.g. "v1"
        String meta = r.readLine();
        if (meta == null) {
          return null;
        }
        Matcher m = WATERMARK.matcher(meta);
        return m.find() ? Long.parseLong(m.group(1)) : null;
      }
    } catch (IOException | ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static StateStore stateStore(StatefulProcessorHandle handle) throws ReflectiveOperationException {
    for (Class<?> c = handle.getClass(); c != null; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (StateStore.class.isAssignableFrom(f.getType())) {
          f.setAccessible(true);
          return (StateStore) f.get(handle);
        }
      }
    }
    throw new NoSuchFieldException("no StateStore field in " + handle.getClass().getName());
  }
}
