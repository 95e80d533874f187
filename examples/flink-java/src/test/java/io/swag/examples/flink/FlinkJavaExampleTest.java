package io.swag.examples.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.examples.flink.FlinkJavaExample.StationWindow;
import io.swag.examples.flink.FlinkJavaExample.Trip;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Java Flink example on the repository's Citi Bike sample, a little out of order, with one trip
 * too late for every window and one without a start time: every window equals a recompute over the
 * trips written here (no swag code), the late and the rejected trip come back on their outputs.
 */
class FlinkJavaExampleTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
      .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  static final Path SAMPLE = Path.of(System.getProperty("swag.sample", "../../tests/data/citibike-sample.csv.gz"));
  static final long HOUR = 3_600_000;
  static final long SLIDE = 900_000;

  @Test
  void windowsMatchARecomputeAndBadTripsComeBack() throws Exception {
    List<Trip> trips = FlinkJavaExample.readTrips(SAMPLE);
    assertTrue(trips.size() > 2_000, "trips: " + trips.size());
    trips.removeIf(t -> t.start == null);
    trips.sort(java.util.Comparator.comparingLong(t -> t.start)); // stable: file order among equal starts
    Random r = new Random(5);
    for (int i = 1; i < trips.size(); i++) { // swap some neighbours: out of order by a few minutes
      if (r.nextInt(4) == 0 && Math.abs(trips.get(i).start - trips.get(i - 1).start) < 300_000) {
        Trip a = trips.get(i - 1);
        trips.set(i - 1, trips.get(i));
        trips.set(i, a);
      }
    }
    long latest = trips.stream().mapToLong(t -> t.start).max().orElseThrow();
    Trip late = new Trip(3186L, latest - 3 * HOUR, 777.0);
    Trip noTime = new Trip(3186L, null, 888.0);
    List<Trip> input = new ArrayList<>(trips);
    input.add(noTime);
    input.add(late);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    FlinkJavaExample.Results res = FlinkJavaExample.run(env, input, Duration.ofMinutes(10));

    // recompute: per (station, window start), the trips' durations; first = the earliest start's (any tied)
    Map<String, List<double[]>> in = new HashMap<>();
    for (int i = 0; i < trips.size(); i++) {
      Trip t = trips.get(i);
      for (long s = Math.floorDiv(t.start, SLIDE) * SLIDE; s > t.start - HOUR; s -= SLIDE) {
        in.computeIfAbsent(t.station + "@" + s, k -> new ArrayList<>()).add(new double[] {t.start, t.duration});
      }
    }
    assertEquals(in.size(), res.windows().size());
    for (StationWindow w : res.windows()) {
      List<double[]> xs = in.get(w.station + "@" + w.windowStart);
      assertTrue(xs != null, "unexpected window " + w);
      assertEquals(w.windowStart + HOUR, w.windowEnd);
      double max = Double.NEGATIVE_INFINITY;
      double sum = 0;
      double minT = Double.POSITIVE_INFINITY;
      for (double[] x : xs) {
        max = Math.max(max, x[1]);
        sum += x[1];
        minT = Math.min(minT, x[0]);
      }
      Set<Double> firsts = new HashSet<>();
      for (double[] x : xs) {
        if (x[0] == minT) {
          firsts.add(x[1]);
        }
      }
      assertEquals(max, w.longest, 1e-9, w.toString());
      assertEquals(sum / xs.size(), w.mean, 1e-9, w.toString());
      assertEquals((long) xs.size(), w.trips, w.toString());
      assertTrue(firsts.contains(w.first), w + " first among " + firsts);
    }
    assertEquals(1, res.rejected().size(), res.rejected().toString());
    Row rej = res.rejected().get(0);
    assertTrue(String.valueOf(rej.getField(0)).contains("start"), rej.toString());
    assertEquals(888.0, ((Row) rej.getField(1)).getField(2));
    assertEquals(1, res.late().size(), res.late().toString());
    assertEquals(777.0, res.late().get(0).getField(2));
  }
}
