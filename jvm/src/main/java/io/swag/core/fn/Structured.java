package io.swag.core.fn;

import java.util.Map;

/** A result with named fields (M4, Bloom filter, sketches); {@link #toMap()} is what Python sees. */
public interface Structured {
  /**
   * The result's named fields, in order.
   *
   * @return the fields, by name
   */
  Map<String, Object> toMap();
}
