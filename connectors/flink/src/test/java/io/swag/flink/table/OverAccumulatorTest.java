package io.swag.flink.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.api.dataview.MapView;
import org.junit.jupiter.api.Test;

/**
 * The accumulator through the function API, converted the way Flink's OVER operators convert it
 * between batches (every getter read into a row, a fresh object built through the setters, the
 * same map view), against a naive recomputation over the frame; retractions out of order (RANGE
 * frames on the hashmap backend) parked until they reach the front; errors.
 */
class OverAccumulatorTest {

  /** What Flink's getAccumulators + setAccumulators do: read the getters, build anew with the setters. */
  static OverAccumulator convert(OverAccumulator acc) {
    // the getters in a different order than declared: the first one writes everything back
    byte[] pending = acc.getPending();
    MapView<Long, byte[]> slots = acc.getSlots();
    String function = acc.getFunction();
    double rank = acc.getRank();
    int chunk = acc.getChunk();
    long f = acc.getF(), l = acc.getL(), r = acc.getR(), a = acc.getA(), b = acc.getB(), e = acc.getE();
    byte[] aggRA = acc.getAggRA(), aggB = acc.getAggB();
    OverAccumulator x = new OverAccumulator();
    x.setFunction(function);
    x.setRank(rank);
    x.setChunk(chunk);
    x.setF(f);
    x.setL(l);
    x.setR(r);
    x.setA(a);
    x.setB(b);
    x.setE(e);
    x.setAggRA(aggRA);
    x.setAggB(aggB);
    x.setPending(pending);
    x.setSlots(slots);
    return x;
  }

  static Double naiveMax(ArrayDeque<Double> frame) {
    Double m = null;
    for (Double v : frame) {
      m = m == null || v > m ? v : m;
    }
    return m;
  }

  static Double naiveSum(ArrayDeque<Double> frame) {
    if (frame.isEmpty()) {
      return null;
    }
    double s = 0;
    for (Double v : frame) {
      s += v;
    }
    return s;
  }

