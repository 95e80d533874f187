package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.AggregateFunction;
import io.swag.core.Algorithm;
import io.swag.core.Swag;
import io.swag.core.TimedAggregator;
import io.swag.core.Traces;
import io.swag.core.fn.Functions;
import io.swag.core.fn.Mean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typed in-order aggregators ({@link DoubleFifo}) against their generic twins
 * ({@link PartialsFifo}): which one the factories build, the same results and the same stored
 * partials to the bit on seeded traces, the same errors, and the papers' DABA / DABA Lite invariants
 * checked exactly with the non-commutative {@link Interval} function.
 */
class TypedFifoTest {
  /** The algorithms with a typed form, and its class. */
  static final Map<Algorithm, Class<?>> TYPED = Map.of(
      Algorithm.DABA_LITE, DoubleDabaLite.class,
      Algorithm.TWO_STACKS_LITE, DoubleTwoStacksLite.class,
      Algorithm.DABA, DoubleDaba.class,
      Algorithm.FLATFIT, DoubleFlatFit.class);

  static final List<String> SCALAR = List.of("sum", "min", "max", "first", "last", "interval");

  /** The functions whose partial is a count and one double, run typed on their summands. */
  static final List<String> COUNTED = List.of("mean", "geomean");

  static AggregateFunction<?, ?, ?> scalar(String name) {
    return name.equals("interval") ? new Interval() : Functions.byName(name);
  }

  @Test
  void factoriesPickTheTypedClassForScalarFunctions() {
    for (String a : Swag.FIFO_ALGORITHMS) {
      Algorithm alg = Algorithm.parse(a);
      for (String f : List.of("sum", "min", "max", "first", "last", "mean", "geomean")) {
        if (alg == Algorithm.SOE && !Functions.byName(f).isInvertible()) {
          continue; // needs an invertible function
        }
        Class<?> want = TYPED.containsKey(alg) ? TYPED.get(alg) : alg.newGenericFifo(Functions.byName(f)).getClass();
        assertSame(want, Swag.fifo(a, f).getClass(), a + " x " + f);
        TimedAggregator t = Swag.timed(a, f);
        assertSame(want, ((TimedFifo) t).inner().getClass(), "timed " + a + " x " + f);
        assertInstanceOf(PartialsFifo.class, alg.newGenericFifo(Functions.byName(f)));
      }
      for (String f : List.of("count", "stddev", "argmax", "collect")) {
        if (alg == Algorithm.SOE && !Functions.byName(f).isInvertible()) {
          continue;
        }
        assertInstanceOf(PartialsFifo.class, Swag.fifo(a, f), a + " x " + f + ": no typed form");
      }
    }
  }

  static Stream<Arguments> pairs() {
    List<Arguments> out = new ArrayList<>();
    for (Algorithm a : TYPED.keySet()) {
      for (String f : SCALAR) {
        out.add(Arguments.of(a.id(), f));
      }
      for (String f : COUNTED) {
        out.add(Arguments.of(a.id(), f));
      }
    }
    return out.stream();
  }

  /**
   * Typed and generic driven in lockstep: every query's partial, result and double result, and
   * after every operation the size, the stored-partial count, the ring's capacity and, for the
   * algorithms that expose them, every stored partial as bytes (the byte form of a double partial:
   * its IEEE bits).
   */
  @ParameterizedTest(name = "{0} x {1}")
  @MethodSource("pairs")
  void sameAsGeneric(String algorithm, String function) {
    AggregateFunction<?, ?, ?> fn = scalar(function);
    Algorithm alg = Algorithm.parse(algorithm);
    FifoBase typed = alg.newFifo(fn);
    FifoBase generic = alg.newGenericFifo(fn);
    assertInstanceOf(TYPED.get(alg), typed);
    boolean interval = function.equals("interval");
    boolean geomean = function.equals("geomean");
    Traces t = new Traces(0xD0B1EL ^ algorithm.hashCode() * 31L ^ function.hashCode(), 3000);
    SplittableRandom r = t.random();
    long next = 0;
    int maxSeen = 0;
    for (int op = 0; op < 60_000; op++) {
      String where = algorithm + " x " + function + " op " + op;
      switch (t.next(generic.size())) {
        case INSERT -> {
          long k = next++;
          double v = interval ? k : geomean ? r.nextInt(4, 4001) / 4.0 : r.nextInt(-1000, 1001) / 4.0;
          switch (r.nextInt(4)) {
            case 0 -> both(typed, generic, w -> w.insert(v));
            case 1 -> both(typed, generic, w -> w.insert((Object) v));
            case 2 -> both(typed, generic, w -> w.insert((long) Math.floor(v)));
            default -> both(typed, generic, w -> w.insertArg(v, 1000 + k));
          }
          if (interval && (long) Math.floor(v) != v) {
            throw new AssertionError("interval inputs are integers");
          }
        }
        case EVICT -> both(typed, generic, FifoBase::evict);
        case QUERY -> {
          assertArrayEquals((double[]) generic.queryPartial(), (double[]) typed.queryPartial(), where);
          assertEquals(generic.query(), typed.query(), where);
          assertEquals(Double.doubleToRawLongBits(generic.queryDouble()), Double.doubleToRawLongBits(typed.queryDouble()),
              where);
          if (interval && typed.size() > 0) {
            assertEquals(Interval.of(next - typed.size(), next - 1), typed.queryDouble(), where);
          }
        }
      }
      assertEquals(generic.size(), typed.size(), where);
      assertEquals(generic.storedPartials(), typed.storedPartials(), where);
      assertEquals(((PartialsFifo) generic).cap, ((DoubleFifo) typed).cap, where + ": ring capacity");
      if (op % 7 == 0 || typed.size() < 40) {
        assertArrayEquals(state(generic), state(typed), where + ": stored partials");
      }
      if (typed instanceof DoubleFlatFit ff && (typed.size() < 200 || op % 97 == 0)) {
        ff.checkInvariants();
      }
      maxSeen = Math.max(maxSeen, typed.size());
    }
    assertTrue(maxSeen > 1000, "trace never grew the window: " + maxSeen);
  }

