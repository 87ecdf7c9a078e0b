package dev.hicachesync.collective;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/** Test helper: runs one body per rank on its own thread and collects each rank's value or exception. */
final class Ranks {
  private Ranks() {}

  /** What one rank's body ended with. */
  record Outcome<T>(T value, Throwable error) {}

  /** Starts {@code body(rank)} on a new thread for each rank; returns the futures in rank order. */
  static <T> List<CompletableFuture<T>> start(List<Integer> ranks, IntFunction<T> body) {
    List<CompletableFuture<T>> futures = new ArrayList<>();
    for (int r : ranks) {
      CompletableFuture<T> f = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          f.complete(body.apply(r));
        } catch (Throwable e) {
          f.completeExceptionally(e);
        }
      }, "rank-" + r);
      t.setDaemon(true);
      t.start();
      futures.add(f);
    }
    return futures;
  }

  /** Runs {@code body} on each rank and waits (at most 30 s) for all outcomes. */
  static <T> List<Outcome<T>> run(List<Integer> ranks, IntFunction<T> body) throws InterruptedException {
    List<Outcome<T>> out = new ArrayList<>();
    for (CompletableFuture<T> f : start(ranks, body)) {
      out.add(await(f));
    }
    return out;
  }

  static <T> Outcome<T> await(CompletableFuture<T> f) throws InterruptedException {
    try {
      return new Outcome<>(f.get(30, TimeUnit.SECONDS), null);
    } catch (ExecutionException e) {
      return new Outcome<>(null, e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("a rank did not finish within 30 s", e);
    }
  }

  /** Waits for an observable state (not a sleep): polls {@code condition} until true, failing after 10 s. */
  static void awaitState(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never reached: " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }
}
