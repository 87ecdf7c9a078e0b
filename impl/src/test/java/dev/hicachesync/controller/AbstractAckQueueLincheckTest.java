package dev.hicachesync.controller;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * Operation catalogue for an ack queue and its "leading completed acks" count — the local value of S1/S2
 * (PROTOCOL.md §4): copy-engine threads complete events in any order, the scheduler thread counts the
 * leading completed acks and pops exactly that many. Linearizable means: the count is the length of the
 * completed prefix at some instant during the call, and a pop removes exactly those acks, in order.
 * Subclasses bind it to an implementation with one constructor and check it against {@link AckQueueSpec},
 * the sequential model.
 */
@Param(name = "ack", gen = IntGen.class, conf = "0:2")
public abstract class AbstractAckQueueLincheckTest {
  /** Acks queued before the parallel part. */
  static final int ACKS = 3;

  /** The component under test. */
  interface Acks {
    /** A copy engine finishes ack {@code i}'s transfer. Any thread. */
    void complete(int i);

    /** The leading completed acks still queued. Scheduler thread. */
    int leadingDone();

    /** Pops the leading completed acks; returns their ids in order. Scheduler thread. */
    List<Long> popLeading();
  }

  private final Acks acks;

  AbstractAckQueueLincheckTest(Acks acks) {
    this.acks = acks;
  }

  @Operation(params = {"ack"})
  public void complete(int i) {
    acks.complete(i);
  }

  @Operation(nonParallelGroup = "scheduler")
  public int leadingDone() {
    return acks.leadingDone();
  }

  @Operation(nonParallelGroup = "scheduler")
  public String popLeading() {
    return acks.popLeading().toString();
  }

  /** The controller's own write-ack queue and its {@code leadingDone}. */
  static Acks real() {
    CopyAckQueue<WriteAck> writeAcks = ControllerFixtures.controller().state().acks().writeQueue();
    ControllerFixtures.CopyEvent[] events = new ControllerFixtures.CopyEvent[ACKS];
    for (int i = 0; i < ACKS; i++) {
      events[i] = new ControllerFixtures.CopyEvent();
      writeAcks.add(new WriteAck(i, events[i], new int[0]));
    }
    return new Acks() {
      @Override
      public void complete(int i) {
        events[i].finish();
      }

      @Override
      public int leadingDone() {
        return writeAcks.leadingDone();
      }

      @Override
      public List<Long> popLeading() {
        int n = writeAcks.leadingDone();
        List<Long> ids = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          ids.add(writeAcks.poll().nodeId()); // what popWriteAcks pops, minus the tree updates
        }
        return ids;
      }
    };
  }
}
