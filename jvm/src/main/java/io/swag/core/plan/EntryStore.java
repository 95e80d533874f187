package io.swag.core.plan;

/**
 * One key's entries in an engine's keyed state: a map from a {@code long} id to bytes (Flink's
 * {@code MapState<Long, byte[]>} of the current key). {@link StoredWindows} writes a key's windows
 * through it; the engine sets the current key before each call.
 */
public interface EntryStore {
  /** Receives the entries of the key, in no particular order. */
  interface Visitor {
    void visit(long id, byte[] bytes) throws Exception;
  }

  /** The entry {@code id}, or null. */
  byte[] get(long id) throws Exception;

  void put(long id, byte[] bytes) throws Exception;

  void remove(long id) throws Exception;

  /** Removes every entry of the key. */
  void clear() throws Exception;

  void forEach(Visitor v) throws Exception;
}
