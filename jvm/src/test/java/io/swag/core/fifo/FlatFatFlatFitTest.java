package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.swag.core.AggregateFunction;
import io.swag.core.Swag;
import io.swag.core.fn.Functions;
import io.swag.core.fn.ScalarDoubleFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential tests of {@link FlatFat} ("reactive") and {@link FlatFit} against {@link Recalc}
 * on seeded random FIFO traces, of FlatFat's non-FIFO operations against a list oracle, and of the
 * combine counts the papers promise.
 */
class FlatFatFlatFitTest {

  private static final List<String> FUNCTIONS = List.of("collect", "sum", "argmax", "max");
  private static final int CHECK_BELOW = 64;

  static List<Arguments> fifoCases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 0x5EED_0001L;
    for (String algorithm : List.of("reactive", "flatfit")) {
      for (String fn : FUNCTIONS) {
        for (int k = 0; k < 2; k++) {
          out.add(Arguments.of(algorithm, fn, seed++));
        }
      }
    }
    // the typed FlatFIT (one double per partial), on the seeds of the generic one's sum and max
    for (Arguments a : List.copyOf(out)) {
      if (a.get()[0].equals("flatfit") && (a.get()[1].equals("sum") || a.get()[1].equals("max"))) {
        out.add(Arguments.of("double_flatfit", a.get()[1], a.get()[2]));
      }
    }
    return out;
  }

  private static FifoBase make(String algorithm, AggregateFunction<?, ?, ?> fn) {
    return algorithm.equals("reactive") ? new FlatFat(fn)
        : algorithm.equals("double_flatfit") ? new DoubleFlatFit((ScalarDoubleFunction) fn) : new FlatFit(fn);
  }

  private static void checkInvariants(FifoBase a) {
    if (a instanceof FlatFat t) {
      t.checkInvariants();
      assertEquals(2L * t.capacity() + 1, t.storedPartials());
    } else if (a instanceof DoubleFlatFit d) {
      d.checkInvariants();
      assertEquals(a.size() + 1L, a.storedPartials());
    } else {
      ((FlatFit) a).checkInvariants();
      assertEquals(a.size() + 1L, a.storedPartials());
    }
  }

  private static double value(SplittableRandom r, String fn) {
    switch (fn) {
      case "sum":
        return r.nextInt(-50, 51); // small integers: every sum is exact in any order
      case "argmax":
        return r.nextInt(0, 5); // many ties: the earliest maximum must win
      default:
        return r.nextInt(0, 1000);
    }
  }

  /**
   * Mixed insert / evict / query; the window size drifts towards targets between 0 and 3000 that
   * change by phase (fill-and-drain phases included), with frequent and with rare queries.
   */
  @ParameterizedTest(name = "{0} {1} seed={2}")
  @MethodSource("fifoCases")
  void fifoMatchesRecalc(String algorithm, String fnName, long seed) {
    AggregateFunction<?, ?, ?> fn = Functions.byName(fnName);
    FifoBase a = make(algorithm, fn);
    Recalc oracle = new Recalc(fn);
    SplittableRandom r = new SplittableRandom(seed);
    boolean numeric = !fnName.equals("collect");
    int ops = 30_000;
    int target = 0;
    int phaseLeft = 0;
    double queryRate = 0.2;
    int queries = 0;
    int maxSize = 0;
    for (int op = 0; op < ops; op++) {
      if (phaseLeft-- <= 0) {
        int kind = r.nextInt(6);
        target = switch (kind) {
          case 0 -> r.nextInt(0, CHECK_BELOW + 1); // small: invariants checked after every operation
          case 1 -> r.nextInt(0, 300);
          case 2, 3 -> r.nextInt(1000, 3001); // fill
          case 4 -> 0; // drain
          default -> r.nextInt(0, 3001);
        };
        phaseLeft = r.nextInt(200, 4000);
        queryRate = r.nextInt(4) == 0 ? 0.002 : (numeric ? 0.3 : 0.05);
      }
      int n = a.size();
      String where = algorithm + "/" + fnName + " seed=" + seed + " op=" + op + " n=" + n;
      double u = r.nextDouble();
      if (u < queryRate) {
        assertEquals(oracle.query(), a.query(), where);
        if (numeric) {
          assertEquals(Double.doubleToLongBits(oracle.queryDouble()), Double.doubleToLongBits(a.queryDouble()), where);
        }
        if (r.nextInt(8) == 0) { // a repeated query must not disturb anything
          assertEquals(oracle.query(), a.query(), where);
        }
        queries++;
      } else {
        double pInsert = n < target ? 0.7 : n > target ? 0.3 : 0.5;
        if (n == 0 || r.nextDouble() < pInsert) {
          if (a instanceof FlatFat t && r.nextInt(64) == 0) {
            int len = r.nextInt(1, 200);
            double[] vs = new double[len + 2];
            for (int k = 0; k < vs.length; k++) {
              vs[k] = value(r, fnName);
            }
            t.bulkInsert(vs, 1, len);
            for (int k = 1; k <= len; k++) {
              oracle.insert(vs[k]);
            }
            op += len - 1;
          } else {
            double v = value(r, fnName);
            a.insert(v);
            oracle.insert(v);
          }
        } else {
          a.evict();
          oracle.evict();
        }
      }
      assertEquals(oracle.size(), a.size(), where);
      maxSize = Math.max(maxSize, a.size());
      if (a.size() <= CHECK_BELOW) {
        checkInvariants(a);
      }
    }
    // Drain completely, querying on the way down, then the empty window.
    while (a.size() > 0) {
      a.evict();
      oracle.evict();
      if (r.nextInt(16) == 0 || a.size() < 40) {
        assertEquals(oracle.query(), a.query(), algorithm + "/" + fnName + " drain n=" + a.size());
      }
      if (a.size() <= CHECK_BELOW) {
        checkInvariants(a);
      }
    }
    assertEquals(oracle.query(), a.query());
    assertThrows(NoSuchElementException.class, a::evict);
    assertTrue(queries > 300, "too few queries: " + queries);
    assertTrue(maxSize >= 1000, "window never grew large: " + maxSize);
  }

  // ---- FlatFat non-FIFO: evictAt / update against a list of Optional values ----

  private record Item(double value, long arg) {}

  @SuppressWarnings("unchecked")
  private static Object fold(AggregateFunction<?, ?, ?> fn, List<Optional<Item>> window) {
    AggregateFunction<Object, Object, Object> g = (AggregateFunction<Object, Object, Object>) fn;
    Object acc = g.identity();
    for (Optional<Item> slot : window) {
      if (slot.isPresent()) {
        acc = g.combine(acc, g.lift(slot.get().value(), slot.get().arg()));
      }
    }
    return g.lower(acc);
  }

  private static void dropLeadingHoles(List<Optional<Item>> w) {
    int k = 0;
    while (k < w.size() && w.get(k).isEmpty()) {
      k++;
    }
    w.subList(0, k).clear();
  }

  static List<Arguments> nonFifoCases() {
    List<Arguments> out = new ArrayList<>();
    long seed = 0xF1A7_0001L;
    for (String fn : FUNCTIONS) {
      out.add(Arguments.of(fn, seed++));
    }
    return out;
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("nonFifoCases")
  void flatFatEvictAtAndUpdateMatchOracle(String fnName, long seed) {
    AggregateFunction<?, ?, ?> fn = Functions.byName(fnName);
    FlatFat t = new FlatFat(fn);
    List<Optional<Item>> w = new ArrayList<>();
    SplittableRandom r = new SplittableRandom(seed);
    long inserted = 0; // the sequence numbers FifoBase gives to insert(double)
    int ops = 20_000;
    int target = 0;
    int compactions = 0;
    int holesSeen = 0;
    for (int op = 0; op < ops; op++) {
      if (op % 1000 == 0) {
        target = r.nextInt(4) == 0 ? r.nextInt(0, 40) : r.nextInt(0, 1200);
      }
      String where = fnName + " seed=" + seed + " op=" + op + " span=" + w.size();
      int capBefore = t.capacity();
      int spanBefore = t.span();
      int live = t.size();
      int kind = r.nextInt(100);
      boolean mayRebuild = false;
      if (kind < 15) {
        assertEquals(fold(fn, w), t.query(), where);
      } else if (kind < 50 && (live < target || live == 0)) {
        double v = value(r, fnName);
        t.insert(v);
        w.add(Optional.of(new Item(v, inserted++)));
        mayRebuild = spanBefore == capBefore;
      } else if (kind < 60 && live > 0) {
        t.evict();
        w.remove(0);
        dropLeadingHoles(w);
        mayRebuild = true;
      } else if (kind < 80 && !w.isEmpty()) {
        int off = r.nextInt(w.size());
        assertEquals(w.get(off).isPresent(), t.isLive(off), where);
        if (w.get(off).isEmpty()) {
          holesSeen++;
          assertThrows(NoSuchElementException.class, () -> t.evictAt(off), where);
        } else {
          t.evictAt(off);
          w.set(off, Optional.empty());
          dropLeadingHoles(w);
          mayRebuild = true;
        }
      } else if (kind < 100 && !w.isEmpty()) {
        int off = r.nextInt(w.size());
        double v = value(r, fnName);
        if (w.get(off).isEmpty()) {
          assertThrows(NoSuchElementException.class, () -> t.update(off, v), where);
        } else if (r.nextBoolean()) {
          t.update(off, v); // arg: the number of values inserted so far
          w.set(off, Optional.of(new Item(v, inserted)));
        } else {
          long arg = r.nextLong(1_000_000);
          t.updateArg(off, v, arg);
          w.set(off, Optional.of(new Item(v, arg)));
        }
      }
      if (t.span() != w.size()) {
        // Only a rebuild (compact / resize) squeezes the holes out.
        assertTrue(mayRebuild && (t.capacity() != capBefore || spanBefore == capBefore),
            where + ": span " + t.span() + " without a rebuild");
        w.removeIf(Optional::isEmpty);
        assertEquals(w.size(), t.span(), where);
        compactions++;
      }
      assertEquals(w.stream().filter(Optional::isPresent).count(), (long) t.size(), where);
      assertThrows(IndexOutOfBoundsException.class, () -> t.evictAt(t.span()));
      if (t.size() <= CHECK_BELOW) {
        t.checkInvariants();
      }
    }
    assertEquals(fold(fn, w), t.query());
    assertTrue(compactions > 10, "too few rebuilds with holes: " + compactions);
    assertTrue(holesSeen > 100, "too few hole probes: " + holesSeen);
  }

  @Test
  void flatFatHolesAtBothEnds() {
    FlatFat t = new FlatFat(Functions.byName("collect"));
    for (int k = 0; k < 10; k++) {
      t.insert((long) k);
    }
    t.evictAt(1);
    t.evictAt(2);
    t.evictAt(9);
    assertEquals(List.of(0L, 3L, 4L, 5L, 6L, 7L, 8L), t.query());
    assertEquals(10, t.span());
    t.evict(); // drops 0 and the holes behind it
    assertEquals(7, t.span());
    assertEquals(List.of(3L, 4L, 5L, 6L, 7L, 8L), t.query());
    t.evictAt(0); // same as evict()
    assertEquals(6, t.span());
    t.update(0, 40L);
    t.insert(10L);
    assertEquals(List.of(40L, 5L, 6L, 7L, 8L, 10L), t.query());
    t.checkInvariants();
    assertThrows(NoSuchElementException.class, () -> t.evictAt(5)); // the hole left by 9
    assertThrows(IndexOutOfBoundsException.class, () -> t.evictAt(-1));
    for (int k = 0; k < 6; k++) {
      t.evict();
    }
    assertEquals(0, t.size());
    assertEquals(0, t.span());
    assertEquals(List.of(), t.query());
    assertThrows(NoSuchElementException.class, t::evict);
  }

  // ---- combine counts ----

  /** A non-commutative generic function (pairs of first, last) that counts its combines. */
  private static final class CountingFirstLast implements AggregateFunction<Object, long[], List<Long>> {
    long combines;
    private static final long[] EMPTY = new long[0];

    @Override
    public String name() {
      return "counting_first_last";
    }

    @Override
    public long[] identity() {
      return EMPTY;
    }

    @Override
    public long[] lift(Object value, long arg) {
      long v = ((Number) value).longValue();
      return new long[] {v, v};
    }

    @Override
    public long[] combine(long[] older, long[] newer) {
      combines++;
      if (older.length == 0) {
        return newer;
      }
      if (newer.length == 0) {
        return older;
      }
      return new long[] {older[0], newer[1]};
    }

    @Override
    public List<Long> lower(long[] partial) {
      return partial.length == 0 ? null : List.of(partial[0], partial[1]);
    }
  }

  @Test
  void flatFatRepairIsBatched() {
    CountingFirstLast fn = new CountingFirstLast();
    FlatFat t = new FlatFat(fn);
    int n = 4096;
    for (int k = 0; k < n; k++) {
      t.insert((long) k);
    }
    assertEquals(List.of(0L, (long) n - 1), t.query());
    assertEquals(n, t.capacity());
    long[] cur = new long[n];
    for (int k = 0; k < n; k++) {
      cur[k] = k;
    }
    SplittableRandom r = new SplittableRandom(7);
    int log = Integer.numberOfTrailingZeros(n);
    for (int m : new int[] {1, 2, 7, 64, 500, 4096}) {
      int[] offsets = r.ints(0, n).distinct().limit(m).toArray();
      Arrays.sort(offsets);
      fn.combines = 0;
      for (int off : offsets) {
        t.update(off, (long) (off + 100_000));
      }
      // Each leaf twice: the second update of a dirty leaf must not add work.
      for (int off : offsets) {
        t.updateArg(off, (long) (off + 200_000 * m), 0);
        cur[off] = off + 200_000 * m;
      }
      List<Long> expected = List.of(cur[0], cur[n - 1]);
      assertEquals(expected, t.query());
      long bound = (long) m * (1 + (int) Math.ceil(Math.log((double) n / m) / Math.log(2)));
      assertTrue(fn.combines <= bound, "m=" + m + ": " + fn.combines + " combines > " + bound);
      assertTrue(fn.combines >= log, "m=" + m + ": the root path must be repaired");
      fn.combines = 0;
      assertEquals(expected, t.query());
      assertEquals(0, fn.combines, "a second query repairs nothing");
    }
    // Inverted buffer: evict a few, insert a few, so the window wraps; query = suffix ⊕ prefix.
    for (int k = 0; k < 10; k++) {
      t.evict();
      t.insert((long) (n + k));
    }
    t.query();
    fn.combines = 0;
    t.evict();
    t.insert(-5L);
    assertEquals(List.of(cur[11], -5L), t.query());
    assertTrue(fn.combines <= 2L * log + 1 + 2L * log, "wrapped query: " + fn.combines);
    t.checkInvariants();
  }

  @Test
  void flatFatResizeIsAmortized() {
    CountingFirstLast fn = new CountingFirstLast();
    FlatFat t = new FlatFat(fn);
    SplittableRandom r = new SplittableRandom(3);
    long ops = 0;
    for (int k = 0; k < 1024; k++) {
      t.insert((long) k);
      ops++;
    }
    // Holes in the middle, one insert per hole: the full tree must grow (more than 3/4 live),
    // not be compacted again and again.
    for (int k = 0; k < 3000; k++) {
      int off;
      do {
        off = r.nextInt(1, t.span());
      } while (!t.isLive(off));
      t.evictAt(off);
      t.insert((long) k);
      ops += 2;
    }
    // The window size oscillating around every power of two, with and without holes.
    for (int size = 8; size <= 4096; size *= 2) {
      while (t.size() > size) {
        t.evict();
        ops++;
      }
      while (t.size() < size) {
        t.insert(0L);
        ops++;
      }
      for (int k = 0; k < 200; k++) {
        t.insert(1L);
        t.evict();
        t.evict();
        t.insert(2L);
        ops += 4;
        if (k % 50 == 0) {
          t.evictAt(t.span() - 1);
          t.insert(3L);
          ops += 2;
        }
      }
    }
    assertTrue(fn.combines <= 6 * ops, fn.combines + " combines for " + ops + " operations without a query");
    t.checkInvariants();
  }

  @Test
  void flatFitIsAmortizedConstant() {
    CountingFirstLast fn = new CountingFirstLast();
    // Fixed-size sliding window: about 3 combines per slide (FlatFIT paper, Section 4.1).
    FlatFit f = new FlatFit(fn);
    int n = 1000;
    for (int k = 0; k < n; k++) {
      f.insert((long) k);
    }
    f.query();
    fn.combines = 0;
    int slides = 50_000;
    for (int k = 0; k < slides; k++) {
      f.insert((long) (n + k));
      f.evict();
      assertEquals(List.of((long) k + 1, (long) (n + k)), f.query());
    }
    assertTrue(fn.combines <= 3L * slides, "fixed window: " + fn.combines + " combines for " + slides + " slides");
    // Dynamic FIFO window with a query after every operation.
    SplittableRandom r = new SplittableRandom(11);
    FlatFit g = new FlatFit(fn);
    fn.combines = 0;
    int ops = 100_000;
    int target = 0;
    long first = 0;
    long next = 0;
    for (int k = 0; k < ops; k++) {
      if (k % 2000 == 0) {
        target = r.nextInt(0, 3000);
      }
      if (g.size() == 0 || (g.size() < target ? r.nextInt(10) < 7 : r.nextInt(10) < 3)) {
        g.insert(next++);
      } else {
        g.evict();
        first++;
      }
      assertEquals(g.size() == 0 ? null : List.of(first, next - 1), g.query());
    }
    assertTrue(fn.combines <= 4L * ops, "dynamic window: " + fn.combines + " combines for " + ops + " operations");
  }

  @Test
  void registeredInSwag() {
    Function<String, FifoBase> max = name -> Swag.fifo(name, "max");
    FifoBase reactive = max.apply("flatfat");
    FifoBase flatfit = max.apply("flatfit");
    assertInstanceOf(FlatFat.class, reactive);
    assertInstanceOf(DoubleFlatFit.class, flatfit, "max has one double per partial: the typed FlatFIT");
    assertInstanceOf(FlatFit.class, Swag.fifo("flatfit", "argmax"));
    assertInstanceOf(FlatFat.class, max.apply("reactive"), "the deprecated alias builds the same structure");
    assertEquals("flatfat", reactive.algorithm());
    assertEquals("flatfit", flatfit.algorithm());
    for (FifoBase a : List.of(reactive, flatfit)) {
      a.insert(3.0);
      a.insert(5.0);
      a.insert(4.0);
      a.evict();
      assertEquals(5.0, a.queryDouble());
    }
  }

  @Test
  void rejectedValueLeavesWindowUnchanged() {
    for (String algorithm : List.of("reactive", "flatfit")) {
      FifoBase a = Swag.fifo(algorithm, "sum");
      a.insert(1.0);
      a.insert(2.0);
      assertThrows(RuntimeException.class, () -> a.insert(Double.NaN));
      a.insert(4.0);
      assertEquals(7.0, a.queryDouble(), algorithm);
      checkInvariants(a);
      if (a instanceof FlatFat t) {
        assertThrows(RuntimeException.class, () -> t.update(0, Double.NaN));
        assertEquals(7.0, a.queryDouble());
        t.checkInvariants();
      }
    }
    try {
      new FlatFat(Functions.byName("sum")).bulkInsert(new double[3], 2, 2);
      fail("bulkInsert out of range");
    } catch (IndexOutOfBoundsException expected) {
      // ok
    }
  }
}
