package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Members that parked are woken by the member that completes the generation (and by each other),
 * each unparked exactly by the waker that takes its registration. The fabric's timeout is minutes, so a
 * lost wake-up shows as a member still parked long after the last arrival, not as a timeout error.
 */
class RendezvousWakeUpTest {
  @ParameterizedTest
  @ValueSource(ints = {2, 3, 8})
  void everyParkedMemberIsWokenByTheLastArrival(int n) throws Exception {
    List<Integer> members = new ArrayList<>();
    for (int m = 0; m < n; m++) {
      members.add(m);
    }
    Rendezvous r = new Rendezvous("wake" + members, members, TimeUnit.MINUTES.toNanos(5), new WaitBoard());
    long[] values = {7};
    List<Thread> early = new ArrayList<>();
    List<CompletableFuture<Long>> results = new ArrayList<>();
    for (int m = 0; m < n - 1; m++) {
      int index = m;
      CompletableFuture<Long> f = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          f.complete(r.allReduce(index, "S123", ReduceOp.MIN, new long[] {index})[0]);
        } catch (Throwable e) {
          f.completeExceptionally(e);
        }
      }, "early-" + m);
      t.setDaemon(true);
      t.start();
      early.add(t);
      results.add(f);
    }
    for (Thread t : early) { // each waits out its active phase and parks
      Ranks.awaitState(() -> t.getState() == Thread.State.TIMED_WAITING, t.getName() + " parked");
    }
    long last = r.allReduce(n - 1, "S123", ReduceOp.MIN, values)[0];
    assertEquals(0, last);
    for (CompletableFuture<Long> f : results) {
      assertEquals(0L, f.get(10, TimeUnit.SECONDS), "a parked member woke and computed the same MIN");
    }
  }
}
