package io.swag.flink.table;

import io.swag.core.SwagException;
import io.swag.core.SwagException.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.table.functions.FunctionContext;

/**
 * A SQL function instance's heap objects per key (aggregators), found by a random token that the
 * key's state keeps: at most {@code maxKeys} entries, least recently used dropped. The functions write
 * their state through on every call, so dropping an entry loses nothing; a key whose entry is gone
 * rebuilds it from its state. The cache belongs to one function instance, created with its task, so
 * after a restore no entry can be stale.
 *
 * <p>Invariants: a token is never 0 (0 marks state without one); at most {@code maxKeys} entries.
 */
final class TokenCache<V> {
  private final LinkedHashMap<Long, V> entries;
  private final SplittableRandom tokens;
  private final int maxKeys;

  TokenCache(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys: " + maxKeys + " (must be >= 1)");
    }
    this.maxKeys = maxKeys;
    this.entries = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, V> e) {
        return size() > maxKeys;
      }
    };
    this.tokens = new SplittableRandom(System.nanoTime() ^ System.identityHashCode(this));
  }

  /**
   * The job parameter {@code param} as a positive key count ({@code defaultKeys} when unset); a bad
   * value fails with an error naming the function, the parameter and the value.
   */
  static int maxKeys(FunctionContext context, String param, int defaultKeys, String function) {
    String v = context.getJobParameter(param, Integer.toString(defaultKeys));
    int max;
    try {
      max = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      max = -1;
    }
    if (max < 1) {
      throw new SwagException(Kind.INVALID_QUERY, function + ": job parameter " + param + " must be a positive integer, got '"
          + v + "'");
    }
    return max;
  }

  /** A fresh token (never 0). */
  long newToken() {
    long t;
    do {
      t = tokens.nextLong();
    } while (t == 0);
    return t;
  }

  V get(long token) {
    return entries.get(token);
  }

  void put(long token, V v) {
    entries.put(token, v);
  }

  /** Whether a new entry would drop the least recently used one. */
  boolean full() {
    return entries.size() >= maxKeys;
  }

  void remove(long token) {
    entries.remove(token);
  }
}
