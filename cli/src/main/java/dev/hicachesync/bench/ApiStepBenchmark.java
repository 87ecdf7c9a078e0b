package dev.hicachesync.bench;

import dev.hicachesync.api.HiCacheConfig;
import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.HiCacheStorage;
import dev.hicachesync.api.InJvmCluster;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the API itself costs a rank per idle step, without any collective or hand-off: one rank ({@code merged},
 * storage on and empty, stepped), whose groups are singletons, so that the sync layer skips every collective and
 * the step-order stamps (the {@code if world_size > 1} guard). One operation is the step's two required calls,
 * {@link HiCacheRank#runPrefetchThread} then {@link HiCacheRank#checkHicacheEvents}, on the benchmark's thread.
 * Every rank of a larger domain does this same work once per step besides its collectives, so this is the API's
 * share of {@link EventCheckBenchmark}'s step, measured without that benchmark's thread hand-offs (which on a
 * machine with fewer cores than ranks swing its rows by tens of µs).
 *
 * <p>Command: {@code ./hicache-sync bench --jmh ApiStepBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ApiStepBenchmark {
  private HiCacheRank rank;

  @Setup
  public void setUp() {
    HiCacheConfig cfg = HiCacheConfig.builder().parallelism(1, 1, 1, 1).protocolVersion("merged").build();
    InJvmCluster cluster = InJvmCluster.of(cfg, Duration.ofSeconds(30));
    rank = HiCacheRank.builder(cfg).groups(cluster.groups(0)).storage(HiCacheStorage.memory()).build();
  }

  /** One idle step's two required calls. */
  @Benchmark
  public void step() {
    rank.runPrefetchThread();
    rank.checkHicacheEvents();
  }
}
