package io.swag.core.plan;

import io.swag.core.Partials;

/**
 * Checks that a function accepts an input by lifting it into a one-slot scratch store: the
 * aggregators that buffer records before lifting them (DABA Lite's pending records, slices) use it
 * so that a bad value is rejected when it arrives, not when it is first queried. O(one lift).
 */
final class InputCheck {
  private final Partials scratch;

  InputCheck(ProductFunction fn) {
    this.scratch = fn.aggregated().newPartials();
    scratch.resize(1);
  }

  /** @throws IllegalArgumentException naming the function and value if the input is rejected */
  void check(Object value, long time) {
    scratch.liftObject(0, value, time);
    scratch.release(0);
  }
}
