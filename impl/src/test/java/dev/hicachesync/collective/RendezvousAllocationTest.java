package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A collective allocates nothing per call but the fresh array the interface returns (no call
 * record, no wait-board entry, no payload copy), and nothing at all when the caller passes its own. Measured with the JVM's per-thread allocation counter
 * over many calls, so that a stray object per call shows as tens of bytes per call above the result.
 */
class RendezvousAllocationTest {
  static final int CALLS = 20_000;
  /** The result array of 8 longs: 16-byte header + 64 bytes; a little room for counter granularity. */
  static final long ALLOWED_BYTES_PER_CALL = 16 + 8 * 8 + 16;

  @Test
  void allReduceAllocatesOnlyItsResult() throws Exception {
    com.sun.management.ThreadMXBean mx = threadMx();
    LocalFabric fabric = new LocalFabric(Duration.ofMinutes(1));
    ProcessGroup g0 = fabric.group("sched", List.of(0, 1), 0);
    ProcessGroup g1 = fabric.group("sched", List.of(0, 1), 1);
    long[] partner = new long[8];
    CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
      for (int i = 0; i < 2 * CALLS; i++) {
        g1.allReduce("S123", ReduceOp.MIN, partner);
      }
    });
    long[] mine = new long[8];
    for (int i = 0; i < CALLS; i++) { // warm-up: compiled code, grown buffers
      g0.allReduce("S123", ReduceOp.MIN, mine);
    }
    long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
    for (int i = 0; i < CALLS; i++) {
      mine[0] = i;
      g0.allReduce("S123", ReduceOp.MIN, mine);
    }
    long perCall = (mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / CALLS;
    other.get();
    assertTrue(perCall <= ALLOWED_BYTES_PER_CALL,
        "an all-reduce allocated " + perCall + " bytes per call; only its 80-byte result is expected");
  }

  @Test
  void allReduceIntoACallersArrayAllocatesNothing() throws Exception {
    com.sun.management.ThreadMXBean mx = threadMx();
    LocalFabric fabric = new LocalFabric(Duration.ofMinutes(1));
    ProcessGroup g0 = fabric.group("sched", List.of(0, 1), 0);
    ProcessGroup g1 = fabric.group("sched", List.of(0, 1), 1);
    CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
      long[] partner = new long[8];
      long[] out = new long[8];
      for (int i = 0; i < 2 * CALLS; i++) {
        partner[0] = -i;
        g1.allReduce("S123", ReduceOp.MIN, partner, out);
      }
    });
    long[] mine = new long[8];
    long[] out = new long[8];
    for (int i = 0; i < CALLS; i++) { // warm-up: compiled code
      g0.allReduce("S123", ReduceOp.MIN, mine, out);
    }
    long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
    long checksum = 0;
    for (int i = 0; i < CALLS; i++) {
      mine[0] = i;
      checksum += g0.allReduce("S123", ReduceOp.MIN, mine, out)[0];
    }
    long bytes = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    other.get();
    // Partner's call i (from CALLS on) passes -i, ours passes i - CALLS: the minimum is -(CALLS + i).
    assertEquals(-(long) CALLS * CALLS - (long) CALLS * (CALLS - 1) / 2, checksum, "wrong results");
    assertTrue(bytes < CALLS, "an all-reduce into a caller's array allocated " + bytes + " bytes over " + CALLS
        + " calls; none is expected");
  }

  private static com.sun.management.ThreadMXBean threadMx() {
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean t && t.isThreadAllocatedMemorySupported(),
        "this JVM does not count allocated bytes per thread");
    com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
    t.setThreadAllocatedMemoryEnabled(true);
    return t;
  }
}
