package io.swag.core.fn;

import io.swag.core.AggregateFunction;
import io.swag.core.Partials;
import io.swag.core.plan.AggregateSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.kll.KllDoublesSketch;

/**
 * Runs a registered function over a sequence of values the way the engines do, so that the oracle
 * tests can compare the result with a value computed independently.
 *
 * <p>The function comes from an {@link AggregateSpec} (the query spec's path to the registry). Each
 * value is lifted with its argument (time) and the lifted values are combined in stream order
 * (older operand on the left) along four tree shapes: a left fold (what an in-order aggregator
 * does), a right fold, a balanced split, and random split points with identities combined in at
 * random places. Each shape runs twice: through the function's primitive store ({@link Partials},
 * the engines' path: typed lifts, {@code combine(dst, older, newer)} with {@code dst} aliasing
 * either operand or a free slot) and through the generic boxing form (the differential oracles'
 * path). Nothing here computes an expected value.
 */
final class OracleDrive {
  private OracleDrive() {}

  enum Shape { LEFT_FOLD, RIGHT_FOLD, BALANCED, RANDOM_SPLITS }

  /** One way of computing the aggregate and what it produced. */
  record Run(String how, Object result, Object partial, Double lowerDouble) {}

  /** The function an aggregate spec with this name and options creates. */
  static AggregateFunction<?, ?, ?> create(String name, Map<String, ?> options) {
    return new AggregateSpec("out", name, "x", options).create();
  }

  /** Arguments (times): a random non-decreasing sequence starting at {@code start}. */
  static long[] times(int n, long start, SplittableRandom r) {
    long[] t = new long[n];
    long x = start;
    for (int i = 0; i < n; i++) {
      t[i] = x;
      x += r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(1000);
    }
    return t;
  }

  /** Every shape through both paths: 8 runs. */
  static List<Run> runs(AggregateFunction<?, ?, ?> f, List<Object> xs, long[] args, long seed) {
    List<Run> out = new ArrayList<>();
    for (Shape s : Shape.values()) {
      out.add(store(f, xs, args, s, new SplittableRandom(seed * 31 + s.ordinal())));
      out.add(generic(f, xs, args, s, new SplittableRandom(seed * 37 + s.ordinal())));
    }
    return out;
  }

  /** The engines' path: a primitive (or object) store, lifts by the value's type. */
  static Run store(AggregateFunction<?, ?, ?> f, List<Object> xs, long[] args, Shape shape, SplittableRandom r) {
    Partials p = f.newPartials();
    int n = xs.size();
    int id = n;
    p.resize(n + 1);
    p.setIdentity(id);
    boolean asObjects = shape == Shape.RANDOM_SPLITS; // the input check's path: liftObject for everything
    for (int i = 0; i < n; i++) {
      lift(p, i, xs.get(i), args[i], asObjects);
    }
    int root;
    if (n == 0) {
      root = id;
    } else if (shape == Shape.LEFT_FOLD) {
      root = 0;
      for (int i = 1; i < n; i++) {
        int dst = r.nextBoolean() ? root : i;
        p.combine(dst, root, i);
        root = dst;
      }
    } else if (shape == Shape.RIGHT_FOLD) {
      root = n - 1;
      for (int i = n - 2; i >= 0; i--) {
        int dst = r.nextBoolean() ? root : i;
        p.combine(dst, i, root);
        root = dst;
      }
    } else {
      root = storeTree(p, 0, n, shape, r, id);
    }
    Object result = p.lower(root);
    Double ld = null;
    if (result == null || result instanceof Number) {
      ld = p.lowerDouble(root);
    }
    return new Run(shape + " via store", result, p.partial(root), ld);
  }

