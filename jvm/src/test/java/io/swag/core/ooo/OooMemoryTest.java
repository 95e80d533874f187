package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bytes per entry of the node pool (long times, {@code sum}; array sizes including free capacity)
 * after a fill of 2^18 and a slide of 2^16: in order at most 36 (44 at min arity 2, whose nodes hold
 * at most 3 entries), out of order at most 44 (56).
 */
class OooMemoryTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bclassic2", "fiba2", "fiba4", "bfiba4", "fiba8"})
  void bytesPerEntry(String algorithm) {
    for (boolean ooo : new boolean[] {false, true}) {
      BTreeCore t = MemoryReport.fill(algorithm, 1 << 18, ooo, 3);
      MemoryReport.slide(t, 1 << 16);
      double b = t.allocatedBytes(1) / (double) t.size();
      // in order, nodes are left full (arity 2μ); min arity 2 nodes hold at most 3 entries
      double bound = t.minArity() == 2 ? (ooo ? 56 : 44) : (ooo ? 44 : 36);
      assertTrue(b <= bound, algorithm + (ooo ? " ooo" : " in order") + ": " + b + " bytes per entry, bound " + bound);
    }
  }
}
