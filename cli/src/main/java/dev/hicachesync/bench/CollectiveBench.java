package dev.hicachesync.bench;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fabric's all-reduce (MIN of 8 longs, the size of a fused S123 with room) and barrier, against a
 * plain {@link CyclicBarrier} exchange of the same payload: every rank writes its values, one
 * {@code await} whose barrier action reduces them, every rank copies the result out. That is the least a
 * lock-based rendezvous does, so it is the bar the fabric must clear.
 */
final class CollectiveBench {
  static final int PAYLOAD = 8;

  private CollectiveBench() {}

  /**
   * Rows for all-reduce and barrier at {@code ranks}, each against the CyclicBarrier exchange: the median
   * of {@code trials} interleaved trials of each (the baseline and the fabric take turns, so that a burst
   * of load from elsewhere hits both alike).
   */
  static List<BenchRow> run(int ranks, int rounds, int trials) throws Exception {
    double[][] t = new double[4][trials];
    for (int i = 0; i < trials; i++) {
      t[0][i] = time(ranks, rounds, cyclicExchange(ranks, PAYLOAD));
      t[1][i] = time(ranks, rounds, fabric(ranks, true));
      t[2][i] = time(ranks, rounds, cyclicExchange(ranks, 0));
      t[3][i] = time(ranks, rounds, fabric(ranks, false));
    }
    double exchange = median(t[0]);
    double allReduce = median(t[1]);
    double barrierOnly = median(t[2]);
    double barrier = median(t[3]);
    String target = ranks == 2 ? "≤ 2 µs" : "≥ 4× (≤ ¼ of the baseline)";
    return List.of(
        new BenchRow("fabric all-reduce MIN 8 longs, " + ranks + " ranks", allReduce,
            "CyclicBarrier exchange", exchange, "call", target),
        new BenchRow("fabric barrier, " + ranks + " ranks", barrier, "CyclicBarrier.await", barrierOnly, "call", ""));
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    java.util.Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** One rank's body: {@code rounds} calls. */
  interface RankBody {
    long call(int rank, long[] mine) throws Exception;
  }

  /**
   * Wall time per round with {@code ranks} threads each making {@code rounds} calls, after a warm-up of
   * {@code rounds / 2 + 1} calls made by the same threads.
   *
   * <p>Why the same threads (issue 13): the warm-up is there to bring the measured calls into their steady
   * state, and where the scheduler put the rank threads is part of it. A 2-rank group's median call took
   * 0.7-1.1 µs with its members on cores of their own and 3.3-3.7 µs with both on one core (each wait is
   * then a switch to the partner), per trial under {@code chrt -f 1} on 2 cores, and which of the two a trial
   * got changed from trial to trial (docs/performance.md, "The 2-rank all-reduce"). Measured in fresh
   * threads, every trial's measured calls started under a placement its warm-up had never run under.
   */
  static double time(int ranks, int rounds, RankBody body) throws Exception {
    return runRounds(ranks, rounds / 2 + 1, rounds, body) / rounds;
  }

  /** Nanoseconds from the start of the measured calls until the last rank made its last one. */
  private static double runRounds(int ranks, int warmRounds, int rounds, RankBody body) throws Exception {
    // Between the warm-up and the measured calls the ranks meet at a gate they wait at by yielding, not by
    // sleeping: a thread woken from sleep is placed anew by the scheduler (often beside its waker), which is
    // the placement change the same threads are there to avoid. The last rank to reach the gate starts the
    // clock; each rank reads its own end, so a main thread waking late from join() adds nothing.
    AtomicInteger ready = new AtomicInteger();
    AtomicBoolean go = new AtomicBoolean();
    long[] t0 = new long[1];
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    long[] sink = new long[ranks];
    long[] end = new long[ranks];
    for (int r = 0; r < ranks; r++) {
      int rank = r;
      Thread t = new Thread(() -> {
        long[] mine = new long[PAYLOAD];
        try {
          long acc = 0;
          for (int i = 0; i < warmRounds; i++) {
            mine[i & (PAYLOAD - 1)] = rank + i;
            acc += body.call(rank, mine);
          }
          if (ready.incrementAndGet() == ranks) {
            t0[0] = System.nanoTime();
            go.set(true);
          }
          while (!go.get()) {
            Thread.yield();
          }
          for (int i = 0; i < rounds; i++) {
            mine[i & (PAYLOAD - 1)] = rank + i;
            acc += body.call(rank, mine);
          }
          end[rank] = System.nanoTime();
          sink[rank] = acc;
        } catch (Throwable e) {
          synchronized (errors) {
            errors.add(e);
          }
          go.set(true); // a rank that failed in its warm-up must not leave the others at the gate
        }
      }, "bench-rank-" + r);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("collective benchmark failed: " + errors.get(0), errors.get(0));
    }
    long last = Long.MIN_VALUE;
    for (long e : end) {
      last = Math.max(last, e);
    }
    return last - t0[0];
  }

  /** The fabric: all-reduce (or barrier) on one group of {@code ranks}. */
  static RankBody fabric(int ranks, boolean allReduce) {
    LocalFabric fabric = new LocalFabric(Duration.ofMinutes(1));
    List<Integer> members = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      members.add(r);
    }
    ProcessGroup[] handles = new ProcessGroup[ranks];
    for (int r = 0; r < ranks; r++) {
      handles[r] = fabric.group("bench", members, r);
    }
    if (allReduce) {
      return (rank, mine) -> handles[rank].allReduce("S123", ReduceOp.MIN, mine)[0];
    }
    return (rank, mine) -> {
      handles[rank].barrier("S6");
      return 0;
    };
  }

  /**
   * The baseline: slots written by each rank, one {@code CyclicBarrier.await} whose action reduces them,
   * and a copy of the result per rank (the fabric returns a fresh array too). With {@code payload} 0 it is
   * a bare {@code await}. One await suffices: the action of round k+1 runs only after every rank has
   * copied round k's result and arrived again.
   */
  static RankBody cyclicExchange(int ranks, int payload) {
    long[][] slots = new long[ranks][payload];
    long[] result = new long[payload];
    CyclicBarrier barrier = new CyclicBarrier(ranks, () -> {
      System.arraycopy(slots[0], 0, result, 0, payload);
      for (int m = 1; m < ranks; m++) {
        for (int i = 0; i < payload; i++) {
          result[i] = Math.min(result[i], slots[m][i]);
        }
      }
    });
    return (rank, mine) -> {
      System.arraycopy(mine, 0, slots[rank], 0, payload);
      barrier.await();
      return payload == 0 ? 0 : result.clone()[0];
    };
  }
}
