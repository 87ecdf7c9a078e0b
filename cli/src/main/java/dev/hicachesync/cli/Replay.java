package dev.hicachesync.cli;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.SimStats;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.workload.MooncakeRequest;
import dev.hicachesync.workload.MooncakeWorkload;
import dev.hicachesync.workload.PrefixReuseOracle;
import dev.hicachesync.workload.TierHits;
import java.util.List;
import java.util.Locale;

/**
 * A trace replay's inputs (the validated requests, capacities) and its report beside the simulator's.
 *
 * <p>The simulator reports hits in tokens, summed per sync domain; this adds what a trace makes
 * meaningful: the trace's own prefix reuse (the ceiling an unbounded cache reaches), hits as fractions of
 * the trace's input, and bytes moved at the model's page size ({@code --kv-bytes-per-token}).
 */
final class Replay {

  private final WorkloadOptions options;
  private final List<MooncakeRequest> trace;
  private final PrefixReuseOracle.Result oracle;
  private final int devicePages;
  private final int hostPages;
  private final StorageMode storage;
  private final long storagePages;

  Replay(WorkloadOptions options, List<MooncakeRequest> trace, int devicePages, int hostPages,
      StorageMode storage, long storagePages) {
    this.options = options;
    this.trace = trace;
    this.oracle = PrefixReuseOracle.of(trace.iterator(), options.pageSize);
    this.devicePages = devicePages;
    this.hostPages = hostPages;
    this.storage = storage;
    this.storagePages = storagePages;
  }

  WorkloadOptions options() { return options; }
  List<MooncakeRequest> trace() { return trace; }
  PrefixReuseOracle.Result oracle() { return oracle; }
  int devicePages() { return devicePages; }
  int hostPages() { return hostPages; }
  StorageMode storage() { return storage; }
  long storagePages() { return storagePages; }

  /** The L3 capacity in words: {@code off}, {@code unbounded}, or pages and GB per rank. */
  static String l3(StorageMode storage, long pages, long pageBytes) {
    if (storage == StorageMode.OFF) {
      return "off";
    }
    return pages == SimConfig.UNBOUNDED ? "unbounded"
        : String.format(Locale.ROOT, "%d pages (%.3f GB) per rank, LRU", pages, pages * (double) pageBytes / 1e9);
  }

  /** One line for the run's header: trace, size, capacities, timing. */
  String header() {
    return String.format(Locale.ROOT, "workload: %s, %d requests, %d input tokens in %d blocks; L1 %d pages, "
            + "L2 %d pages (%.2f x L1) of %d tokens; L3 %s; %s ms per step, %s ms per output token",
        options.workload, trace.size(), oracle.inputTokens(), oracle.inputBlocks(), devicePages, hostPages,
        devicePages == 0 ? 0.0 : (double) hostPages / devicePages, options.pageSize,
        l3(storage, storagePages, options.pageBytes()),
        fmt(options.msPerStep), fmt(options.msPerOutputToken));
  }

  /** The replay's report lines, printed after the simulator's own. */
  String report(SimResult r) {
    SimStats s = r.stats();
    double gib = 1024.0 * 1024.0 * 1024.0;
    long pb = options.pageBytes();
    long hit = s.deviceHitTokens() + s.hostHitTokens() + s.storageHitTokens();
    TierHits b = MooncakeWorkload.hitsOf(s.domainWorkloads());
    return String.format(Locale.ROOT,
        "trace prefix reuse (oracle, unbounded cache): tokens %d/%d = %.4f, 512-token blocks %d/%d = %.4f%n"
            + "replay hit ratio (tokens): L1 %.4f, L2 loaded back %.4f, L3 prefetched %.4f, miss %.4f, "
            + "total %.4f (%d of %d requests admitted%s)%n"
            + "replay hit ratio (512-token blocks): L1 %.4f, L2 loaded back %.4f, L3 prefetched %.4f, "
            + "miss %.4f, total %.4f (%d of %d blocks hit)%n"
            + "bytes moved at %d KiB per page: L1->L2 %.2f GiB, L2->L1 %.2f GiB, L3->L2 %.2f GiB, "
            + "L2->L3 %.2f GiB%n"
            + "prefetches: revoked %d, terminated early %d, completed %d (issued %d, aborted waiting %d)",
        oracle.hitTokens(), oracle.inputTokens(), oracle.tokenRatio(), oracle.hitBlocks(),
        oracle.inputBlocks(), oracle.blockRatio(),
        s.rate(s.deviceHitTokens()), s.rate(s.hostHitTokens()), s.rate(s.storageHitTokens()),
        s.rate(s.computedTokens()), s.rate(hit), s.admitted(), trace.size(),
        s.aborted() == 0 ? "" : ", " + s.aborted() + " aborted waiting", // a soak's aborts: never admitted, no tiers
        b.blockRatio(TierHits.Tier.L1), b.blockRatio(TierHits.Tier.L2), b.blockRatio(TierHits.Tier.L3),
        b.blockRatio(TierHits.Tier.MISS), b.totalBlockRatio(), b.inputBlocks() - b.blocks(TierHits.Tier.MISS),
        b.inputBlocks(),
        pb / 1024, s.deviceToHostPages() * pb / gib, s.hostToDevicePages() * pb / gib,
        s.storageReadPages() * pb / gib, s.storageWritePages() * pb / gib,
        s.prefetchesRevoked(), s.prefetchesTerminated() - s.prefetchesCompleted(), s.prefetchesCompleted(), s.prefetchesIssued(),
        s.prefetchesAborted());
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }
}
