package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** {@link HandOffWorker}: where work runs, what comes back, and how it stops. */
class HandOffWorkerTest {

  @Test
  void steppedWorkRunsOnTheWorkerAndItsFailureComesBackUnchanged() {
    try (HandOffWorker w = new HandOffWorker("w-test", () -> {})) {
      String[] ranOn = new String[1];
      w.runAndAwait(() -> ranOn[0] = Thread.currentThread().getName());
      assertEquals("w-test", ranOn[0]);
      IllegalArgumentException boom = new IllegalArgumentException("boom");
      assertSame(boom, assertThrows(IllegalArgumentException.class, () -> w.runAndAwait(() -> {
        throw boom;
      })));
      assertTrue(w.idle());
    }
  }

  @Test
  void submittedWorkRunsInOrderAndAFailureIsRethrownOnce() throws InterruptedException {
    List<Integer> seen = new ArrayList<>(); // confined to the worker; published by runAndAwait
    try (HandOffWorker w = new HandOffWorker("w-test", () -> {})) {
      for (int i = 0; i < 100; i++) {
        int v = i;
        w.submit(() -> seen.add(v));
      }
      w.submit(() -> {
        throw new IllegalStateException("disk gone");
      });
      List<Integer> copy = new ArrayList<>();
      w.runAndAwait(() -> copy.addAll(seen)); // after every task handed over before it
      assertEquals(100, copy.size());
      for (int i = 0; i < 100; i++) {
        assertEquals(i, copy.get(i));
      }
      IllegalStateException e = assertThrows(IllegalStateException.class, w::rethrowFailure);
      assertTrue(e.getMessage().contains("w-test failed") && e.getMessage().contains("disk gone"), e.getMessage());
      w.rethrowFailure(); // once only
    }
  }

  @Test
  void closeRunsWhatWasHandedOverThenEndsTheThread() {
    HandOffWorker w = new HandOffWorker("w-test", () -> {});
    CountDownLatch ran = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      w.submit(ran::countDown);
    }
    w.close();
    assertEquals(0, ran.getCount());
    assertFalse(w.alive());
    w.submit(() -> {}); // dropped: a last batch handed on while the rank shuts down
    assertThrows(IllegalStateException.class, () -> w.runAndAwait(() -> {}));
  }

  @Test
  void aHandOffFromTheWorkerItselfRunsInline() {
    try (HandOffWorker w = new HandOffWorker("w-test", () -> {})) {
      int[] depth = new int[1];
      w.runAndAwait(() -> w.runAndAwait(() -> depth[0]++));
      assertEquals(1, depth[0]);
    }
  }
}
