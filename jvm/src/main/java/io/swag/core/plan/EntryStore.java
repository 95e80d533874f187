package io.swag.core.plan;

/**
 * One key's entries in an engine's keyed state: a map from a {@code long} id to bytes (Flink's
 * {@code MapState<Long, byte[]>} of the current key). {@link StoredWindows} writes a key's windows
 * through it; the engine sets the current key before each call.
 */
public interface EntryStore {
  /** Receives the entries of the key, in no particular order. */
  interface Visitor {
    /**
     * Receives one entry.
     *
     * @param id the entry's id
     * @param bytes the entry's bytes
     * @throws Exception if the receiver fails
     */
    void visit(long id, byte[] bytes) throws Exception;
  }

  /**
   * The entry {@code id}, or null.
   *
   * @param id the entry's id
   * @return the entry's bytes, or null
   * @throws Exception if the state backend fails
   */
  byte[] get(long id) throws Exception;

  /**
   * Sets the entry {@code id}.
   *
   * @param id the entry's id
   * @param bytes the entry's bytes
   * @throws Exception if the state backend fails
   */
  void put(long id, byte[] bytes) throws Exception;

  /**
   * Removes the entry {@code id}, if any.
   *
   * @param id the entry's id
   * @throws Exception if the state backend fails
   */
  void remove(long id) throws Exception;

  /**
   * Removes every entry of the key.
   *
   * @throws Exception if the state backend fails
   */
  void clear() throws Exception;

  /**
   * Visits every entry of the key.
   *
   * @param v the visitor
   * @throws Exception if the state backend or the visitor fails
   */
  void forEach(Visitor v) throws Exception;
}
