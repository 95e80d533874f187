package io.swag.core.plan;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.Functions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The query semantics of docs/query-spec.md written plainly: keeps every accepted record and
 * re-aggregates each window from the raw records (filter by key and time, sort by time then
 * arrival, fold with the generic {@link AggregateFunction} form of each aggregate separately).
 * Valid records only (records the executor rejects must not be given to it).
 *
 * <p>window_end: a record is accepted iff some window containing it has
 * {@code end - 1 + lateness > watermark}; then every window containing it with
 * {@code end - 1 <= watermark < end - 1 + lateness} emits an updated row at once. When the
 * watermark moves from w to w', every window with {@code w < end - 1 <= w'} containing at least one
 * accepted record of a key fires for that key. per_record: accepted iff {@code t + lateness >
 * watermark}; rows over {@code (t - size, t]}. Count windows: the key's last size records in
 * arrival order, every slide records (per_record: every record); they accept every record.
 */
final class NaiveOracle {
  private final QuerySpec spec;
  private final List<Rec> accepted = new ArrayList<>();
  private final Map<List<Object>, List<Rec>> arrivals = new HashMap<>();
  private long watermark = Long.MIN_VALUE;
  final List<Map<String, Object>> rows = new ArrayList<>();
  final List<Map<String, Object>> late = new ArrayList<>();
  long lateTotal;

  record Rec(List<Object> key, long t, long seq, Map<String, Object> record) {}

  NaiveOracle(QuerySpec spec) {
    this.spec = spec;
  }

  private List<Object> key(Map<String, Object> r) {
    List<Object> k = new ArrayList<>();
    for (String c : spec.key()) {
      k.add(r.get(c));
    }
    return k;
  }

  private boolean hasTime() {
    return spec.windows().stream().anyMatch(WindowSpec::isTime);
  }

  private boolean hasCount() {
    return spec.windows().stream().anyMatch(w -> !w.isTime());
  }

  void process(Map<String, Object> r) {
    long t = ((Number) r.get(spec.time())).longValue();
    List<Object> key = key(r);
    Rec rec = new Rec(key, t, accepted.size() + late.size() + (long) arrivals.size() * 0, r);
    boolean ok = false;
    for (WindowSpec w : spec.windows()) {
      if (!w.isTime()) {
        continue;
      }
      if (watermark == Long.MIN_VALUE) {
        ok = true;
      } else if (spec.perRecord()) {
        ok |= t + spec.latenessMs() > watermark;
      } else {
        for (long s = firstStart(w, t); s <= t; s += w.slide()) {
          ok |= s + w.size() - 1 + spec.latenessMs() > watermark;
        }
      }
    }
    if (!ok && !hasCount()) {
      late.add(r);
      lateTotal++;
      return;
    }
    if (ok && hasTime()) {
      accepted.add(rec);
      for (WindowSpec w : spec.windows()) {
        if (!w.isTime()) {
          continue;
        }
        if (spec.perRecord()) {
          rows.add(row(key, w, t - w.size() + 1, t + 1, over(key, t - w.size() + 1, t + 1, w)));
        } else if (watermark != Long.MIN_VALUE) {
          for (long s = firstStart(w, t); s <= t; s += w.slide()) {
            long last = s + w.size() - 1;
            if (last <= watermark && last + spec.latenessMs() > watermark) {
              rows.add(row(key, w, s, s + w.size(), over(key, s, s + w.size(), w)));
            }
          }
        }
      }
    }
    List<Rec> mine = arrivals.computeIfAbsent(key, k -> new ArrayList<>());
    mine.add(rec);
    for (WindowSpec w : spec.windows()) {
      if (w.isTime()) {
        continue;
      }
      long n = mine.size();
      if (spec.perRecord() || n % w.slide() == 0) {
        List<Rec> lastN = mine.subList((int) Math.max(0, n - w.size()), (int) n);
        rows.add(row(key, w, n - lastN.size(), n, fold(lastN, w)));
      }
    }
  }

  void advance(long wm) {
    if (wm <= watermark || spec.perRecord()) {
      watermark = Math.max(watermark, wm);
      return;
    }
    // (fire time, window index, key, start) of every non-empty window with watermark < end - 1 <= wm
    TreeMap<String, Object[]> due = new TreeMap<>();
    for (Rec r : accepted) {
      for (int wi = 0; wi < spec.windows().size(); wi++) {
        WindowSpec w = spec.windows().get(wi);
        if (!w.isTime()) {
          continue;
        }
        for (long s = firstStart(w, r.t); s <= r.t; s += w.slide()) {
          long last = s + w.size() - 1;
          if (last > watermark && last <= wm) {
            due.put(String.format("%020d/%d/%s/%020d", last - Long.MIN_VALUE / 2, wi, r.key, s),
                new Object[] {r.key, w, s});
          }
        }
      }
    }
    watermark = wm;
    for (Object[] d : due.values()) {
      @SuppressWarnings("unchecked")
      List<Object> key = (List<Object>) d[0];
      WindowSpec w = (WindowSpec) d[1];
      long s = (Long) d[2];
      rows.add(row(key, w, s, s + w.size(), over(key, s, s + w.size(), w)));
    }
  }

  void finish() {
    advance(Long.MAX_VALUE / 2);
  }

  private static long firstStart(WindowSpec w, long t) {
    long last = t - Math.floorMod(t - w.offset(), w.slide());
    long s = last;
    while (s - w.slide() > t - w.size()) {
      s -= w.slide();
    }
    return s;
  }

  /** The accepted records of the key with start <= t < end, in time order, ties in arrival order. */
  private List<Object> over(List<Object> key, long start, long end, WindowSpec w) {
    List<Rec> in = new ArrayList<>();
    for (Rec r : accepted) {
      if (r.key.equals(key) && r.t >= start && r.t < end) {
        in.add(r);
      }
    }
    in.sort(Comparator.comparingLong(Rec::t)); // stable: arrival order among equal times
    return fold(in, w);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private List<Object> fold(List<Rec> in, WindowSpec w) {
    List<Object> res = new ArrayList<>();
    for (AggregateSpec a : w.aggregates()) {
      AggregateFunction f = Functions.byName(a.function(), a.options());
      Object acc = f.identity();
      for (Rec r : in) {
        Object v = a.column() == null ? null : r.record.get(a.column());
        acc = f.combine(acc, f.lift(v, r.t));
      }
      res.add(f.lower(acc));
    }
    return res;
  }

  private Map<String, Object> row(List<Object> key, WindowSpec w, long start, long end, List<Object> res) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < spec.key().size(); i++) {
      m.put(spec.key().get(i), key.get(i));
    }
    m.put("window", w.name());
    m.put("window_start", start);
    m.put("window_end", end);
    for (int j = 0; j < res.size(); j++) {
      m.put(w.aggregates().get(j).output(), res.get(j));
    }
    return m;
  }
}
