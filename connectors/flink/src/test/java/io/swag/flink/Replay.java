package io.swag.flink;

import java.util.List;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * A generator of a seeded list of rows, by index: the list is made in the task by {@code rows}, so a
 * restarted job replays the same rows.
 */
public final class Replay implements GeneratorFunction<Long, Row> {
  private static final long serialVersionUID = 1L;
  private final SerializableSupplier<List<Row>> rows;
  private transient List<Row> made;

  public Replay(SerializableSupplier<List<Row>> rows) {
    this.rows = rows;
  }

  @Override
  public Row map(Long i) {
    if (made == null) {
      made = rows.get();
    }
    return made.get(i.intValue());
  }
}
