package io.swag.examples.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.plan.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java Spark example run as a user runs it: its {@code main} in a JVM of its own with the swag
 * jars and the pyspark wheel's jars, over the Citi Bike sample (a little out of order), then files
 * with a trip without a start time, a trip too late for every window and far-ahead trips that close
 * the windows. Every window of the back-fill and of the stream equals a recompute written
 * here (no swag code), the late trip is late in the stream only, the trip without a time is
 * rejected in both.
 */
class SparkJavaExampleTest {
  static final long HOUR = 3_600_000;
  static final long SLIDE = 900_000;
  static final DateTimeFormatter CITIBIKE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  record Trip(long station, long start, double duration, String line) {}

  static long parse(String time) {
    return LocalDateTime.parse(time, CITIBIKE).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  static String format(long ms) {
    return CITIBIKE.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC));
  }

  /** A copy of a sample line with another station, start time and duration. */
  static String with(String line, long station, String start, double duration) {
    String[] f = line.split(",", -1);
    f[0] = Long.toString((long) duration);
    f[1] = start;
    f[3] = Long.toString(station);
    return String.join(",", f);
  }

  @Test
  void mainMatchesARecomputeInBackfillAndStream(@TempDir Path tmp) throws Exception {
    List<String> lines = new ArrayList<>();
    String header;
    try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(
        Files.newInputStream(Path.of(System.getProperty("swag.sample")))), StandardCharsets.UTF_8))) {
      header = r.readLine();
      for (String l = r.readLine(); l != null; l = r.readLine()) {
        lines.add(l);
      }
    }
    List<Trip> trips = new ArrayList<>();
    for (String l : lines) {
      String[] f = l.split(",", 5);
      trips.add(new Trip(Long.parseLong(f[3]), parse(f[1]), Double.parseDouble(f[0]), l));
    }
    trips.sort(java.util.Comparator.comparingLong(Trip::start)); // stable
    Random rnd = new Random(3);
    for (int i = 1; i < trips.size(); i++) { // out of order by up to 5 minutes (the watermark trails by 10)
      if (rnd.nextInt(4) == 0 && trips.get(i).start() - trips.get(i - 1).start() < 300_000) {
        Trip a = trips.get(i - 1);
        trips.set(i - 1, trips.get(i));
        trips.set(i, a);
      }
    }
    assertTrue(trips.size() > 2_000);
    long latest = trips.stream().mapToLong(Trip::start).max().orElseThrow();
    String any = trips.get(0).line();
    Trip late = new Trip(3186, latest - 3 * HOUR, 777, null);
    Path in = Files.createDirectories(tmp.resolve("in"));
    List<String> f0 = new ArrayList<>(List.of(header));
    trips.forEach(t -> f0.add(t.line()));
    Files.write(in.resolve("part-0.csv"), f0);
    // Spark judges a batch's records against the watermark of the batch before it (its late-events
    // watermark): the late trip comes two batches after the sample
    Files.write(in.resolve("part-1.csv"), List.of(header, with(any, 3186, "", 888)));
    Files.write(in.resolve("part-2.csv"), List.of(header, with(any, late.station(), format(late.start()), 777),
        with(any, 0, format(latest + 24 * HOUR), 1)));
    Files.write(in.resolve("part-3.csv"), List.of(header, with(any, 0, format(latest + 24 * HOUR + 1000), 1)));
    for (int i = 0; i < 4; i++) { // the file source takes files in modification order
      Files.setLastModifiedTime(in.resolve("part-" + i + ".csv"), FileTime.fromMillis(1_600_000_000_000L + 10_000L * i));
    }

    Path out = tmp.resolve("out");
    Path log = tmp.resolve("example.log");
    Process p = new ProcessBuilder(command(in, out)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the example did not finish");
    String text = Files.readString(log);
    assertEquals(0, p.exitValue(), text.length() > 4000 ? text.substring(text.length() - 4000) : text);
    assertTrue(text.contains("back-fill: ") && text.contains("stream: "), text);

    List<Trip> withLate = new ArrayList<>(trips);
    withLate.add(late);
    check(read(out.resolve("backfill")), withLate, 0);
    check(read(out.resolve("stream")), trips, 1);
    // the observed metrics the example prints per micro-batch ([late, rejected, windows]) add up to
    // what the stream's rows show: one late trip, one rejected trip
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("batch \\d+: \\[(\\d+),(\\d+),(\\d+)\\]").matcher(text);
    long[] sum = new long[3];
    int batches = 0;
    while (m.find()) {
      for (int i = 0; i < 3; i++) {
        sum[i] += Long.parseLong(m.group(i + 1));
      }
      batches++;
    }
    assertTrue(batches > 0, "no observed metrics printed: " + text);
    assertEquals(1, sum[0], "late in the observed metrics");
    assertEquals(1, sum[1], "rejected in the observed metrics");
    assertTrue(sum[2] > 0, "windows in the observed metrics");
  }

  /** The example's output rows against the recompute over {@code trips}; {@code lateTrips} late rows expected. */
  static void check(List<Map<String, Object>> rows, List<Trip> trips, int lateTrips) {
    Map<String, List<double[]>> want = new HashMap<>();
    for (Trip t : trips) {
      for (long s = Math.floorDiv(t.start(), SLIDE) * SLIDE; s > t.start() - HOUR; s -= SLIDE) {
        want.computeIfAbsent(t.station() + "@" + s, k -> new ArrayList<>()).add(new double[] {t.start(), t.duration()});
      }
    }
    int windows = 0;
    int late = 0;
    int rejected = 0;
    for (Map<String, Object> r : rows) {
      String kind = (String) r.get("swag_kind");
      if ("late".equals(kind)) {
        late++;
        assertTrue(String.valueOf(r.get("swag_record")).contains("777"), r.toString());
        continue;
      }
      if ("rejected".equals(kind)) {
        rejected++;
        assertTrue(String.valueOf(r.get("swag_reason")).contains("start"), r.toString());
        continue;
      }
      assertEquals("window", kind, r.toString());
      if (((Number) r.get("station")).longValue() == 0) {
        continue; // the trip that closes the windows
      }
      long start = Instant.parse((String) r.get("window_start")).toEpochMilli();
      List<double[]> xs = want.get(r.get("station") + "@" + start);
      assertTrue(xs != null, "unexpected window " + r);
      double max = Double.NEGATIVE_INFINITY;
      double sum = 0;
      double minT = Double.POSITIVE_INFINITY;
      for (double[] x : xs) {
        max = Math.max(max, x[1]);
        sum += x[1];
        minT = Math.min(minT, x[0]);
      }
      Set<Double> firsts = new HashSet<>(); // a back-fill sorts by time: equal starts in any order
      for (double[] x : xs) {
        if (x[0] == minT) {
          firsts.add(x[1]);
        }
      }
      assertEquals(max, ((Number) r.get("longest")).doubleValue(), 1e-9, r.toString());
      assertEquals(sum / xs.size(), ((Number) r.get("mean")).doubleValue(), 1e-9, r.toString());
      assertEquals(xs.size(), ((Number) r.get("trips")).intValue(), r.toString());
      assertTrue(firsts.contains(((Number) r.get("first")).doubleValue()), r + " first among " + firsts);
      windows++;
    }
    assertEquals(want.size(), windows);
    assertEquals(lateTrips, late);
    assertEquals(1, rejected);
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> read(Path dir) throws IOException {
    List<Map<String, Object>> rows = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(x -> x.getFileName().toString().endsWith(".json")).toList()) {
        for (String l : Files.readAllLines(f)) {
          if (!l.isBlank()) {
            rows.add((Map<String, Object>) Json.parse(l));
          }
        }
      }
    }
    return rows;
  }

  /** {@code java} with Spark's Java 17 options, the example's classes, the swag jars and the pyspark jars. */
  static List<String> command(Path in, Path out) throws Exception {
    String jars = System.getProperty("spark.jars.dir");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    try (URLClassLoader l = new URLClassLoader(new URL[] {
        Path.of(jars, "spark-launcher_2.13-4.3.0.jar").toUri().toURL()}, null)) {
      cmd.addAll(List.of((String[]) l.loadClass("org.apache.spark.launcher.JavaModuleOptions")
          .getMethod("defaultModuleOptionArray").invoke(null)));
    }
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, System.getProperty("example.classes"), System.getProperty("swag.core.jar"),
        System.getProperty("swag.spark.jar"), jars + File.separator + "*"));
    cmd.add(SparkJavaExample.class.getName());
    cmd.add(in.toString());
    cmd.add(out.toString());
    return cmd;
  }
}
