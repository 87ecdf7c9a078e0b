package dev.hicachesync.controller;

import java.util.ArrayList;
import java.util.List;

/**
 * The sequential specification of an ack (or control) queue, written from PROTOCOL.md §4 and not from
 * the implementation: {@link AbstractAckQueueLincheckTest#ACKS} acks numbered in issue order, a done flag
 * each, and a head; the local value of S1/S2/S3 is the length of the run of done acks starting at the head
 * (an ack done behind a pending one does not count), and a pop removes exactly that run. Lincheck runs it
 * one operation at a time (public, no-argument constructor, same operations as the test).
 */
public class AckQueueSpec {
  private final boolean[] done = new boolean[AbstractAckQueueLincheckTest.ACKS];
  /** Acks popped so far: the head is ack number {@code head}. */
  private int head;

  public void complete(int i) {
    done[i] = true;
  }

  public int leadingDone() {
    int n = 0;
    while (head + n < done.length && done[head + n]) {
      n++;
    }
    return n;
  }

  public String popLeading() {
    List<Long> ids = new ArrayList<>();
    for (int n = leadingDone(); n > 0; n--) {
      ids.add((long) head++);
    }
    return ids.toString();
  }
}
