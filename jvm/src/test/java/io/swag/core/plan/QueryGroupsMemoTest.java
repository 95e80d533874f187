package io.swag.core.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link QueryGroups#accept(long, long, boolean[], QueryGroups.Memo)} against {@link WindowGroup#accepts}
 * per group (the memo-free rule) on seeded traces: several groups (tumbling, sliding, offset, a slide
 * that does not divide the size), lateness, out-of-order times on both sides of each group's bound,
 * a watermark that mostly stays, sometimes rises and is at first {@code Long.MIN_VALUE}.
 */
class QueryGroupsMemoTest {
  @ParameterizedTest
  @CsvSource({"1, window_end, 0", "2, window_end, 150", "3, per_record, 60", "4, window_end, 7", "5, per_record, 0"})
  void memoEqualsPerGroupRule(long seed, String emit, long lateness) {
    String[] windows = {ExecutorDifferentialTest.win("tumble", 100, 100, 0), ExecutorDifferentialTest.win("slide", 300, 100, 0),
        ExecutorDifferentialTest.win("off", 250, 50, 20), ExecutorDifferentialTest.win("odd", 70, 30, 11)};
    List<WindowGroup> groups = new ArrayList<>();
    for (String w : windows) {
      Plan plan = Planner.plan(ExecutorDifferentialTest.spec(emit, "out_of_order", lateness, w));
      groups.addAll(WindowGroup.timeGroups(plan, List.of("k", "t", "v"), false));
    }
    QueryGroups q = new QueryGroups(groups, List.of());
    QueryGroups.Memo memo = q.newMemo();
    Random r = new Random(seed);
    boolean[] got = new boolean[groups.size()];
    boolean[] want = new boolean[groups.size()];
    long wm = Long.MIN_VALUE;
    long clock = 1_000;
    for (int step = 0; step < 50_000; step++) {
      clock += r.nextInt(3);
      if (step > 20 && r.nextInt(40) == 0) {
        wm = Math.max(wm, clock - r.nextInt(200));
      }
      long t = clock - r.nextInt(r.nextInt(10) == 0 ? 800 : 40);
      int first = q.accept(t, wm, got, memo);
      int wantFirst = -1;
      for (int g = 0; g < want.length; g++) {
        want[g] = groups.get(g).accepts(t, wm);
        if (want[g] && wantFirst < 0) {
          wantFirst = g;
        }
      }
      assertArrayEquals(want, got, "accepted at t " + t + " watermark " + wm + " step " + step);
      assertEquals(wantFirst, first);
    }
  }
}
