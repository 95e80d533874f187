package io.swag.core.fifo;

import io.swag.core.CountingSum;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Algorithm;
import io.swag.core.Swag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Worst-case combine counts per operation, measured with an instrumented function, at window sizes
 * up to 2^20: fill, steady rounds of evict+insert+query, drain. DABA Lite: at most 1 per query, 3
 * per insert, 2 per evict (Theorem 6.2); DABA: 1 / 4 / 3; subtract-on-evict: 0 / 1 / 1. Two-Stacks
 * must spike to about n on the evict that flips, which shows that the counter sees it. Each runs on
 * the typed class the factory builds for this one-double function ({@link DoubleFifo}) and on the
 * generic one ({@link PartialsFifo}).
 */
class WorstCaseTest {
  static final int N = 1 << 20;

  record Max(long insert, long evict, long query) {}

  static Max drive(FifoBase w, CountingSum f, int n, boolean checkSpace) {
    long mi = 0;
    long me = 0;
    long mq = 0;
    double expect = 0;
    long next = 0;
    long oldest = 0;
    // fill
    for (int i = 0; i < n; i++) {
      f.take();
      w.insert((double) (next % 1000));
      expect += next % 1000;
      next++;
      mi = Math.max(mi, f.take());
      if ((i & 1023) == 0) {
        mq = Math.max(mq, checkQuery(w, f, expect));
      }
      if (checkSpace) {
        assertTrue(w.storedPartials() <= w.size() + 2L, "stored partials " + w.storedPartials() + " > n+2");
      }
    }
    // steady rounds: evict + insert + query
    for (int i = 0; i < n; i++) {
      f.take();
      w.evict();
      expect -= oldest % 1000;
      oldest++;
      me = Math.max(me, f.take());
      w.insert((double) (next % 1000));
      expect += next % 1000;
      next++;
      mi = Math.max(mi, f.take());
      mq = Math.max(mq, checkQuery(w, f, expect));
      if (checkSpace) {
        assertTrue(w.storedPartials() <= w.size() + 2L);
      }
    }
    // drain
    while (w.size() > 0) {
      f.take();
      w.evict();
      expect -= oldest % 1000;
      oldest++;
      me = Math.max(me, f.take());
      if ((w.size() & 1023) == 0) {
        mq = Math.max(mq, checkQuery(w, f, expect));
      }
    }
    return new Max(mi, me, mq);
  }

  static long checkQuery(FifoBase w, CountingSum f, double expect) {
    f.take();
    double got = w.queryDouble();
    long c = f.take();
    assertEquals(expect, got, "query result");
    return c;
  }

  /** The factory's aggregator ({@code typed}: asserted to be a {@link DoubleFifo} where one exists) or the generic one. */
  static FifoBase make(String algorithm, CountingSum f, boolean typed) {
    Algorithm a = Algorithm.parse(algorithm);
    if (!typed) {
      return a.newGenericFifo(f);
    }
    FifoBase w = Swag.fifo(algorithm, f);
    if (a != Algorithm.SOE && a != Algorithm.TWO_STACKS) {
      assertInstanceOf(DoubleFifo.class, w, algorithm);
    }
    return w;
  }

  @ParameterizedTest(name = "{0} typed={4}: insert<={1} evict<={2} query<={3}")
  @CsvSource({"daba_lite, 3, 2, 1, true", "daba, 4, 3, 1, true", "soe, 1, 1, 0, true", "daba_lite, 3, 2, 1, false",
      "daba, 4, 3, 1, false"})
  void constantWorstCase(String algorithm, long maxInsert, long maxEvict, long maxQuery, boolean typed) {
    CountingSum f = new CountingSum();
    FifoBase w = make(algorithm, f, typed);
    Max m = drive(w, f, N, algorithm.equals("daba_lite"));
    assertTrue(m.insert <= maxInsert, algorithm + " insert used " + m.insert + " combines");
    assertTrue(m.evict <= maxEvict, algorithm + " evict used " + m.evict + " combines");
    assertTrue(m.query <= maxQuery, algorithm + " query used " + m.query + " combines");
    // and the bounds are tight enough to mean something: each is reached
    assertEquals(maxInsert, m.insert, "insert bound not reached; test too weak?");
    assertEquals(maxQuery, m.query);
  }

  @Test
  void twoStacksSpikes() {
    CountingSum f = new CountingSum();
    FifoBase w = Swag.fifo("two_stacks", f);
    Max m = drive(w, f, N, false);
    assertTrue(m.evict >= N - 1, "two_stacks flip should cost ~n combines, saw max " + m.evict);
    assertTrue(m.insert <= 1);
  }

  @ParameterizedTest(name = "typed={0}")
  @ValueSource(booleans = {true, false})
  void twoStacksLiteSpikes(boolean typed) {
    CountingSum f = new CountingSum();
    FifoBase w = make("two_stacks_lite", f, typed);
    Max m = drive(w, f, N, false);
    assertTrue(m.evict >= N - 1, "two_stacks_lite flip should cost ~n combines, saw max " + m.evict);
  }

  @ParameterizedTest(name = "typed={0}")
  @ValueSource(booleans = {true, false})
  void dabaLiteAverages(boolean typed) {
    // Theorem 6.2: on average 2 combines per insert and 1 per evict on non-empty windows.
    CountingSum f = new CountingSum();
    FifoBase w = make("daba_lite", f, typed);
    int n = 1 << 16;
    for (int i = 0; i < n; i++) {
      w.insert(1.0);
    }
    f.take();
    int rounds = 1 << 18;
    for (int i = 0; i < rounds; i++) {
      w.evict();
      w.insert(1.0);
    }
    double perRound = (double) f.take() / rounds;
    assertTrue(perRound <= 3.0 + 1e-9 && perRound >= 2.5, "daba_lite combines per evict+insert: " + perRound);
  }
}
