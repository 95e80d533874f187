package io.swag.flink;

import java.util.Arrays;

/**
 * A map from a {@code long} key to a value, looked up by the primitive key: no box, no node. The
 * operator's index of its cached keys for {@link PackedRecord}s, whose key is a {@code long}.
 *
 * <p>Layout: open addressing with linear probing in two parallel arrays of a power-of-two capacity,
 * {@code keys} and {@code values}; a slot is empty when its value is null. The home slot of a key is
 * the top bits of the key times the 64-bit golden ratio (Fibonacci hashing). The table doubles
 * before it is half full, and a removal shifts the entries after it back (no tombstones).
 *
 * <p>Invariants: values are non-null; each key is in at most one slot; every slot from a key's home
 * slot up to its own holds an entry (so a look-up stops at the first empty slot); at most half the
 * slots are full. Not thread-safe.
 *
 * @param <V> the values' type
 */
final class LongKeyIndex<V> {
  private static final long PHI = 0x9E3779B97F4A7C15L;
  private long[] keys;
  private Object[] values;
  private int shift; // 64 - log2(capacity)
  private int size;

  /** An empty index. */
  LongKeyIndex() {
    keys = new long[16];
    values = new Object[16];
    shift = 64 - 4;
  }

  /** The number of keys. */
  int size() {
    return size;
  }

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = home(key); ; i = (i + 1) & mask) {
      Object v = values[i];
      if (v == null || keys[i] == key) {
        return (V) v;
      }
    }
  }

  /** Maps {@code key} to {@code value} (non-null), replacing its value if it has one. */
  void put(long key, V value) {
    if (value == null) {
      throw new IllegalArgumentException("LongKeyIndex: null value for key " + key);
    }
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    int i = home(key);
    while (values[i] != null && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (values[i] == null) {
      size++;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Removes {@code key} if it is in the index. */
  void remove(long key) {
    int mask = keys.length - 1;
    int i = home(key);
    while (true) {
      if (values[i] == null) {
        return;
      }
      if (keys[i] == key) {
        break;
      }
      i = (i + 1) & mask;
    }
    size--;
    // backward shift: move each later entry of the run whose home slot is not in (i, j] into the hole
    int j = i;
    while (true) {
      j = (j + 1) & mask;
      if (values[j] == null) {
        break;
      }
      int h = home(keys[j]);
      boolean stays = i <= j ? i < h && h <= j : i < h || h <= j; // its home is cyclically in (i, j]
      if (!stays) {
        keys[i] = keys[j];
        values[i] = values[j];
        i = j;
      }
    }
    values[i] = null;
  }

  /** Removes every key. */
  void clear() {
    Arrays.fill(values, null);
    size = 0;
  }

  private int home(long key) {
    return (int) ((key * PHI) >>> shift);
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldKeys.length * 2];
    shift--;
    int mask = keys.length - 1;
    for (int k = 0; k < oldKeys.length; k++) {
      if (oldValues[k] != null) {
        int i = home(oldKeys[k]);
        while (values[i] != null) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[k];
        values[i] = oldValues[k];
      }
    }
  }
}
