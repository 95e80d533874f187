package io.swag.flink;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import io.swag.core.plan.OnError;
import java.io.Serializable;

/**
 * Options of the swag Flink operator ({@link SwagWindows#aggregate}). Immutable; the {@code with*}
 * methods return copies.
 */
public final class SwagFlinkOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String operatorName;
  private final String uid;
  private final int parallelism;
  private final int cacheMaxKeys;
  private final OnError onError;
  private final KeyLayout keyLayout;
  private final Firing firing;

  /**
   * How the operator keys its state (option {@code key_layout}): the Flink key of a record, and so
   * the key serializer of the operator's checkpoints and savepoints. A savepoint restores only into
   * a job with the layout it was taken with.
   */
  public enum KeyLayout {
    /**
     * A query with one key column is keyed by the column's own value (its type's serializer); a row
     * whose key is null is keyed by the type's default instance and rejected by the operator. Other
     * queries are keyed as by {@link #ROW}. The default.
     */
    VALUE,
    /** Every query is keyed by a {@code Row} of its key columns (a {@code RowTypeInfo} key). */
    ROW;

    /**
     * The layout named {@code value} or {@code row}.
     *
     * @param name the layout's name
     * @return the layout
     * @throws SwagException if the name is neither
     */
    public static KeyLayout parse(String name) {
      return parseChoice("key_layout", name, values());
    }
  }

  /**
   * When the operator emits the windows a watermark makes due (option {@code firing}).
   */
  public enum Firing {
    /**
     * Paced over the records that follow the watermark, so that the firing overlaps the upstream
     * tasks' work instead of stopping them (their network buffers hold a few milliseconds of
     * records) for one burst per watermark; the watermark goes on once they have fired. Each row
     * comes out by a deadline of the last watermark interval's processing time (10 ms to 60 s) after
     * the watermark that made it due (earlier when a checkpoint, the next watermark, the end of the
     * input or an idle input comes first), before the watermark that passes its window. The same
     * rows as {@link #WATERMARK}, in the same order per key. The default.
     */
    PACED,
    /** All at the watermark, before it goes on: the lowest latency, a burst per watermark. */
    WATERMARK;

    /**
     * The firing named {@code paced} or {@code watermark}.
     *
     * @param name the firing's name
     * @return the firing
     * @throws SwagException if the name is neither
     */
    public static Firing parse(String name) {
      return parseChoice("firing", name, values());
    }
  }

  /**
   * The choice of option {@code option} named {@code name}: the constant whose name in lower case it
   * is. The one check of the enum options' names.
   */
  private static <E extends Enum<E>> E parseChoice(String option, String name, E[] choices) {
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < choices.length; i++) {
      String n = choices[i].name().toLowerCase(java.util.Locale.ROOT);
      if (n.equals(name)) {
        return choices[i];
      }
      expected.append(i == 0 ? "" : i == choices.length - 1 ? " or " : ", ").append('\'').append(n).append('\'');
    }
    throw new SwagException(Kind.INVALID_QUERY, option + ": expected " + expected + ", got '" + name + "'");
  }

  /**
   * Keys per operator subtask whose aggregators stay on the heap by default. A key's aggregator
   * costs O(its slices or entries in the window); the rest of its state is in the state backend.
   */
  public static final int DEFAULT_CACHE_MAX_KEYS = 100_000;

  private SwagFlinkOptions(String operatorName, String uid, int parallelism, int cacheMaxKeys, OnError onError,
      KeyLayout keyLayout, Firing firing) {
    this.firing = firing;
    this.operatorName = operatorName;
    this.uid = uid;
    this.parallelism = parallelism;
    this.cacheMaxKeys = cacheMaxKeys;
    this.onError = onError;
    this.keyLayout = keyLayout;
  }

  /**
   * Defaults: operator name {@code swag-windows}, no uid, the environment's parallelism,
   * {@value #DEFAULT_CACHE_MAX_KEYS} cached keys, rejected records to the side output, the
   * {@link KeyLayout#VALUE} key layout, {@link Firing#PACED} firing.
   *
   * @return the default options
   */
  public static SwagFlinkOptions defaults() {
    return new SwagFlinkOptions("swag-windows", null, -1, DEFAULT_CACHE_MAX_KEYS, OnError.REJECT, KeyLayout.VALUE, Firing.PACED);
  }

  /**
   * The operator's name in the job graph and in metrics.
   *
   * @param name the operator's name
   * @return a copy with that name
   */
  public SwagFlinkOptions withOperatorName(String name) {
    return new SwagFlinkOptions(name, uid, parallelism, cacheMaxKeys, onError, keyLayout, firing);
  }

  /**
   * The operator's uid, so that savepoints map its state back (recommended for production jobs).
   *
   * @param uid the operator's uid
   * @return a copy with that uid
   */
  public SwagFlinkOptions withUid(String uid) {
    return new SwagFlinkOptions(operatorName, uid, parallelism, cacheMaxKeys, onError, keyLayout, firing);
  }

  /**
   * The operator's parallelism ({@code -1}: the environment's).
   *
   * @param parallelism the parallelism, or {@code -1}
   * @return a copy with that parallelism
   */
  public SwagFlinkOptions withParallelism(int parallelism) {
    if (parallelism == 0 || parallelism < -1) {
      throw new SwagException(Kind.INVALID_QUERY, "parallelism: " + parallelism + " (must be >= 1, or -1 for the default)");
    }
    return new SwagFlinkOptions(operatorName, uid, parallelism, cacheMaxKeys, onError, keyLayout, firing);
  }

  /**
   * At most this many keys per subtask keep their aggregators on the heap (option
   * {@code cache_max_keys}); the least recently used ones leave it first, after writing their
   * changes to keyed state, and are rebuilt from it (one bulk insert) at their next record or timer,
   * with the same results. With RocksDB or ForSt the state can then be far larger than the heap.
   *
   * @param keys the maximum number of cached keys per subtask
   * @return a copy with that bound
   */
  public SwagFlinkOptions withCacheMaxKeys(int keys) {
    if (keys < 1) {
      throw new SwagException(Kind.INVALID_QUERY, "cache_max_keys: " + keys + " (must be >= 1)");
    }
    return new SwagFlinkOptions(operatorName, uid, parallelism, keys, onError, keyLayout, firing);
  }

  /**
   * What a rejected record does (option {@code on_error}, {@link OnError}): {@code reject} (the
   * default) sends it to the rejected side output with its reason; {@code fail} fails the job.
   *
   * @param mode {@code reject} or {@code fail}
   * @return a copy with that mode
   */
  public SwagFlinkOptions withOnError(String mode) {
    return new SwagFlinkOptions(operatorName, uid, parallelism, cacheMaxKeys, OnError.parse("on_error", mode), keyLayout, firing);
  }

  /**
   * How the operator keys its state ({@link KeyLayout}, option {@code key_layout}): {@code value}
   * (the default) or {@code row}. A savepoint restores only with the layout it was taken with.
   *
   * @param layout {@code value} or {@code row}
   * @return a copy with that layout
   */
  public SwagFlinkOptions withKeyLayout(String layout) {
    return new SwagFlinkOptions(operatorName, uid, parallelism, cacheMaxKeys, onError, KeyLayout.parse(layout), firing);
  }

  /**
   * When the operator emits due windows ({@link Firing}, option {@code firing}): {@code paced} (the
   * default) or {@code watermark}.
   *
   * @param firing {@code paced} or {@code watermark}
   * @return a copy with that firing
   */
  public SwagFlinkOptions withFiring(String firing) {
    return new SwagFlinkOptions(operatorName, uid, parallelism, cacheMaxKeys, onError, keyLayout, Firing.parse(firing));
  }

  /**
   * When the operator emits due windows.
   *
   * @return the firing
   */
  public Firing firing() {
    return firing;
  }

  /**
   * How the operator keys its state.
   *
   * @return the key layout
   */
  public KeyLayout keyLayout() {
    return keyLayout;
  }

  /**
   * What a rejected record does.
   *
   * @return the mode
   */
  public OnError onError() {
    return onError;
  }

  /**
   * At most this many keys per subtask keep their aggregators on the heap.
   *
   * @return the bound
   */
  public int cacheMaxKeys() {
    return cacheMaxKeys;
  }

  /**
   * The operator's name.
   *
   * @return the name
   */
  public String operatorName() {
    return operatorName;
  }

  /**
   * The operator's uid.
   *
   * @return the uid, or null for none
   */
  public String uid() {
    return uid;
  }

  /**
   * The operator's parallelism.
   *
   * @return the parallelism, or {@code -1} for the environment's
   */
  public int parallelism() {
    return parallelism;
  }
}