  private static void both(FifoBase a, FifoBase b, java.util.function.Consumer<FifoBase> op) {
    op.accept(a);
    op.accept(b);
  }

  /**
   * Every stored partial the class exposes, in the byte form of double partials; empty if none. Of a
   * generic mean's (count, summand) partials, the summand (the typed classes keep only it).
   */
  static byte[] state(FifoBase w) {
    int n = w.size();
    ByteBuffer out;
    if (w instanceof DabaLite g) {
      out = ByteBuffer.allocate(8 * (n + 2));
      for (int i = 0; i < n; i++) {
        out.putDouble(last(g.at(i)));
      }
      out.putDouble(last(g.aggRA())).putDouble(last(g.aggB()));
    } else if (w instanceof DoubleDabaLite d) {
      out = ByteBuffer.allocate(8 * (n + 2));
      for (int i = 0; i < n; i++) {
        out.putDouble(d.at(i));
      }
      out.putDouble(d.aggRA()).putDouble(d.aggB());
    } else if (w instanceof Daba g) {
      out = ByteBuffer.allocate(16 * n);
      for (int i = 0; i < n; i++) {
        out.putDouble(last(g.valAt(i))).putDouble(last(g.aggAt(i)));
      }
    } else if (w instanceof DoubleDaba d) {
      out = ByteBuffer.allocate(16 * n);
      for (int i = 0; i < n; i++) {
        out.putDouble(d.valAt(i)).putDouble(d.aggAt(i));
      }
    } else {
      out = ByteBuffer.allocate(0);
    }
    return out.array();
  }

  private static double last(Object partial) {
    double[] p = (double[]) partial;
    return p[p.length - 1];
  }

  @Test
  void sameErrorsAsGeneric() {
    for (Algorithm alg : TYPED.keySet()) {
      FifoBase typed = alg.newFifo(Functions.byName("min"));
      FifoBase generic = alg.newGenericFifo(Functions.byName("min"));
      assertInstanceOf(DoubleFifo.class, typed);
      assertEquals(message(NoSuchElementException.class, generic::evict), message(NoSuchElementException.class, typed::evict));
      typed.insert(2.0);
      generic.insert(2.0);
      assertEquals(message(IllegalArgumentException.class, () -> generic.insert(Double.NaN)),
          message(IllegalArgumentException.class, () -> typed.insert(Double.NaN)));
      assertEquals(message(IllegalArgumentException.class, () -> generic.insert((Object) Double.NaN)),
          message(IllegalArgumentException.class, () -> typed.insert((Object) Double.NaN)));
      assertEquals(message(IllegalArgumentException.class, () -> generic.insert("x")),
          message(IllegalArgumentException.class, () -> typed.insert("x")));
      assertEquals(message(IllegalArgumentException.class, () -> generic.insert((Object) null)),
          message(IllegalArgumentException.class, () -> typed.insert((Object) null)));
      assertEquals(1, typed.size(), "rejected values leave the window unchanged");
      typed.insert(Integer.valueOf(-3));
      typed.insert(7L);
      assertEquals(-3.0, typed.queryDouble());
      typed.evict();
      typed.evict();
      assertEquals(7.0, typed.query());
      typed.evict();
      assertEquals(null, typed.query(), "empty min: null");
      assertTrue(Double.isNaN(typed.queryDouble()));
      assertEquals(alg.id(), typed.algorithm());
      assertSame(generic.function().getClass(), typed.function().getClass());
    }
  }

