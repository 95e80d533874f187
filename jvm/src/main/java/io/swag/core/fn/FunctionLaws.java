package io.swag.core.fn;

import io.swag.core.AggregateFunction;
import io.swag.core.ByteForm;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Checks on sample values the laws every swag algorithm relies on, for a user's function before it
 * runs on an engine (docs/udaf.md). Partials are compared by what they {@code lower} to.
 *
 * <ul>
 *   <li>identity: {@code combine(identity, x)} and {@code combine(x, identity)} lower as {@code x};
 *   <li>associativity: the combination of the samples in time order lowers the same under random
 *       groupings (the trees and stacks group them differently);
 *   <li>commutativity, if claimed: {@code combine(a, b)} lowers as {@code combine(b, a)};
 *   <li>inverse, if invertibility is claimed: {@code inverse(combine(a, b), a)} lowers as {@code b};
 *   <li>byte form, if the class has one: a partial read back from its bytes lowers the same, combines
 *       the same, and {@link ByteForm#byteSize} is the number of bytes written.
 * </ul>
 * Floating-point results are compared with a relative tolerance {@code 1e-9}. A law that throws is
 * reported with the exception.
 */
public final class FunctionLaws {
  private FunctionLaws() {}

  /**
   * The violations found, as readable lines (empty if none): {@code fn} over {@code samples}
   * (inputs as an engine passes them, at times 0, 1, 2, ...), with {@code rounds} random groupings
   * drawn from {@code seed}.
   *
   * @param function the function under test
   * @param samples the inputs
   * @param rounds the number of random rounds
   * @param seed the random seed
   * @return the violations
   */
  @SuppressWarnings("unchecked")
  public static List<String> check(AggregateFunction<?, ?, ?> function, List<?> samples, int rounds, long seed) {
    AggregateFunction<Object, Object, Object> fn = (AggregateFunction<Object, Object, Object>) function;
    List<String> bad = new ArrayList<>();
    if (samples.isEmpty()) {
      bad.add("no sample values to check");
      return bad;
    }
    Object[] lifted = new Object[samples.size()];
    for (int i = 0; i < lifted.length; i++) {
      try {
        lifted[i] = fn.lift(samples.get(i), i);
      } catch (RuntimeException e) {
        bad.add("lift(" + samples.get(i) + ", " + i + ") threw " + e);
        return bad;
      }
    }
    String name = fn.name();
    try {
      Object id = fn.identity();
      for (int i = 0; i < lifted.length; i++) {
        Object x = fn.lower(lifted[i]);
        if (!same(fn.lower(fn.combine(id, lifted[i])), x)) {
          bad.add(name + ": combine(identity, lift(sample " + i + ")) lowers to " + fn.lower(fn.combine(id, lifted[i]))
              + ", not " + x);
          break;
        }
        if (!same(fn.lower(fn.combine(lifted[i], id)), x)) {
          bad.add(name + ": combine(lift(sample " + i + "), identity) lowers to " + fn.lower(fn.combine(lifted[i], id))
              + ", not " + x);
          break;
        }
      }
    } catch (RuntimeException e) {
      bad.add(name + ": the identity law threw " + e);
    }
    try {
      Object left = fn.identity();
      for (Object p : lifted) {
        left = fn.combine(left, p);
      }
      Object expected = fn.lower(left);
      Random r = new Random(seed);
      for (int k = 0; k < rounds; k++) {
        Object grouped = group(fn, lifted, 0, lifted.length, r);
        Object got = fn.lower(grouped);
        if (!same(got, expected)) {
          bad.add(name + ": not associative: a random grouping of the " + lifted.length + " samples (round " + k
              + ") lowers to " + got + ", the left-to-right combination to " + expected);
          break;
        }
      }
    } catch (RuntimeException e) {
      bad.add(name + ": the associativity check threw " + e);
    }
    if (fn.isCommutative()) {
      try {
        for (int i = 0; i + 1 < lifted.length; i++) {
          Object ab = fn.lower(fn.combine(lifted[i], lifted[i + 1]));
          Object ba = fn.lower(fn.combine(lifted[i + 1], lifted[i]));
          if (!same(ab, ba)) {
            bad.add(name + ": claims to be commutative, but samples " + i + " and " + (i + 1) + " combine to " + ab
                + " one way and " + ba + " the other");
            break;
          }
        }
      } catch (RuntimeException e) {
        bad.add(name + ": the commutativity check threw " + e);
      }
    }
    if (fn.isInvertible()) {
      try {
        for (int i = 0; i + 1 < lifted.length; i++) {
          Object whole = fn.combine(lifted[i], lifted[i + 1]);
          Object got = fn.lower(fn.inverse(whole, lifted[i]));
          Object want = fn.lower(lifted[i + 1]);
          if (!same(got, want)) {
            bad.add(name + ": claims to be invertible, but inverse(combine(a, b), a) lowers to " + got + ", not " + want
                + " (samples " + i + ", " + (i + 1) + ")");
            break;
          }
        }
      } catch (RuntimeException e) {
        bad.add(name + ": the inverse check threw " + e);
      }
    }
    if (fn instanceof ByteForm<?> b) {
      ByteForm<Object> bf = (ByteForm<Object>) b;
      try {
        Object acc = fn.identity();
        for (int i = 0; i < lifted.length; i++) {
          acc = fn.combine(acc, lifted[i]);
          int size = bf.byteSize(acc);
          ByteBuffer buf = ByteBuffer.allocate(size + 16);
          bf.write(acc, buf);
          if (buf.position() != size) {
            bad.add(name + ": byteSize says " + size + " bytes, write put " + buf.position());
            break;
          }
          buf.flip();
          Object back = bf.read(buf, size);
          if (!same(fn.lower(back), fn.lower(acc))) {
            bad.add(name + ": a partial read back from its bytes lowers to " + fn.lower(back) + ", not "
                + fn.lower(acc));
            break;
          }
          Object next = lifted[(i + 1) % lifted.length];
          if (!same(fn.lower(fn.combine(back, next)), fn.lower(fn.combine(acc, next)))) {
            bad.add(name + ": a partial read back from its bytes combines differently from the original");
            break;
          }
        }
      } catch (RuntimeException e) {
        bad.add(name + ": the byte form check threw " + e);
      }
    }
    return bad;
  }

  /** The combination of {@code p[from, to)} under a random binary grouping, order kept. */
  private static Object group(AggregateFunction<Object, Object, Object> fn, Object[] p, int from, int to, Random r) {
    if (to - from == 1) {
      return p[from];
    }
    int mid = from + 1 + r.nextInt(to - from - 1);
    return fn.combine(group(fn, p, from, mid, r), group(fn, p, mid, to, r));
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      if (x.isNaN() || y.isNaN()) {
        return x.isNaN() && y.isNaN();
      }
      return Math.abs(x - y) <= 1e-9 * Math.max(1.0, Math.max(Math.abs(x), Math.abs(y)));
    }
    return Objects.equals(a, b);
  }
}
