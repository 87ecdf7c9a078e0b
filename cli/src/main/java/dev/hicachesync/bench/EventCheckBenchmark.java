package dev.hicachesync.bench;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.time.Duration;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-step cost of an idle scheduler step through the API ({@link HiCacheRank#runPrefetchThread} with no
 * prefetch issued, then {@link HiCacheRank#checkHicacheEvents} with nothing pending), at 8 in-JVM ranks
 * ({@code merged}, CP 2 × TP 4: one S123 all-reduce per step, carrying the step-order stamps), next to the
 * cost of that collective alone ({@code variant=collectives}: an all-reduce of 5 longs on the same kind of
 * group, no controller) in the same run. The difference is what the API, its step-order checks and the
 * controller add per step (the target: 10 µs).
 *
 * <p>Workload: one operation is one step of all 8 ranks. Each rank is a thread that waits at a barrier,
 * runs its step and meets the others at a second barrier; the benchmark thread is the barriers' ninth party.
 * The hand-off costs the same in both variants, so compare the two rows, not one row with zero. Storage is
 * on (S123 carries the three storage-queue counts) and empty.
 *
 * <p>Command: {@code ./hicache-sync bench --only events}, or JMH's own options through
 * {@code ./hicache-sync bench --jmh 'EventCheckBenchmark -prof gc'}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EventCheckBenchmark {
  private static final int CP = 2;
  private static final int TP = 4;

  /** {@code eventCheck}: the API's event check; {@code collectives}: its S123 all-reduce alone. */
  @Param({"collectives", "eventCheck"})
  public String variant;

  private Thread[] workers;
  private CyclicBarrier start;
  private CyclicBarrier end;
  private volatile boolean stop;

  @Setup(Level.Trial)
  public void setUp() {
    HiCacheConfig cfg = HiCacheConfig.builder().parallelism(1, CP, TP, 1).protocolVersion("merged").build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(30));
    HiCacheStorage storage = HiCacheStorage.memory();
    int world = cluster.worldSize();
    start = new CyclicBarrier(world + 1);
    end = new CyclicBarrier(world + 1);
    workers = new Thread[world];
    for (int r = 0; r < world; r++) {
      Runnable step;
      if (variant.equals("eventCheck")) {
        HiCacheRank rank = HiCacheRank.builder(cfg.forRank(r)).groups(cluster.groups(r)).storage(storage).build();
        step = () -> { // a step's two required calls, in order
          rank.runPrefetchThread();
          rank.checkHicacheEvents();
        };
      } else {
        ProcessGroup g = cluster.groups(r).cpTp();
        step = () -> g.allReduce("S123", ReduceOp.MIN, new long[5]);
      }
      workers[r] = new Thread(() -> loop(step), "rank-" + r);
      workers[r].setDaemon(true);
      workers[r].start();
    }
  }

  private void loop(Runnable step) {
    try {
      while (true) {
        start.await();
        if (stop) {
          return;
        }
        step.run();
        end.await();
      }
    } catch (InterruptedException | BrokenBarrierException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One scheduler step of every rank. */
  @Benchmark
  public void step() throws Exception {
    start.await(30, TimeUnit.SECONDS);
    end.await(30, TimeUnit.SECONDS);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws InterruptedException, BrokenBarrierException, TimeoutException {
    stop = true;
    start.await(30, TimeUnit.SECONDS);
    for (Thread w : workers) {
      w.join();
    }
  }
}
