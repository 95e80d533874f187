package io.swag.core.ooo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs {@link BTreeCore#checkInvariants()} after every operation of random traces on small trees
 * (n <= 200): 10^5 operations with {@code sum} and 3 * 10^4 with {@code collect} (non-commutative,
 * so an operand swap in any repair path shows) per variant.
 */
class OooInvariantTest {

  static java.util.List<String> variants() {
    return Trees.NAMES;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variants")
  void invariantsAfterEveryOperation(String algorithm) {
    OooDriver d = new OooDriver(algorithm, "sum", 7L + algorithm.hashCode(), 200, true);
    d.maxBulk = 60;
    d.run(100_000);
    assertTrue(d.maxSize >= 150, "trace never grew the window: max " + d.maxSize);
    OooDriver c = new OooDriver(algorithm, "collect", 11L + algorithm.hashCode(), 200, true);
    c.maxBulk = 60;
    c.run(30_000);
    assertTrue(d.checkedQueries + d.checkedRanges > 10_000, "too few checked queries");
  }
}
