package io.swag.core.fifo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.swag.core.Traces;
import io.swag.core.fn.Collect;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The papers' structural invariants of DABA and DABA Lite, checked after every operation on small
 * windows with {@code collect}, so each stored partial is compared with the exact list of values it
 * must aggregate.
 */
class DabaInvariantsTest {

  static List<Object> range(List<Object> v, int from, int to) {
    return new ArrayList<>(v.subList(from, to));
  }

  static List<Object> list(Object rope) {
    return ((Collect.Rope) rope).toList();
  }

  static void sizeInvariant(int[] ptr) {
    int lL = ptr[1] - ptr[0];
    int lR = ptr[2] - ptr[1];
    int lA = ptr[3] - ptr[2];
    int lF = ptr[3];
    int lB = ptr[4] - ptr[3];
    assertTrue(0 <= ptr[0] && ptr[0] <= ptr[1] && ptr[1] <= ptr[2] && ptr[2] <= ptr[3] && ptr[3] <= ptr[4],
        "pointer order F<=L<=R<=A<=B<=E");
    assertTrue((lF == 0 && lB == 0) || (lL + lR + lA + 1 == lF - lB && lL == lR),
        "size invariant: |lF|=" + lF + " |lB|=" + lB + " |lL|=" + lL + " |lR|=" + lR + " |lA|=" + lA);
  }

  @Test
  void dabaLite() {
    DabaLite w = new DabaLite(new Collect());
    List<Object> v = new ArrayList<>();
    Traces t = new Traces(7, 60);
    long seq = 0;
    for (int op = 0; op < 200_000; op++) {
      switch (t.next(w.size())) {
        case INSERT -> {
          w.insert(seq);
          v.add(seq++);
        }
        case EVICT -> {
          w.evict();
          v.remove(0);
        }
        case QUERY -> assertEquals(v, w.query());
      }
      int[] p = w.pointers();
      sizeInvariant(p);
      int l = p[0], r = p[1], a = p[2], b = p[3], e = p[4];
      for (int i = 0; i < l; i++) {
        assertEquals(range(v, i, b), list(w.at(i)), "l_F element " + i);
      }
      for (int i = l; i < r; i++) {
        assertEquals(range(v, i, r), list(w.at(i)), "l_L element " + i);
      }
      for (int i = r; i < a; i++) {
        assertEquals(range(v, i, i + 1), list(w.at(i)), "l_R element " + i);
      }
      if (l != r) {
        assertEquals(range(v, r, b), list(w.aggRA()), "aggRA");
      }
      for (int i = a; i < b; i++) {
        assertEquals(range(v, i, b), list(w.at(i)), "l_A element " + i);
      }
      for (int i = b; i < e; i++) {
        assertEquals(range(v, i, i + 1), list(w.at(i)), "l_B element " + i);
      }
      assertEquals(range(v, b, e), list(w.aggB()), "aggB");
      assertEquals(v.size() + 2L, w.storedPartials());
    }
  }

  @Test
  void daba() {
    Daba w = new Daba(new Collect());
    List<Object> v = new ArrayList<>();
    Traces t = new Traces(11, 60);
    long seq = 0;
    for (int op = 0; op < 200_000; op++) {
      switch (t.next(w.size())) {
        case INSERT -> {
          w.insert(seq);
          v.add(seq++);
        }
        case EVICT -> {
          w.evict();
          v.remove(0);
        }
        case QUERY -> assertEquals(v, w.query());
      }
      int[] p = w.pointers();
      sizeInvariant(p);
      int l = p[0], r = p[1], a = p[2], b = p[3], e = p[4];
      for (int i = 0; i < e; i++) {
        assertEquals(range(v, i, i + 1), list(w.valAt(i)), "val " + i);
      }
      for (int i = 0; i < l; i++) {
        assertEquals(range(v, i, b), list(w.aggAt(i)), "l_F agg " + i);
      }
      for (int i = l; i < r; i++) {
        assertEquals(range(v, i, r), list(w.aggAt(i)), "l_L agg " + i);
      }
      for (int i = r; i < a; i++) {
        assertEquals(range(v, r, i + 1), list(w.aggAt(i)), "l_R agg " + i);
      }
      for (int i = a; i < b; i++) {
        assertEquals(range(v, i, b), list(w.aggAt(i)), "l_A agg " + i);
      }
      for (int i = b; i < e; i++) {
        assertEquals(range(v, b, i + 1), list(w.aggAt(i)), "l_B agg " + i);
      }
    }
  }
}