  @Test
  void rowsFrameInBatchesEqualsNaive() {
    SwagOverFunction.Max max = new SwagOverFunction.Max();
    SwagOverFunction.Sum sum = new SwagOverFunction.Sum();
    SwagOverFunction.First first = new SwagOverFunction.First();
    SwagOverFunction.Last last = new SwagOverFunction.Last();
    OverAccumulator aMax = max.createAccumulator();
    OverAccumulator aSum = sum.createAccumulator();
    OverAccumulator aFirst = first.createAccumulator();
    OverAccumulator aLast = last.createAccumulator();
    ArrayDeque<Double> frame = new ArrayDeque<>();
    Random rnd = new Random(5);
    int n = 150;
    int rows = 0;
    while (rows < 6000) {
      int batch = 1 + rnd.nextInt(40);
      for (int i = 0; i < batch; i++, rows++) {
        if (frame.size() == n) {
          Double old = frame.pollFirst();
          max.retract(aMax, old);
          sum.retract(aSum, old);
          first.retract(aFirst, old);
          last.retract(aLast, old);
        }
        Double v = (double) rnd.nextInt(1000);
        frame.addLast(v);
        max.accumulate(aMax, v);
        sum.accumulate(aSum, v);
        first.accumulate(aFirst, v);
        last.accumulate(aLast, v);
        assertEquals(naiveMax(frame), max.getValue(aMax), "max at row " + rows);
        assertEquals(naiveSum(frame), sum.getValue(aSum), "sum at row " + rows);
        assertEquals(frame.peekFirst(), first.getValue(aFirst), "first at row " + rows);
        assertEquals(frame.peekLast(), last.getValue(aLast), "last at row " + rows);
      }
      aMax = convert(aMax);
      aSum = convert(aSum);
      aFirst = convert(aFirst);
      aLast = convert(aLast);
    }
    // the view holds the frame in chunks of 32 (plus at most one partly dead chunk)
    int chunks = 0;
    try {
      for (Long k : aMax.getSlots().keys()) {
        chunks++;
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertTrue(chunks >= n / 32 && chunks <= n / 32 + 2, "chunks in the view: " + chunks);
  }

  @Test
  void outOfOrderRetractionsAreParkedUntilTheyReachTheFront() {
    SwagOverFunction.Max max = new SwagOverFunction.Max();
    SwagOverFunction.First first = new SwagOverFunction.First();
    OverAccumulator aMax = max.createAccumulator();
    OverAccumulator aFirst = first.createAccumulator();
    ArrayDeque<Double> frame = new ArrayDeque<>();
    Random rnd = new Random(11);
    int parkedSeen = 0;
    for (int batch = 0; batch < 600; batch++) {
      // expire a prefix of the frame in shuffled order (map order of timestamps), then add rows
      int expire = frame.isEmpty() ? 0 : rnd.nextInt(Math.min(frame.size(), 12) + 1);
      List<Double> gone = new ArrayList<>();
      for (int i = 0; i < expire; i++) {
        gone.add(frame.pollFirst());
      }
      Collections.shuffle(gone, rnd);
      for (int i = 0; i < gone.size(); i++) {
        max.retract(aMax, gone.get(i));
        first.retract(aFirst, gone.get(i));
        if (i == gone.size() / 2) {
          // a batch boundary in the middle of a retraction: the parked values go through the fields
          if (aMax.getPending() != null) {
            parkedSeen++;
          }
          aMax = convert(aMax);
          aFirst = convert(aFirst);
        }
      }
      assertNull(aMax.getPending(), "nothing parked once the whole prefix is retracted");
      int add = rnd.nextInt(10);
      for (int i = 0; i < add; i++) {
        Double v = (double) rnd.nextInt(40); // many equal values
        frame.addLast(v);
        max.accumulate(aMax, v);
        first.accumulate(aFirst, v);
      }
      assertEquals(naiveMax(frame), max.getValue(aMax), "max after batch " + batch);
      assertEquals(frame.peekFirst(), first.getValue(aFirst), "first after batch " + batch);
      aMax = convert(aMax);
      aFirst = convert(aFirst);
    }
    assertTrue(parkedSeen > 50, "parked retractions carried across a conversion: " + parkedSeen);
  }

  @Test
  void stddevAndDistinctCountAndMedianEqualNaive() {
    SwagOverFunction.Stddev sd = new SwagOverFunction.Stddev();
    SwagOverFunction.DistinctCount dc = new SwagOverFunction.DistinctCount();
    SwagOverFunction.Median med = new SwagOverFunction.Median();
    OverAccumulator aSd = sd.createAccumulator();
    OverAccumulator aDc = dc.createAccumulator();
    OverAccumulator aMed = med.createAccumulator();
    ArrayDeque<Double> frame = new ArrayDeque<>();
    ArrayDeque<String> names = new ArrayDeque<>();
    Random rnd = new Random(3);
    for (int row = 0; row < 1500; row++) {
      if (frame.size() == 41) {
        Double old = frame.pollFirst();
        sd.retract(aSd, old);
        med.retract(aMed, old);
        dc.retract(aDc, names.pollFirst());
      }
      Double v = (double) rnd.nextInt(100);
      String s = "n" + rnd.nextInt(30);
      frame.addLast(v);
      names.addLast(s);
      sd.accumulate(aSd, v);
      med.accumulate(aMed, v);
      dc.accumulate(aDc, s);
      if (frame.size() > 1) {
        double mean = 0;
        for (Double x : frame) {
          mean += x;
        }
        mean /= frame.size();
        double ss = 0;
        for (Double x : frame) {
          ss += (x - mean) * (x - mean);
        }
        double want = Math.sqrt(ss / (frame.size() - 1));
        assertEquals(want, sd.getValue(aSd), 1e-9 * Math.max(1, want), "stddev at row " + row);
      }
      assertEquals(new java.util.HashSet<>(names).size(), (long) dc.getValue(aDc), "distinct at row " + row);
      List<Double> sorted = new ArrayList<>(frame);
      Collections.sort(sorted);
      Double m = med.getValue(aMed);
      assertNotNull(m);
      // KLL keeps every value of a frame this small: its median is a value of the frame at rank 1/2
      int below = 0;
      int atOrBelow = 0;
      for (Double x : sorted) {
        below += x < m ? 1 : 0;
        atOrBelow += x <= m ? 1 : 0;
      }
      assertTrue(sorted.contains(m) && below <= sorted.size() / 2 && atOrBelow >= sorted.size() / 2,
          "median " + m + " of " + sorted);
      if (row % 7 == 0) {
        aSd = convert(aSd);
        aDc = convert(aDc);
        aMed = convert(aMed);
      }
    }
  }

  @Test
  void errors() {
    SwagOverFunction.Max max = new SwagOverFunction.Max();
    OverAccumulator acc = max.createAccumulator();
    assertThrows(OverStateException.class, () -> max.retract(acc, 1.0), "retract from an empty frame");
    max.accumulate(acc, 1.0);
    max.accumulate(acc, 2.0);
    max.retract(acc, 2.0); // not the oldest: parked
    assertEquals(2.0, max.getValue(acc)); // still in the frame until 1.0 goes
    OverStateException x = assertThrows(OverStateException.class, () -> max.retract(acc, 7.0));
    assertTrue(x.getMessage().contains("not in the OVER frame"), x.getMessage());
    max.retract(acc, 1.0);
    assertNull(max.getValue(acc), "both gone");
    IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> max.accumulate(acc, Double.NaN));
    assertTrue(nan.getMessage().startsWith("swag_max"), nan.getMessage());

    SwagOverFunction.Quantile q = new SwagOverFunction.Quantile();
    OverAccumulator qa = q.createAccumulator();
    assertNull(q.getValue(qa));
    q.accumulate(qa, 3.0, 0.9);
    assertThrows(IllegalArgumentException.class, () -> q.accumulate(qa, 4.0, 0.5));
    assertThrows(IllegalArgumentException.class, () -> q.accumulate(qa, 4.0, 1.5));
    assertEquals(3.0, q.getValue(convert(qa)));
  }

  @Test
  void resetEmptiesTheFrameAndTheView() throws Exception {
    SwagOverFunction.Max max = new SwagOverFunction.Max();
    OverAccumulator acc = max.createAccumulator();
    for (int i = 0; i < 100; i++) {
      max.accumulate(acc, (double) i);
    }
    acc = convert(acc);
    assertTrue(acc.getSlots().keys().iterator().hasNext());
    max.resetAccumulator(acc);
    assertNull(max.getValue(acc));
    assertTrue(!acc.getSlots().keys().iterator().hasNext(), "view empty after reset");
    max.accumulate(acc, 5.0);
    assertEquals(5.0, max.getValue(convert(acc)));
  }
}
