package io.swag.core.plan;

/**
 * The aligned start at or before a time, {@code t - floorMod(t - offset, period)} (the starts are
 * {@code k * period + offset}), remembered from the last answer: a time in the same period as the
 * last one, or in the next, is answered without a division (in-order times, one record per key and
 * slide or slice); any other time costs the division and is remembered in turn. A 64-bit division
 * takes tens of cycles, and a key's record goes through three of them (its slice, its last window,
 * the next window after a firing).
 *
 * <p>Invariant: when {@code known}, {@code start} is the aligned start of a time in
 * {@code (-SAFE, SAFE)}, the remembered answers are only given for times below {@code SAFE}, and
 * {@code |offset|, period < SAFE}: every quantity stays within a {@code long}, so an answer equals
 * the formula's exactly. Not thread-safe (one per key and window).
 */
final class AlignedStart {
  private static final long SAFE = 1L << 60;
  private final long period;
  private final long offset;
  private final boolean remembers;
  private long start;
  private boolean known;

  /**
   * The aligned starts {@code k * period + offset}.
   *
   * @param period the period (a slide or a slice width), {@code > 0}
   * @param offset the offset of the starts
   */
  AlignedStart(long period, long offset) {
    this.period = period;
    this.offset = offset;
    this.remembers = period > 0 && period < SAFE && offset > -SAFE && offset < SAFE;
  }

  /**
   * The largest aligned start {@code <= t}: {@code t - floorMod(t - offset, period)}.
   *
   * @param t a time
   * @return the aligned start
   */
  long floor(long t) {
    if (known && t >= start && t < SAFE) {
      long d = t - start; // in [0, 2 SAFE): no overflow
      if (d < period) {
        return start;
      }
      if (d - period < period) {
        start += period;
        return start;
      }
    }
    long s = t - Math.floorMod(t - offset, period);
    if (remembers && t > -SAFE && t < SAFE) {
      start = s;
      known = true;
    }
    return s;
  }
}
