package io.swag.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.swag.core.AggregateFunction;
import io.swag.core.fn.Functions;
import io.swag.core.plan.ProductFunction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlicePreAggregatorTest {
  private static int slots(String... names) {
    List<AggregateFunction<?, ?, ?>> fns = new ArrayList<>();
    for (String n : names) {
      fns.add(Functions.byName(n));
    }
    return SlicePreAggregator.defaultSlots(new ProductFunction(fns).newPartials());
  }

  @Test
  void sketchesGetFewerOpenPartialsByDefault() {
    assertEquals(65_536, slots("max", "stddev", "count"));
    assertEquals(65_536, slots("bloom", "countmin")); // primitive, fixed size
    assertEquals(8_192, slots("max", "hll"));
    assertEquals(8_192, slots("kll"));
  }
}
