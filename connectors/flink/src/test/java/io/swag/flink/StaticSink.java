package io.swag.flink;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/** Test sink: appends to a named list in this JVM (the mini cluster runs in the test's JVM). */
final class StaticSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, List<Object>> LISTS = new ConcurrentHashMap<>();
  private final String name;

  StaticSink(String name) {
    this.name = name;
    LISTS.put(name, new CopyOnWriteArrayList<>());
  }

  @SuppressWarnings("unchecked")
  static <T> List<T> get(String name) {
    return (List<T>) (List<?>) LISTS.get(name);
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    List<Object> l = LISTS.get(name);
    return new SinkWriter<>() {
      @Override
      public void write(T element, Context ctx) {
        l.add(element);
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }
}
