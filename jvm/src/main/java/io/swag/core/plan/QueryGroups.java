package io.swag.core.plan;

import java.util.List;

/**
 * The compiled groups of a plan for one row layout, and the per-record rules every engine applies
 * alike: which time groups accept a record ({@link #accept}), when a record is late (no time group
 * accepts it and the query has no count window, which never makes a record late), and that a record
 * is checked by every group that will take it before any group changes ({@link #check}), so a value
 * one function refuses is rejected as a whole, never half-inserted.
 */
public final class QueryGroups {
  private final List<WindowGroup> time;
  private final List<CountGroup> count;

  /**
   * A query's groups.
   *
   * @param time the time groups
   * @param count the count groups
   */
  public QueryGroups(List<WindowGroup> time, List<CountGroup> count) {
    this.time = List.copyOf(time);
    this.count = List.copyOf(count);
  }

  /**
   * The plan's time groups ({@link WindowGroup#timeGroups}) and count groups for rows in
   * {@code columnOrder}.
   *
   * @param plan the plan
   * @param columnOrder the column of each row position
   * @param finalOnly emit each window once, after its lateness
   * @return the groups
   */
  public static QueryGroups of(Plan plan, List<String> columnOrder, boolean finalOnly) {
    return new QueryGroups(WindowGroup.timeGroups(plan, columnOrder, finalOnly), CountGroup.countGroups(plan, columnOrder));
  }

  /**
   * The time groups.
   *
   * @return the time groups
   */
  public List<WindowGroup> time() {
    return time;
  }

  /**
   * The count groups.
   *
   * @return the count groups
   */
  public List<CountGroup> count() {
    return count;
  }

  /**
   * Sets {@code accepted[g]} to whether time group {@code g} uses a record at {@code t} at this
   * watermark; returns the first accepting group, or -1. O(windows).
   *
   * @param t the record's time
   * @param watermark the current watermark
   * @param accepted receives, per time group, whether it accepts the record
   * @return the first accepting group, or -1
   */
  public int accept(long t, long watermark, boolean[] accepted) {
    int first = -1;
    for (int g = 0; g < accepted.length; g++) {
      accepted[g] = time.get(g).accepts(t, watermark);
      if (accepted[g] && first < 0) {
        first = g;
      }
    }
    return first;
  }

  /**
   * One caller's memo for {@link #accept(long, long, boolean[], Memo)}: per time group, at one
   * watermark, the oldest time seen accepted and the youngest seen refused. A group's acceptance is
   * monotone in the record time at a fixed watermark (a younger record is in a window that ends no
   * earlier), so a time at or after the first, or at or before the second, needs no window
   * arithmetic. Not thread-safe: one per operator instance (a {@code QueryGroups} may be shared).
   */
  public static final class Memo {
    private long watermark = Long.MIN_VALUE;
    private final long[] acceptedFrom;
    private final long[] refusedTo;

    private Memo(int groups) {
      acceptedFrom = new long[groups];
      refusedTo = new long[groups];
      java.util.Arrays.fill(acceptedFrom, Long.MAX_VALUE);
      java.util.Arrays.fill(refusedTo, Long.MIN_VALUE);
    }
  }

  /**
   * An empty memo for {@link #accept(long, long, boolean[], Memo)}.
   *
   * @return the memo
   */
  public Memo newMemo() {
    return new Memo(time.size());
  }

  /**
   * {@link #accept(long, long, boolean[])} answered from {@code memo} where it can (O(1) per group for
   * a time on the known side of the watermark's bound), and recording what it computes there.
   *
   * @param t the record's time
   * @param watermark the current watermark
   * @param accepted receives, per time group, whether it accepts the record
   * @param memo the caller's memo, from {@link #newMemo}
   * @return the first accepting group, or -1
   */
  public int accept(long t, long watermark, boolean[] accepted, Memo memo) {
    if (watermark != memo.watermark) {
      memo.watermark = watermark;
      java.util.Arrays.fill(memo.acceptedFrom, Long.MAX_VALUE);
      java.util.Arrays.fill(memo.refusedTo, Long.MIN_VALUE);
    }
    int first = -1;
    for (int g = 0; g < accepted.length; g++) {
      boolean a;
      if (t >= memo.acceptedFrom[g]) {
        a = true;
      } else if (t <= memo.refusedTo[g]) {
        a = false;
      } else {
        a = time.get(g).accepts(t, watermark);
        if (a) {
          memo.acceptedFrom[g] = t;
        } else {
          memo.refusedTo[g] = t;
        }
      }
      accepted[g] = a;
      if (a && first < 0) {
        first = g;
      }
    }
    return first;
  }

  /**
   * Whether a record no time group accepts ({@code first} from {@link #accept} is -1) is late.
   *
   * @param first the first accepting group, from {@link #accept}
   * @return true if the record is late
   */
  public boolean late(int first) {
    return first < 0 && count.isEmpty();
  }

  /**
   * The reason text of a late record.
   *
   * @param t the record's time
   * @param watermark the current watermark
   * @return the reason
   */
  public String lateReason(long t, long watermark) {
    return "time " + t + " is beyond the allowed lateness (" + (time.isEmpty() ? 0 : time.get(0).latenessMs())
        + " ms) at watermark " + watermark;
  }

  /**
   * Checks a record's values in every group that takes it: the accepted time groups except
   * {@code skip} (a caller whose insert into that group checks anyway; -1 for none) and every count
   * group. Changes nothing.
   *
   * @param row the record
   * @param t the record's time
   * @param accepted which time groups accept the record
   * @param skip a time group not to check, or -1
   * @throws IllegalArgumentException naming the function and value a group refuses
   */
  public void check(Object[] row, long t, boolean[] accepted, int skip) {
    for (int g = 0; g < accepted.length; g++) {
      if (accepted[g] && g != skip) {
        time.get(g).check(row, t);
      }
    }
    for (CountGroup c : count) {
      c.check(row, t);
    }
  }
}
