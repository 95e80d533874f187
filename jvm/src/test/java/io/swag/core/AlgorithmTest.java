package io.swag.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.fifo.Daba;
import io.swag.core.fifo.DabaLite;
import io.swag.core.fifo.DoubleDaba;
import io.swag.core.fifo.DoubleDabaLite;
import io.swag.core.fifo.DoubleFlatFit;
import io.swag.core.fifo.DoubleTwoStacksLite;
import io.swag.core.fifo.FifoBase;
import io.swag.core.fifo.FlatFat;
import io.swag.core.fifo.FlatFit;
import io.swag.core.fifo.Recalc;
import io.swag.core.fifo.SubtractOnEvict;
import io.swag.core.fifo.TimedFifo;
import io.swag.core.fifo.TwoStacks;
import io.swag.core.fifo.TwoStacksLite;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.BulkFingerBTree;
import io.swag.core.ooo.ClassicBTree;
import io.swag.core.ooo.FingerBTree;
import io.swag.core.ooo.Trees;
import io.swag.core.plan.ExecutedPlan;
import io.swag.core.plan.Plan;
import io.swag.core.plan.Planner;
import io.swag.core.plan.QuerySpec;
import io.swag.core.plan.WindowGroup;
import io.swag.core.plan.WindowSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link Algorithm}: every name the library accepts builds the structure its documentation
 * (README, docs/query-spec.md) says, through every entry point ({@link Swag#fifo},
 * {@link Swag#timed}, {@link Trees#create}, a plan's {@link WindowGroup}). The expected structure
 * per name is this test's own table, checked against the built object's class and arity.
 */
class AlgorithmTest {
  /** What a name builds: the structure's exact class and a tree's min arity (0: not a tree). */
  private record Built(Class<?> structure, int arity, String reportedName) {}

  private static final Map<String, Built> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("recalc", new Built(Recalc.class, 0, "recalc"));
    EXPECTED.put("soe", new Built(SubtractOnEvict.class, 0, "soe"));
    EXPECTED.put("subtract_on_evict", new Built(SubtractOnEvict.class, 0, "soe"));
    EXPECTED.put("two_stacks", new Built(TwoStacks.class, 0, "two_stacks"));
    // sum has one double per partial: the algorithms with a typed form build it (DoubleFifo)
    EXPECTED.put("two_stacks_lite", new Built(DoubleTwoStacksLite.class, 0, "two_stacks_lite"));
    EXPECTED.put("daba", new Built(DoubleDaba.class, 0, "daba"));
    EXPECTED.put("daba_lite", new Built(DoubleDabaLite.class, 0, "daba_lite"));
    EXPECTED.put("flatfat", new Built(FlatFat.class, 0, "flatfat"));
    EXPECTED.put("reactive", new Built(FlatFat.class, 0, "flatfat"));
    EXPECTED.put("flatfit", new Built(DoubleFlatFit.class, 0, "flatfit"));
    for (int m : new int[] {2, 4, 8}) {
      EXPECTED.put("bclassic" + m, new Built(ClassicBTree.class, m, "bclassic" + m));
      EXPECTED.put("nbfiba" + m, new Built(FingerBTree.class, m, "nbfiba" + m));
      EXPECTED.put("fiba" + m, new Built(FingerBTree.class, m, "nbfiba" + m));
      EXPECTED.put("bfiba" + m, new Built(BulkFingerBTree.class, m, "bfiba" + m));
    }
    EXPECTED.put("bclassic", new Built(ClassicBTree.class, 4, "bclassic4"));
    EXPECTED.put("nbfiba", new Built(FingerBTree.class, 4, "nbfiba4"));
    EXPECTED.put("bfiba", new Built(BulkFingerBTree.class, 4, "bfiba4"));
    EXPECTED.put("fiba", new Built(BulkFingerBTree.class, 4, "bfiba4"));
  }

  private static final List<String> DEPRECATED = List.of("reactive", "fiba", "fiba2", "fiba4", "fiba8");

  private static Class<?> structureOf(TimedAggregator a) {
    return a instanceof TimedFifo f ? f.inner().getClass() : a.getClass();
  }

  private static int arityOf(Object a) {
    return a instanceof FingerBTree f ? f.minArity() : a instanceof ClassicBTree c ? c.minArity() : 0;
  }

  @Test
  void everyAcceptedNameIsCoveredHere() {
    List<String> accepted = Algorithm.acceptedNames();
    TreeSet<String> expected = new TreeSet<>(EXPECTED.keySet());
    expected.add("adaptive");
    assertEquals(expected, new TreeSet<>(accepted), "names accepted by Algorithm vs the names this test checks");
  }

  @Test
  void timedBuildsWhatTheNameSays() {
    for (Map.Entry<String, Built> e : EXPECTED.entrySet()) {
      String name = e.getKey();
      Built want = e.getValue();
      for (String spelling : List.of(name, name.toUpperCase(java.util.Locale.ROOT).replace('_', '-'), " " + name + " ")) {
        TimedAggregator a = Swag.timed(spelling, "sum");
        assertSame(want.structure(), structureOf(a), spelling);
        assertEquals(want.arity(), arityOf(a), spelling);
        assertEquals(want.reportedName(), a.algorithm(), spelling + ": the structure reports its canonical name");
      }
    }
  }

  @Test
  void fifoAndTreeFactoriesBuildWhatTheNameSays() {
    for (Map.Entry<String, Built> e : EXPECTED.entrySet()) {
      String name = e.getKey();
      Built want = e.getValue();
      if (want.arity() == 0) {
        FifoBase f = Swag.fifo(name, "sum");
        assertSame(want.structure(), f.getClass(), name);
        assertEquals(want.reportedName(), f.algorithm(), name);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> Trees.create(name,
            Functions.byName("sum")));
        assertTrue(x.getMessage().contains("'" + want.reportedName() + "'") && x.getMessage().contains("bfiba4"),
            x.getMessage());
      } else {
        TimedAggregator t = Trees.create(name, Functions.byName("sum"));
        assertSame(want.structure(), t.getClass(), name);
        assertEquals(want.arity(), arityOf(t), name);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> Swag.fifo(name, "sum"));
        assertTrue(x.getMessage().contains("not an in-order algorithm") && x.getMessage().contains("daba_lite"),
            x.getMessage());
      }
    }
  }

  @Test
  void propertiesMatchTheBuiltStructure() {
    for (Map.Entry<String, Built> e : EXPECTED.entrySet()) {
      Algorithm a = Algorithm.parse(e.getKey());
      TimedAggregator built = Swag.timed(e.getKey(), "sum");
      Class<?> s = structureOf(built);
      String where = e.getKey() + " -> " + a;
      assertEquals(built instanceof TimedFifo, a.isFifo(), where);
      assertEquals(built instanceof FingerBTree || built instanceof ClassicBTree, a.isTree(), where);
      assertEquals(a.isTree(), a.acceptsOutOfOrder(), where);
      assertEquals(s == BulkFingerBTree.class, a.isBulk(), where);
      assertEquals(arityOf(built), a.minArity(), where);
      assertFalse(a.isAdaptive(), where);
      assertEquals(built.algorithm(), a.id(), where);
      assertEquals(a.id(), a.toString(), where);
    }
    Algorithm adaptive = Algorithm.parse("adaptive");
    assertTrue(adaptive.isAdaptive() && adaptive.acceptsOutOfOrder() && !adaptive.isFifo() && !adaptive.isTree());
  }

  /**
   * A function whose partial is not one double (and not a mean, whose count is the window's size)
   * builds the generic class of every in-order name.
   */
  @Test
  void genericFormForOtherFunctions() {
    Map<String, Class<?>> generic = Map.of("two_stacks_lite", TwoStacksLite.class, "daba", Daba.class, "daba_lite",
        DabaLite.class, "flatfit", FlatFit.class);
    for (Map.Entry<String, Class<?>> e : generic.entrySet()) {
      assertSame(e.getValue(), Swag.fifo(e.getKey(), "stddev").getClass(), e.getKey());
      assertSame(e.getValue(), structureOf(Swag.timed(e.getKey(), "argmax")), e.getKey());
      assertSame(e.getValue(), Algorithm.parse(e.getKey()).newGenericFifo(Functions.byName("sum")).getClass());
    }
  }

  @Test
  void minArityKeepsTheFamily() {
    assertSame(BulkFingerBTree.class, Swag.timed("fiba", "sum", Map.of("minArity", 8)).getClass());
    assertEquals(8, arityOf(Swag.timed("fiba", "sum", Map.of("minArity", 8))));
    assertSame(FingerBTree.class, Swag.timed("fiba4", "sum", Map.of("minArity", 2)).getClass());
    assertEquals(2, arityOf(Swag.timed("nbfiba8", "sum", Map.of("minArity", 2))));
    assertSame(ClassicBTree.class, Swag.timed("bclassic", "sum", Map.of("minArity", 2)).getClass());
    assertEquals(2, arityOf(Swag.timed("bclassic8", "sum", Map.of("minArity", 2))));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Swag.timed("bfiba", "sum", Map.of("minArity", 3)));
    assertTrue(e.getMessage().contains("minArity") && e.getMessage().contains("3"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Swag.timed("flatfat", "sum", Map.of("minArity", 4)));
    assertTrue(e.getMessage().contains("'flatfat'") && e.getMessage().contains("minArity"), e.getMessage());
  }

  /** A plan's algorithm, whatever its spelling, is built by the plan's executors as the name says. */
  @Test
  void plansBuildWhatTheNameSays() {
    QuerySpec one = QuerySpec.builder().key("k").time("t").order("out_of_order")
        .window(WindowSpec.time(1000, 100).name("w").aggregate("s", "sum", "v")).build();
    QuerySpec two = QuerySpec.builder().key("k").time("t").order("out_of_order")
        .window(WindowSpec.time(1000, 100).name("w").aggregate("s", "sum", "v").aggregate("c", "count", null)).build();
    for (QuerySpec spec : List.of(one, two)) {
      plansBuildWhatTheNameSays(spec, spec == one);
    }
  }

  private static void plansBuildWhatTheNameSays(QuerySpec spec, boolean oneDouble) {
    Plan plan = Planner.plan(spec);
    for (Map.Entry<String, Built> e : EXPECTED.entrySet()) {
      Plan p = plan.withGroup(0, plan.groups().get(0).withAlgorithm(e.getKey(), 8).withSlicing(false));
      assertEquals(e.getValue().reportedName(), Plan.fromJson(p.toJson()).groups().get(0).algorithm().id(),
          "a plan stores the canonical name");
      ExecutedPlan.Group x = WindowGroup.timeGroups(p, List.of("k", "t", "v"), false).get(0).executed();
      // a product of one one-double function is built on its typed form (the typed class where one
      // exists), a product of two on the generic form
      String expected = oneDouble ? e.getValue().structure().getSimpleName()
          : e.getValue().structure().getSimpleName().replaceFirst("^Double", "");
      assertEquals(expected, x.structure(), e.getKey());
      if (e.getValue().arity() == 0) {
        assertTrue(x.adaptive(), e.getKey() + ": an in-order plan falls back to its tree");
        assertEquals("bfiba8", x.tree(), e.getKey());
      } else {
        assertEquals(e.getValue().arity(), x.minArity(), e.getKey());
      }
    }
    Plan adaptive = plan.withGroup(0, plan.groups().get(0).withAlgorithm("adaptive", 2).withSlicing(false));
    ExecutedPlan.Group x = WindowGroup.timeGroups(adaptive, List.of("k", "t", "v"), false).get(0).executed();
    assertTrue(x.adaptive() && !x.switched(), x.toString());
    assertEquals(oneDouble ? "DoubleDabaLite" : "DabaLite", x.structure());
    assertEquals("bfiba2", x.tree());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Swag.timed("adaptive", "sum"));
    assertTrue(e.getMessage().contains("'adaptive'"), e.getMessage());
  }

  @Test
  void unknownNamesNameTheValueAndListTheValidNames() {
    for (String bad : List.of("quick_sort", "fibb", "bfiba3", "daba lite", "")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Algorithm.parse(bad));
      String m = io.swag.core.SwagException.text(e);
      assertTrue(m.startsWith("unknown algorithm '" + bad + "'"), m);
      assertEquals(io.swag.core.SwagException.Kind.UNKNOWN_ALGORITHM, io.swag.core.SwagException.kindOf(e));
      for (String valid : EXPECTED.keySet()) {
        assertTrue(m.contains(valid), "message lacks '" + valid + "': " + m);
      }
      assertTrue(m.contains("adaptive"), m);
      assertThrows(IllegalArgumentException.class, () -> Swag.timed(bad, "sum"));
      assertThrows(IllegalArgumentException.class, () -> Swag.fifo(bad, "sum"));
      assertNull(Algorithm.find(bad));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Algorithm.parse(null));
    assertTrue(e.getMessage().contains("null") && e.getMessage().contains("daba_lite"), e.getMessage());
  }

  @Test
  void deprecatedAliasesSayWhatToWriteInstead() {
    for (String name : EXPECTED.keySet()) {
      assertEquals(DEPRECATED.contains(name), Algorithm.isDeprecated(name), name);
    }
    assertTrue(Algorithm.isDeprecated(" Fiba4 "));
    for (String d : DEPRECATED) {
      String note = Algorithm.DEPRECATED.get(d);
      assertTrue(note.contains(EXPECTED.get(d).reportedName()), d + ": " + note);
    }
  }

  @Test
  void swagListsAreTheCanonicalNames() {
    assertEquals(List.of("recalc", "soe", "two_stacks", "two_stacks_lite", "daba", "daba_lite", "flatfat", "flatfit"),
        Swag.FIFO_ALGORITHMS);
    assertEquals(List.of("bclassic2", "bclassic4", "bclassic8", "nbfiba2", "nbfiba4", "nbfiba8", "bfiba2", "bfiba4",
        "bfiba8"), Swag.OUT_OF_ORDER_ALGORITHMS);
    for (String n : Swag.FIFO_ALGORITHMS) {
      assertEquals(n, Swag.fifo(n, "sum").algorithm());
    }
    for (String n : Swag.OUT_OF_ORDER_ALGORITHMS) {
      assertEquals(n, Swag.timed(n, "sum").algorithm());
    }
  }
}
