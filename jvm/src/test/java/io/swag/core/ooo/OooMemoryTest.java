package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The node pool stays within 64 bytes per entry (long times, {@code sum}), from its array sizes. */
class OooMemoryTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"bclassic2", "fiba2", "fiba4", "bfiba4", "fiba8"})
  void bytesPerEntry(String algorithm) {
    for (boolean ooo : new boolean[] {false, true}) {
      BTreeCore t = MemoryReport.fill(algorithm, 1 << 18, ooo, 3);
      MemoryReport.slide(t, 1 << 16);
      double b = t.allocatedBytes(1) / (double) t.size();
      assertTrue(b <= 64, algorithm + (ooo ? " ooo" : " in order") + ": " + b + " bytes per entry");
    }
  }
}
