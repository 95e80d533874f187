package io.swag.core;

import java.util.SplittableRandom;

/**
 * Seeded random operation traces for differential tests: phases that drift the window towards a
 * target size (0, small, medium, up to {@code maxWindow}, log-uniform), including fill-and-drain
 * phases, with queries interleaved.
 */
public final class Traces {
  public enum Op { INSERT, EVICT, QUERY }

  private final SplittableRandom rnd;
  private final int maxWindow;
  private int size;
  private int target;
  private int phaseLeft;

  public Traces(long seed, int maxWindow) {
    this.rnd = new SplittableRandom(seed);
    this.maxWindow = maxWindow;
  }

  public SplittableRandom random() {
    return rnd;
  }

  /** The next operation, given that the window currently has {@code size} elements. */
  public Op next(int size) {
    this.size = size;
    if (phaseLeft-- <= 0) {
      newPhase();
    }
    if (rnd.nextInt(10) < 3) {
      return Op.QUERY;
    }
    if (size == 0) {
      return Op.INSERT;
    }
    int pInsert = size < target ? 80 : size > target ? 20 : 50;
    return rnd.nextInt(100) < pInsert ? Op.INSERT : Op.EVICT;
  }

  private void newPhase() {
    int kind = rnd.nextInt(10);
    if (kind == 0) {
      target = 0; // drain
    } else if (kind <= 3) {
      target = rnd.nextInt(17);
    } else if (kind <= 6) {
      target = rnd.nextInt(Math.min(1000, maxWindow) + 1);
    } else {
      double lg = rnd.nextDouble() * Math.log(maxWindow + 1.0);
      target = (int) Math.min(maxWindow, Math.exp(lg));
    }
    phaseLeft = 2 * Math.abs(target - size) + 50 + rnd.nextInt(200);
  }
}
