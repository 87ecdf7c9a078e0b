package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * {@link CopyAckQueue}'s local S1/S2 value, directly: the run of completed acks at the head. Catches
 * the mutant of {@code EveryDoneAckCountLincheckTest}, a count of every done ack, which the controller's tests could not see because
 * {@code popWriteAcks} blocks on each popped ack's event.
 */
class CopyAckQueueTest {
  private static WriteAck ack(long id, ControllerFixtures.CopyEvent e) {
    return new WriteAck(id, e, new int[0]);
  }

  @Test
  void aDoneAckBehindAPendingOneDoesNotCount() {
    CopyAckQueue<WriteAck> q = new CopyAckQueue<>();
    ControllerFixtures.CopyEvent[] e = new ControllerFixtures.CopyEvent[4];
    for (int i = 0; i < e.length; i++) {
      e[i] = new ControllerFixtures.CopyEvent();
      q.add(ack(i, e[i]));
    }
    assertEquals(0, q.leadingDone(), "nothing done");
    e[1].finish();
    e[3].finish();
    assertEquals(0, q.leadingDone(), "acks 1 and 3 are done, but ack 0 is pending: S1 may pop none");
    e[0].finish();
    assertEquals(2, q.leadingDone(), "0 and 1 lead; 3 waits behind pending 2");
    assertEquals(0L, q.poll().nodeId());
    assertEquals(1, q.leadingDone());
    e[2].finish();
    assertEquals(3, q.leadingDone());
    assertEquals(3, q.size());
  }

  @Test
  void pollsInIssueOrderAndReturnsNullWhenEmpty() {
    CopyAckQueue<WriteAck> q = new CopyAckQueue<>();
    WriteAck a = ack(7, new ControllerFixtures.CopyEvent());
    q.add(a);
    assertSame(a, q.poll());
    assertNull(q.poll());
    assertEquals(0, q.leadingDone());
  }
}
