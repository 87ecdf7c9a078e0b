package dev.hicachesync.bench;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The fabric's all-reduce (MIN of 8 longs, the size of a fused S123 with room) and barrier, against a plain
 * {@link CyclicBarrier} exchange of the same payload: every rank writes its values, one {@code await} whose
 * barrier action reduces them, every rank copies the result out. That is the least a lock-based rendezvous
 * does, so it is the bar the fabric must clear ({@code exchange}; {@code await} for the barrier).
 *
 * <p>One operation is {@code rounds} calls by each of {@code ranks} rank threads; the cost per call is the
 * score divided by {@code rounds}. The rank threads live for the whole trial, warm-up included: where the
 * scheduler put them is part of the steady state the warm-up is there to reach. A 2-rank group's median
 * call took 0.7-1.1 µs with its members on cores of their own and 3.3-3.7 µs with both on one core (each
 * wait is then a switch to the partner), so warming other threads than the measured ones made a figure
 * depend on where the measured ones happened to land. Between operations the ranks wait at a gate by
 * yielding, not by parking: a thread woken from a park is placed anew by the scheduler.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CollectiveBenchmark {
  static final int PAYLOAD = 8;

  @Param({"2", "4", "8"})
  public int ranks;

  /** {@code allReduce}, {@code barrier}: the fabric; {@code exchange}, {@code await}: their baselines. */
  @Param({"allReduce", "exchange", "barrier", "await"})
  public String variant;

  /** Calls each rank makes per operation. */
  @Param({"10000"})
  public int rounds;

  private final AtomicInteger finished = new AtomicInteger();
  private volatile long generation;
  private volatile boolean stop;
  private volatile Thread waiter;
  private volatile Throwable failure;
  private final List<Thread> threads = new ArrayList<>();

  /** One rank's call; returns a value folded into a sink so that it is not elided. */
  interface RankBody {
    long call(int rank, long[] mine) throws Exception;
  }

  @Setup(Level.Trial)
  public void setUp() {
    start(body(variant, ranks));
  }

  /** Starts the rank threads, each making {@code rounds} calls of {@code body} per operation. */
  void start(RankBody body) {
    for (int r = 0; r < ranks; r++) {
      int rank = r;
      Thread t = new Thread(() -> rankLoop(rank, body), "bench-rank-" + r);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void rankLoop(int rank, RankBody body) {
    long[] mine = new long[PAYLOAD];
    long seen = 0;
    long acc = 0;
    while (true) {
      long g;
      while ((g = generation) == seen) {
        if (stop) {
          sink = acc;
          return;
        }
        Thread.yield();
      }
      seen = g;
      try {
        for (int i = 0; i < rounds; i++) {
          mine[i & (PAYLOAD - 1)] = rank + i;
          acc += body.call(rank, mine);
        }
      } catch (Throwable e) {
        failure = e;
      }
      if (finished.incrementAndGet() == ranks) {
        LockSupport.unpark(waiter);
      }
    }
  }

  private static volatile long sink;

  /** {@code rounds} calls by every rank. */
  @Benchmark
  public void calls() {
    waiter = Thread.currentThread();
    finished.set(0);
    generation++;
    while (finished.get() < ranks) {
      LockSupport.park(this);
    }
    if (failure != null) {
      throw new IllegalStateException("collective benchmark failed: " + failure, failure);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException {
    stop = true;
    for (Thread t : threads) {
      t.join();
    }
    threads.clear();
  }

  static RankBody body(String variant, int ranks) {
    switch (variant) {
      case "allReduce":
        return fabric(ranks, true);
      case "barrier":
        return fabric(ranks, false);
      case "exchange":
        return cyclicExchange(ranks, PAYLOAD);
      case "await":
        return cyclicExchange(ranks, 0);
      default:
        throw new IllegalArgumentException("variant " + variant);
    }
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