  /**
   * Mean and geomean on their summands answer as the mean itself: the aggregator's function, the
   * empty window's NaN, and the generic class's errors (geomean's non-positive inputs, NaN, values
   * that are not numbers) with the window left unchanged.
   */
  @Test
  void countedFunctionsAnswerAsTheirMean() {
    for (Algorithm alg : TYPED.keySet()) {
      for (String f : COUNTED) {
        Mean fn = (Mean) Functions.byName(f);
        FifoBase typed = alg.newFifo(fn);
        FifoBase generic = alg.newGenericFifo(fn);
        assertInstanceOf(TYPED.get(alg), typed);
        assertSame(fn, typed.function());
        assertEquals(generic.query(), typed.query());
        assertTrue(Double.isNaN(typed.queryDouble()));
        assertArrayEquals((double[]) generic.queryPartial(), (double[]) typed.queryPartial());
        typed.insert(2.0);
        generic.insert(2.0);
        List<Object> bad = new ArrayList<>(List.of(Double.NaN, "x"));
        if (f.equals("geomean")) {
          bad.addAll(List.of(0.0, -0.0, -1.0, Double.NEGATIVE_INFINITY, 0L, -3L, 0, -2.5f));
        }
        for (Object v : bad) {
          assertEquals(message(IllegalArgumentException.class, () -> generic.insert(v)),
              message(IllegalArgumentException.class, () -> typed.insert(v)), alg + " x " + f + ": " + v);
          if (v instanceof Double d) {
            assertEquals(message(IllegalArgumentException.class, () -> generic.insert((double) d)),
                message(IllegalArgumentException.class, () -> typed.insert((double) d)), alg + " x " + f + ": " + v);
          }
          if (v instanceof Long l) {
            assertEquals(message(IllegalArgumentException.class, () -> generic.insert((long) l)),
                message(IllegalArgumentException.class, () -> typed.insert((long) l)), alg + " x " + f + ": " + v);
          }
        }
        assertEquals(1, typed.size(), "rejected values leave the window unchanged");
        typed.insert(8L);
        assertEquals(f.equals("geomean") ? 4.0 : 5.0, typed.queryDouble(), 1e-15);
        typed.evict();
        typed.evict();
        assertTrue(Double.isNaN(typed.queryDouble()));
        assertArrayEquals(new double[] {0, 0}, (double[]) typed.queryPartial());
      }
    }
  }

  private static String message(Class<? extends Throwable> type, org.junit.jupiter.api.function.Executable e) {
    return Objects.requireNonNull(assertThrows(type, e).getMessage());
  }

  @Test
  void memoryFollowsTheWindow() {
    for (Algorithm alg : TYPED.keySet()) {
      FifoBase w = alg.newFifo(Functions.byName("sum"));
      for (int i = 0; i < 100_000; i++) {
        w.insert(1.0);
      }
      int big = w.allocatedPartials();
      assertTrue(big >= 100_000, alg + ": " + big);
      while (w.size() > 10) {
        w.evict();
      }
      assertTrue(w.allocatedPartials() < big / 100, alg + " kept " + w.allocatedPartials());
      assertEquals(10.0, w.queryDouble());
    }
  }

  /** The typed classes combine exactly when and as often as the generic ones, operation by operation. */
  @Test
  void sameCombineCountsAsGeneric() {
    for (Algorithm alg : TYPED.keySet()) {
      io.swag.core.CountingSum ft = new io.swag.core.CountingSum();
      io.swag.core.CountingSum fg = new io.swag.core.CountingSum();
      FifoBase typed = alg.newFifo(ft);
      FifoBase generic = alg.newGenericFifo(fg);
      assertInstanceOf(DoubleFifo.class, typed);
      Traces t = new Traces(99 + alg.ordinal(), 2000);
      long total = 0;
      for (int op = 0; op < 50_000; op++) {
        switch (t.next(typed.size())) {
          case INSERT -> both(typed, generic, w -> w.insert(1.0));
          case EVICT -> both(typed, generic, FifoBase::evict);
          case QUERY -> assertEquals(generic.queryDouble(), typed.queryDouble());
        }
        long c = fg.take();
        total += c;
        assertEquals(c, ft.take(), alg + " op " + op);
      }
      assertTrue(total > 10_000, alg + ": " + total + " combines");
    }
  }

