package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadyQueue} under real racing threads, where Lincheck's sequentially consistent model cannot look
 * ({@code ReadyQueueProducersLincheckTest} passes a queue without its monitor): its two producers (the
 * prefetch thread's S7 outcomes and the scheduler's tails, free-running) append at once while the scheduler
 * counts the leading ready entries and pops them. Every element must come out exactly once, each producer's
 * in its own append order. Without the monitor the {@code ArrayDeque} underneath loses or duplicates
 * elements (tried: removing {@code synchronized} from {@code add}, {@code leadingReady} and {@code poll}
 * fails this test).
 */
class ReadyQueueRaceTest {
  private static final int PER_PRODUCER = Integer.getInteger("hicache.race.elements", 200_000);

  @Test
  void racingProducersAndThePopperLoseAndDuplicateNothing() throws InterruptedException {
    ReadyQueue<Integer> queue = new ReadyQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      int base = p * PER_PRODUCER;
      producers.add(thread("producer-" + p, failure, () -> {
        await(start);
        for (int i = 0; i < PER_PRODUCER; i++) {
          queue.add(base + i).markReady(); // ready at once: the popper races the appends
        }
      }));
    }
    List<Integer> popped = new ArrayList<>();
    Thread popper = thread("scheduler", failure, () -> {
      await(start);
      while (popped.size() < 2 * PER_PRODUCER && failure.get() == null) {
        int n = queue.leadingReady();
        for (int k = 0; k < n; k++) {
          popped.add(queue.poll());
        }
        if (n == 0 && producers.stream().noneMatch(Thread::isAlive) && queue.leadingReady() == 0) {
          break; // everything appended is out, or lost
        }
      }
    });
    producers.forEach(Thread::start);
    popper.start();
    start.countDown();
    for (Thread t : producers) {
      t.join();
    }
    popper.join();
    assertNull(failure.get(), () -> "a thread failed: " + failure.get());
    assertEquals(2 * PER_PRODUCER, popped.size(), "elements popped (lost or duplicated otherwise)");
    int[] next = {0, PER_PRODUCER};
    for (int v : popped) {
      int p = v / PER_PRODUCER;
      assertEquals(next[p], v, "producer " + p + "'s elements out of its append order");
      next[p]++;
    }
    assertEquals(0, queue.size());
  }

  private static Thread thread(String name, AtomicReference<Throwable> failure, Runnable body) {
    return new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, name);
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
