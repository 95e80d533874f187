package io.swag.flink.table;

import io.swag.core.fifo.FifoBase;
import java.util.ArrayDeque;

/**
 * One key's OVER frame on the heap: the in-order aggregator (DABA Lite: insert and evict of the
 * oldest O(1) worst case, for every function) over the values {@code [head, tail)} of its
 * {@link OverAccumulator}, and those values (to check which value a retraction names without a
 * state read). Valid for an accumulator while token, head and tail agree.
 */
final class OverFrame {
  final long token;
  long head;
  long tail;
  final FifoBase fifo;
  final ArrayDeque<Object> values = new ArrayDeque<>();

  OverFrame(long token, long head, FifoBase fifo) {
    this.token = token;
    this.head = head;
    this.tail = head;
    this.fifo = fifo;
  }

  boolean serves(OverAccumulator a) {
    return token == a.token && head == a.head && tail == a.tail;
  }
}