  static void lift(Partials p, int slot, Object v, long arg, boolean asObject) {
    if (asObject) {
      p.liftObject(slot, v, arg);
    } else if (v instanceof Double || v instanceof Float) {
      p.liftDouble(slot, ((Number) v).doubleValue(), arg);
    } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      p.liftLong(slot, ((Number) v).longValue(), arg);
    } else {
      p.liftObject(slot, v, arg);
    }
  }

  /** Combines slots [lo, hi) in order; returns the slot holding the result. */
  private static int storeTree(Partials p, int lo, int hi, Shape shape, SplittableRandom r, int id) {
    boolean random = shape == Shape.RANDOM_SPLITS;
    if (hi - lo == 1) {
      if (random && r.nextInt(6) == 0) {
        withIdentity(p, lo, id, r);
      }
      return lo;
    }
    int mid = random ? lo + 1 + r.nextInt(hi - lo - 1) : (lo + hi) >>> 1;
    int a = storeTree(p, lo, mid, shape, r, id);
    int b = storeTree(p, mid, hi, shape, r, id);
    int dst = a;
    if (random) {
      int c = r.nextInt(3);
      if (c == 1) {
        dst = b;
      } else if (c == 2 && hi - lo >= 3) {
        do {
          dst = lo + r.nextInt(hi - lo); // a slot of this range whose partial was already used
        } while (dst == a || dst == b);
      }
    }
    p.combine(dst, a, b);
    if (random && r.nextInt(12) == 0) {
      withIdentity(p, dst, id, r);
    }
    return dst;
  }

  private static void withIdentity(Partials p, int s, int id, SplittableRandom r) {
    if (r.nextBoolean()) {
      p.combine(s, id, s);
    } else {
      p.combine(s, s, id);
    }
  }

  /** The oracles' path: the generic form, partials as immutable values. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Run generic(AggregateFunction f0, List<Object> xs, long[] args, Shape shape, SplittableRandom r) {
    AggregateFunction<Object, Object, Object> f = f0;
    int n = xs.size();
    Object[] leaves = new Object[n];
    for (int i = 0; i < n; i++) {
      leaves[i] = f.lift(xs.get(i), args[i]);
    }
    Object acc;
    if (n == 0) {
      acc = f.identity();
    } else if (shape == Shape.LEFT_FOLD) {
      acc = f.identity();
      for (int i = 0; i < n; i++) {
        acc = f.combine(acc, leaves[i]);
      }
    } else if (shape == Shape.RIGHT_FOLD) {
      acc = f.identity();
      for (int i = n - 1; i >= 0; i--) {
        acc = f.combine(leaves[i], acc);
      }
    } else {
      acc = genericTree(f, leaves, 0, n, shape == Shape.RANDOM_SPLITS, r);
    }
    // combine must not have changed its operands: a few leaves still lower as freshly lifted ones
    for (int k = 0; k < Math.min(n, 8); k++) {
      int i = r.nextInt(n);
      Object fresh = f.lift(xs.get(i), args[i]);
      if (!fingerprint(fresh).equals(fingerprint(leaves[i]))) {
        throw new AssertionError(f.name() + " " + shape + ": combine modified the lifted partial of input " + i);
      }
    }
    return new Run(shape + " via generic form", f.lower(acc), acc, null);
  }

  private static Object genericTree(AggregateFunction<Object, Object, Object> f, Object[] leaves, int lo, int hi,
      boolean random, SplittableRandom r) {
    if (hi - lo == 1) {
      Object x = leaves[lo];
      if (random && r.nextInt(6) == 0) {
        x = r.nextBoolean() ? f.combine(f.identity(), x) : f.combine(x, f.identity());
      }
      return x;
    }
    int mid = random ? lo + 1 + r.nextInt(hi - lo - 1) : (lo + hi) >>> 1;
    Object a = genericTree(f, leaves, lo, mid, random, r);
    Object b = genericTree(f, leaves, mid, hi, random, r);
    Object c = f.combine(a, b);
    if (random && r.nextInt(12) == 0) {
      c = r.nextBoolean() ? f.combine(f.identity(), c) : f.combine(c, f.identity());
    }
    return c;
  }

  /** A comparable image of a partial (arrays by content, sketches by their bytes). */
  static Object fingerprint(Object partial) {
    if (partial instanceof double[] d) {
      long[] bits = new long[d.length];
      for (int i = 0; i < d.length; i++) {
        bits[i] = Double.doubleToRawLongBits(d[i]);
      }
      return Arrays.toString(bits);
    }
    if (partial instanceof long[] l) {
      return Arrays.toString(l);
    }
    if (partial instanceof HllSketch h) {
      return Arrays.toString(h.toCompactByteArray());
    }
    if (partial instanceof KllDoublesSketch k) {
      return Arrays.toString(k.toByteArray());
    }
    if (partial instanceof Collect.Rope rope) {
      return rope.toList();
    }
    return Objects.requireNonNull(partial);
  }
}
