package io.swag.bench;

import io.swag.core.TimedAggregator;
import io.swag.core.fn.Functions;
import io.swag.core.ooo.Trees;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The FiBA papers' real-data experiment (VLDB 2019 Fig. 15, VLDB 2023 Fig. 16) on the Citi Bike
 * trips of {@code ../shared/data/citibike/*.csv.gz} (Jersey City, 2016-2019): a trip is reported
 * when it ends (arrival order = stop time) and carries its start time as event time, so the stream
 * is out of order. A time window of {@code windowHours} ending at the largest event time seen:
 * per record, bulk-evict the entries that left the window, insert (start time, trip duration),
 * query. {@code scope=global}: one tree; {@code scope=station}: one tree per start station (the
 * record's station is evicted, inserted into and queried). A record already older than the window
 * is dropped (counted as an op: in practice a handful at 1/4 day, none from 1 day on).
 *
 * <p>One op = one record. The CSVs are parsed once per fork in {@code @Setup} into primitive arrays;
 * when the stream is exhausted the trees are recreated and it starts over.
 *
 * <p>Data directory: {@code -Dswag.citibike=DIR} (pass it with {@code -jvmArgsAppend}), else the
 * environment variable {@code SWAG_CITIBIKE}, else {@code ../shared/data/citibike} relative to the
 * working directory. If it has no {@code *.csv.gz} files, the benchmark fails its setup at once with
 * a one-line "SKIPPED" message and JMH goes on with the next benchmark.
 *
 * <p>{@code java -cp benchmarks.jar io.swag.bench.CitiBikeBench} (the {@link #main}) prints, as JSON,
 * the stream's out-of-order statistics: the fraction of out-of-order records and the distribution
 * of the out-of-order distance d (entries younger than the inserted one), globally and per station,
 * and the window sizes per window length.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+UseParallelGC"})
public class CitiBikeBench {
  static final int BATCH = 1024;
  static final long HOUR = 3_600_000L;

  /** The tree algorithm. */
  @Param({"bfiba4", "bclassic4"})
  public String algorithm;

  /** The aggregate function. */
  @Param({"sum", "max"})
  public String function;

  /** Window length in hours: 1/4, 1, 2, 4, 8, 16, 32 days. */
  @Param({"6", "24", "48", "96", "192", "384", "768"})
  public int windowHours;

  /** {@code global} (one tree) or {@code station} (one tree per start station). */
  @Param({"global", "station"})
  public String scope;

  private Trips trips;
  private TimedAggregator[] trees;
  private long[] evicted;
  private long width;
  private boolean perStation;
  private int i;
  private long maxTime;

  /** The trips in arrival (stop time) order. */
  static final class Trips {
    final long[] start;
    final double[] duration;
    final int[] station;
    final int stations;
    final int files;

    Trips(long[] start, double[] duration, int[] station, int stations, int files) {
      this.start = start;
      this.duration = duration;
      this.station = station;
      this.stations = stations;
      this.files = files;
    }

    int size() {
      return start.length;
    }
  }

  /** Thrown when the data is absent: no stack trace, the message says what to do. */
  static final class DataAbsent extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DataAbsent(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Parses the trips and builds the trees.
   *
   * @throws IOException if the data cannot be read
   */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    trips = load(dataDir());
    width = windowHours * HOUR;
    perStation = switch (scope) {
      case "global" -> false;
      case "station" -> true;
      default -> throw new IllegalArgumentException("scope must be global or station, got " + scope);
    };
    Trees.create(algorithm, Functions.byName(function)); // fail early on bad names
    reset();
  }

  private void reset() {
    int nt = perStation ? trips.stations : 1;
    trees = new TimedAggregator[nt];
    for (int s = 0; s < nt; s++) {
      trees[s] = Trees.create(algorithm, Functions.byName(function));
    }
    evicted = new long[nt];
    Arrays.fill(evicted, Long.MIN_VALUE);
    i = 0;
    maxTime = Long.MIN_VALUE;
  }

  /**
   * Processes a batch of records, one op each: per record evict, insert, query.
   *
   * @param bh consumes the query's result
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void record(Blackhole bh) {
    long[] start = trips.start;
    double[] dur = trips.duration;
    int[] st = trips.station;
    int n = start.length;
    for (int b = 0; b < BATCH; b++) {
      if (i == n) {
        reset();
      }
      long t = start[i];
      if (t > maxTime) {
        maxTime = t;
      }
      long bound = maxTime - width; // the window is (bound, maxTime]
      int s = perStation ? st[i] : 0;
      i++;
      if (t <= bound) {
        continue; // older than the window: dropped
      }
      TimedAggregator w = trees[s];
      if (bound > evicted[s]) {
        evicted[s] = bound;
        w.bulkEvict(bound);
      }
      w.insert(t, dur[i - 1]);
      bh.consume(w.queryDouble());
    }
  }

  // ------------------------------------------------------------------ data

  static Path dataDir() {
    String p = System.getProperty("swag.citibike");
    if (p == null || p.isBlank()) {
      p = System.getenv("SWAG_CITIBIKE");
    }
    if (p == null || p.isBlank()) {
      p = "../shared/data/citibike";
    }
    return Paths.get(p).toAbsolutePath().normalize();
  }

  static Trips load(Path dir) throws IOException {
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(f -> f.getFileName().toString().endsWith(".csv.gz")).sorted().forEach(files::add);
      }
    }
    if (files.isEmpty()) {
      throw new DataAbsent("CitiBikeBench SKIPPED: no Citi Bike *.csv.gz files in " + dir + " (the data is"
          + " read from ../shared/data/citibike only when present; set -Dswag.citibike=DIR or SWAG_CITIBIKE)");
    }
    int cap = 1 << 16;
    long[] start = new long[cap];
    long[] stop = new long[cap];
    double[] dur = new double[cap];
    int[] station = new int[cap];
    Map<String, Integer> ids = new HashMap<>();
    int n = 0;
    for (Path f : files) {
      try (InputStream in = new GZIPInputStream(Files.newInputStream(f), 1 << 16);
          BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16)) {
        String head = r.readLine();
        if (head == null) {
          continue;
        }
        List<String> h = new ArrayList<>();
        for (String c : split(head.replace("\uFEFF", ""))) {
          h.add(c.trim().toLowerCase(Locale.ROOT));
        }
        int cDur = column(h, f, "tripduration", "trip duration");
        int cStartDate = h.indexOf("start date");
        int cStart = cStartDate >= 0 ? h.indexOf("start time") : column(h, f, "start time", "starttime");
        int cStopDate = h.indexOf("stop date");
        int cStop = cStopDate >= 0 ? h.indexOf("stop time") : column(h, f, "stop time", "stoptime");
        int cStation = column(h, f, "start station id");
        String line;
        while ((line = r.readLine()) != null) {
          if (line.isBlank()) {
            continue;
          }
          String[] row = split(line);
          try {
            long a = parseTime(cStartDate >= 0 ? row[cStartDate] + " " + row[cStart] : row[cStart]);
            long b = parseTime(cStopDate >= 0 ? row[cStopDate] + " " + row[cStop] : row[cStop]);
            double d = Double.parseDouble(row[cDur].trim());
            String sid = row[cStation].trim();
            if (n == start.length) {
              start = Arrays.copyOf(start, 2 * n);
              stop = Arrays.copyOf(stop, 2 * n);
              dur = Arrays.copyOf(dur, 2 * n);
              station = Arrays.copyOf(station, 2 * n);
            }
            start[n] = a;
            stop[n] = b;
            dur[n] = d;
            station[n] = ids.computeIfAbsent(sid, k -> ids.size());
            n++;
          } catch (RuntimeException e) {
            // malformed row: skipped
          }
        }
      }
    }
    // arrival order: by stop time, ties in file order (a stable sort of the indices)
    final long[] stopF = stop;
    Integer[] order = new Integer[n];
    for (int j = 0; j < n; j++) {
      order[j] = j;
    }
    Arrays.sort(order, (x, y) -> Long.compare(stopF[x], stopF[y]));
    long[] s2 = new long[n];
    double[] d2 = new double[n];
    int[] st2 = new int[n];
    for (int j = 0; j < n; j++) {
      s2[j] = start[order[j]];
      d2[j] = dur[order[j]];
      st2[j] = station[order[j]];
    }
    return new Trips(s2, d2, st2, ids.size(), files.size());
  }

  private static int column(List<String> header, Path f, String... names) {
    for (String name : names) {
      for (int j = 0; j < header.size(); j++) {
        if (header.get(j).startsWith(name)) {
          return j;
        }
      }
    }
    throw new IllegalArgumentException(f + ": not a Citi Bike trip file (no column " + String.join(" / ", names)
        + " in " + header + ")");
  }

  /** Splits one CSV line (double quotes, "" inside quotes). */
  static String[] split(String line) {
    List<String> out = new ArrayList<>(20);
    StringBuilder sb = new StringBuilder();
    boolean q = false;
    for (int j = 0; j < line.length(); j++) {
      char c = line.charAt(j);
      if (q) {
        if (c == '"') {
          if (j + 1 < line.length() && line.charAt(j + 1) == '"') {
            sb.append('"');
            j++;
          } else {
            q = false;
          }
        } else {
          sb.append(c);
        }
      } else if (c == '"') {
        q = true;
      } else if (c == ',') {
        out.add(sb.toString());
        sb.setLength(0);
      } else {
        sb.append(c);
      }
    }
    out.add(sb.toString());
    return out.toArray(new String[0]);
  }

  /**
   * Epoch ms (wall clock read as UTC) of {@code 2016-01-01 00:02:52}, {@code 2019-01-01 03:09:09.7110}
   * or {@code 12/1/2018 0:03:53} ({@code 12/1/18 0:03}).
   */
  static long parseTime(String text) {
    String s = text.trim();
    int sp = s.indexOf(' ');
    String day = s.substring(0, sp);
    String clock = s.substring(sp + 1).trim();
    int y;
    int mo;
    int d;
    if (day.indexOf('-') > 0) {
      String[] p = day.split("-");
      y = Integer.parseInt(p[0]);
      mo = Integer.parseInt(p[1]);
      d = Integer.parseInt(p[2]);
    } else {
      String[] p = day.split("/");
      mo = Integer.parseInt(p[0]);
      d = Integer.parseInt(p[1]);
      y = Integer.parseInt(p[2]);
      if (y < 100) {
        y += 2000;
      }
    }
    String[] c = clock.split(":");
    int hh = Integer.parseInt(c[0]);
    int mm = Integer.parseInt(c[1]);
    double sec = c.length > 2 ? Double.parseDouble(c[2]) : 0;
    long base = LocalDateTime.of(y, mo, d, hh, mm).toEpochSecond(ZoneOffset.UTC) * 1000L;
    return base + Math.round(sec * 1000);
  }

  // ------------------------------------------------------------------ statistics

  /**
   * The stream's out-of-order statistics as JSON on stdout (exit 0 with a message if no data).
   *
   * @param args the data directory (by default as for the benchmark)
   * @throws IOException if the data cannot be read
   */
  public static void main(String[] args) throws IOException {
    Trips tr;
    try {
      tr = load(args.length > 0 ? Paths.get(args[0]) : dataDir());
    } catch (DataAbsent e) {
      System.out.println(e.getMessage());
      return;
    }
    int n = tr.size();
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "{\"trips\":%d,\"files\":%d,\"stations\":%d", n, tr.files, tr.stations));
    sb.append(",\"global\":").append(distances(tr, false));
    sb.append(",\"station\":").append(distances(tr, true));
    // window sizes (entries in the tree at insert) per window length, global and per station
    sb.append(",\"windows\":[");
    int[] hours = {6, 24, 48, 96, 192, 384, 768};
    for (int h = 0; h < hours.length; h++) {
      sb.append(h == 0 ? "" : ",").append(windowSizes(tr, hours[h]));
    }
    sb.append("]}");
    System.out.println(sb);
  }

  /** Out-of-order distance d of each record: earlier arrivals (of its station) with a later start. */
  private static String distances(Trips tr, boolean perStation) {
    int n = tr.size();
    long[] sorted = tr.start.clone();
    Arrays.sort(sorted);
    int[] d = new int[n];
    long[] lateMs = new long[n];
    int ns = perStation ? tr.stations : 1;
    // one Fenwick tree over the time ranks per station would be ns * n ints: count per station via
    // a map from station to its own rank space instead
    int[][] ranksOf = new int[ns][];
    long[][] timesOf = new long[ns][];
    int[] cnt = new int[ns];
    for (int j = 0; j < n; j++) {
      cnt[perStation ? tr.station[j] : 0]++;
    }
    for (int s = 0; s < ns; s++) {
      timesOf[s] = new long[cnt[s]];
    }
    int[] fill = new int[ns];
    for (int j = 0; j < n; j++) {
      int s = perStation ? tr.station[j] : 0;
      timesOf[s][fill[s]++] = tr.start[j];
    }
    for (int s = 0; s < ns; s++) {
      Arrays.sort(timesOf[s]);
      ranksOf[s] = new int[cnt[s] + 1]; // Fenwick
    }
    int[] seen = new int[ns];
    long[] max = new long[ns];
    Arrays.fill(max, Long.MIN_VALUE);
    int ooo = 0;
    for (int j = 0; j < n; j++) {
      int s = perStation ? tr.station[j] : 0;
      long t = tr.start[j];
      // rank: number of times <= t in this station's space (1-based position of the last such)
      int r = upper(timesOf[s], t);
      int le = 0;
      for (int x = r; x > 0; x -= x & -x) {
        le += ranksOf[s][x];
      }
      d[j] = seen[s] - le; // earlier arrivals with a start > t
      if (t < max[s]) {
        ooo++;
        lateMs[j] = max[s] - t;
      } else {
        max[s] = t;
      }
      for (int x = r; x < ranksOf[s].length; x += x & -x) {
        ranksOf[s][x]++;
      }
      seen[s]++;
    }
    int[] ds = d.clone();
    Arrays.sort(ds);
    long[] ls = new long[Math.max(1, ooo)]; // lateness of the out-of-order records only
    int nl = 0;
    for (long x : lateMs) {
      if (x > 0) {
        ls[nl++] = x;
      }
    }
    Arrays.sort(ls, 0, nl);
    double mean = 0;
    for (int x : d) {
      mean += x;
    }
    mean /= n;
    return String.format(Locale.ROOT, "{\"out_of_order_fraction\":%.4f,\"distance_mean\":%.1f,\"distance_p50\":%d,"
        + "\"distance_p90\":%d,\"distance_p99\":%d,\"distance_p99.9\":%d,\"distance_max\":%d,\"late_lateness_p50_s\":%d,"
        + "\"late_lateness_p99_s\":%d,\"late_lateness_max_s\":%d}", (double) ooo / n, mean, ds[pct(n, 50)], ds[pct(n, 90)],
        ds[pct(n, 99)], ds[pct(n, 99.9)], ds[n - 1], ls[pct(nl, 50)] / 1000, ls[pct(nl, 99)] / 1000,
        ls[Math.max(0, nl - 1)] / 1000);
  }

  private static int pct(int n, double p) {
    return (int) Math.max(0, Math.min(n - 1, Math.ceil(p / 100 * n) - 1));
  }

  private static int upper(long[] a, long t) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Mean and max tree size at insert time, global and over the station trees, for one window. */
  private static String windowSizes(Trips tr, int hours) {
    CitiBikeBench b = new CitiBikeBench();
    b.trips = tr;
    b.algorithm = "bfiba4";
    b.function = "sum";
    b.windowHours = hours;
    StringBuilder sb = new StringBuilder();
    sb.append("{\"window_hours\":").append(hours);
    long dropped = 0;
    for (String scope : new String[] {"global", "station"}) {
      b.scope = scope;
      b.perStation = scope.equals("station");
      b.width = hours * HOUR;
      b.reset();
      double sum = 0;
      int max = 0;
      int n = tr.size();
      int ins = 0;
      long drop = 0;
      for (int j = 0; j < n; j++) {
        long t = tr.start[j];
        b.maxTime = Math.max(b.maxTime, t);
        long bound = b.maxTime - b.width;
        int s = b.perStation ? tr.station[j] : 0;
        if (t <= bound) {
          drop++;
          continue;
        }
        TimedAggregator w = b.trees[s];
        if (bound > b.evicted[s]) {
          b.evicted[s] = bound;
          w.bulkEvict(bound);
        }
        w.insert(t, tr.duration[j]);
        sum += w.size();
        max = Math.max(max, w.size());
        ins++;
      }
      dropped = drop;
      sb.append(String.format(Locale.ROOT, ",\"%s_mean_size\":%.1f,\"%s_max_size\":%d", scope, sum / ins, scope,
          max));
    }
    sb.append(",\"dropped_too_late\":").append(dropped).append('}');
    return sb.toString();
  }
}