  // ---- the papers' invariants on the typed classes, exact with Interval ----

  @Test
  void doubleDabaLiteInvariants() {
    DoubleDabaLite w = (DoubleDabaLite) Algorithm.DABA_LITE.newFifo(new Interval());
    drive(w, 7, front -> {
      int[] p = w.pointers();
      DabaInvariantsTest.sizeInvariant(p);
      int l = p[0], r = p[1], a = p[2], b = p[3], e = p[4];
      for (int i = 0; i < l; i++) {
        assertEquals(run(front, i, b), w.at(i), "l_F element " + i);
      }
      for (int i = l; i < r; i++) {
        assertEquals(run(front, i, r), w.at(i), "l_L element " + i);
      }
      for (int i = r; i < a; i++) {
        assertEquals(run(front, i, i + 1), w.at(i), "l_R element " + i);
      }
      if (l != r) {
        assertEquals(run(front, r, b), w.aggRA(), "aggRA");
      }
      for (int i = a; i < b; i++) {
        assertEquals(run(front, i, b), w.at(i), "l_A element " + i);
      }
      for (int i = b; i < e; i++) {
        assertEquals(run(front, i, i + 1), w.at(i), "l_B element " + i);
      }
      assertEquals(run(front, b, e), w.aggB(), "aggB");
      assertEquals(w.size() + 2L, w.storedPartials());
    });
  }

  @Test
  void doubleDabaInvariants() {
    DoubleDaba w = (DoubleDaba) Algorithm.DABA.newFifo(new Interval());
    drive(w, 11, front -> {
      int[] p = w.pointers();
      DabaInvariantsTest.sizeInvariant(p);
      int l = p[0], r = p[1], a = p[2], b = p[3], e = p[4];
      for (int i = 0; i < e; i++) {
        assertEquals(run(front, i, i + 1), w.valAt(i), "val " + i);
      }
      for (int i = 0; i < l; i++) {
        assertEquals(run(front, i, b), w.aggAt(i), "l_F agg " + i);
      }
      for (int i = l; i < r; i++) {
        assertEquals(run(front, i, r), w.aggAt(i), "l_L agg " + i);
      }
      for (int i = r; i < a; i++) {
        assertEquals(run(front, r, i + 1), w.aggAt(i), "l_R agg " + i);
      }
      for (int i = a; i < b; i++) {
        assertEquals(run(front, i, b), w.aggAt(i), "l_A agg " + i);
      }
      for (int i = b; i < e; i++) {
        assertEquals(run(front, b, i + 1), w.aggAt(i), "l_B agg " + i);
      }
      assertEquals(2L * w.size(), w.storedPartials());
    });
  }

  /**
   * Runs 200,000 operations of a seeded trace of consecutive integers (windows up to 60) on
   * {@code w}, checks every query against the Interval of the window, and calls {@code check} with
   * the time of the window's first element after each operation.
   */
  private static void drive(FifoBase w, int seed, java.util.function.LongConsumer check) {
    Traces t = new Traces(seed, 60);
    long front = 0;
    long next = 0;
    for (int op = 0; op < 200_000; op++) {
      switch (t.next(w.size())) {
        case INSERT -> w.insert((double) next++);
        case EVICT -> {
          w.evict();
          front++;
        }
        case QUERY -> assertEquals(w.size() == 0 ? null : Interval.of(front, next - 1), w.query());
      }
      check.accept(front);
    }
  }

  /** The Interval partial of the window's elements at offsets {@code [from, to)} from F. */
  private static double run(long front, int from, int to) {
    return from == to ? Interval.EMPTY : Interval.of(front + from, front + to - 1);
  }

  @Test
  void intervalIsAssociativeAndNotCommutative() {
    AggregateFunction<?, ?, ?> unused = new Interval();
    Interval f = new Interval();
    double a = f.liftValue(3, 0);
    double b = f.liftValue(4, 0);
    double c = f.liftValue(5, 0);
    assertEquals(Interval.of(3, 5), f.combineValues(f.combineValues(a, b), c));
    assertEquals(Interval.of(3, 5), f.combineValues(a, f.combineValues(b, c)));
    assertEquals(Interval.BROKEN, f.combineValues(b, a));
    assertEquals(Interval.BROKEN, f.combineValues(a, c));
    assertEquals(a, f.combineValues(Interval.EMPTY, a));
    assertEquals(a, f.combineValues(a, Interval.EMPTY));
    assertEquals("interval", unused.name());
  }
}
