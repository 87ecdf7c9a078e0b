package dev.hicachesync.sim;

import dev.hicachesync.cluster.ClusterNode;
import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.controller.ControllerStats;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.trace.TraceRecorder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Runs one rank of a simulation in this process ({@code ./hicache-sync rank}): the same engine, workload,
 * seeded timing and checks as the in-JVM run, its groups on a {@link ClusterNode} instead of the in-JVM
 * fabric. The seeded environment decides every rank's timing, so the rank makes the same decisions as its
 * thread in the in-JVM run, and its digest log is the same.
 */
public final class HostedRank {
  private HostedRank() {}

  /**
   * Runs rank {@code node.rank()} of {@code cfg} to its end and returns its report.
   *
   * @param faults environment faults of a soak, or null
   * @param digestLogs folder of the digest log ({@code rank-R.digests}), or null
   * @param killAtStep the step at which this process sends itself {@code SIGKILL} (the killed-rank fault of a
   *     test), or -1
   */
  public static RankReport run(SimConfig cfg, EnvironmentFaults faults, ClusterNode node, Path digestLogs,
      long killAtStep) {
    return run(cfg, faults, node, digestLogs, killAtStep, TraceRecorder.NONE);
  }

  /**
   * As {@link #run(SimConfig, EnvironmentFaults, ClusterNode, Path, long)}, recording this rank's trace lines
   * (after the run's header) into {@code trace}: the lines its thread writes in the in-JVM run.
   */
  public static RankReport run(SimConfig cfg, EnvironmentFaults faults, ClusterNode node, Path digestLogs,
      long killAtStep, TraceRecorder trace) {
    int rank = node.rank();
    int world = cfg.topology().worldSize();
    for (var f : List.of(dev.hicachesync.sim.environment.Fault.PP_PREFETCH_TICKETS,
        dev.hicachesync.sim.environment.Fault.PD_PREFILL_BOOTSTRAP)) {
      if (cfg.faults().contains(f)) {
        // A cluster node routes a pipeline channel by its ends alone: tickets or the bootstrap ring would share
        // the request relay's.
        throw new IllegalArgumentException("fault " + f.name().toLowerCase(java.util.Locale.ROOT)
            + " runs in one JVM only, not with --processes");
      }
    }
    Simulator sim = new Simulator(cfg, trace).withFaults(faults).withDigestLogs(digestLogs)
        .hosting(rank, GroupSource.of(node));
    long start = System.nanoTime(); // reporting only
    RankEngine[] engines = sim.setUp();
    RankEngine e = engines[0];
    List<Integer> all = IntStream.range(0, world).boxed().toList();
    // Every rank has opened its store (which removes leftover temporary files) before any rank writes.
    node.group("start", all).barrier("START");
    if (killAtStep >= 0) {
      e.recorder().gate(() -> {
        if (e.recorder().step() >= killAtStep) {
          killSelf();
        }
      });
    }
    sim.runRank(e);
    boolean completed = sim.first() == null && sim.crash() == null;
    if (completed) {
      try {
        // Leave only when every rank has: a peer may still wait for this rank's last contribution.
        node.group("end", all).barrier("END");
      } catch (CollectiveException ignored) {
        // a peer that failed after its last step: its own exit names the failure
      }
    }
    Simulator.closeData(engines);
    sim.deleteTempStores();
    return report(cfg, sim, e, node, faults, (System.nanoTime() - start) / 1_000_000);
  }

  private static RankReport report(SimConfig cfg, Simulator sim, RankEngine e, ClusterNode node,
      EnvironmentFaults faults, long elapsedMillis) {
    RankReport r = RankReport.of(e.rank());
    e.stats().putInto(r);
    ControllerStats c = e.controller().view().stats();
    r.put("controller_collectives", e.controller().view().collectives())
        .put("device_to_host_copies", c.deviceToHostCopies()).put("device_to_host_pages", c.deviceToHostPages())
        .put("host_to_device_copies", c.hostToDeviceCopies()).put("host_to_device_pages", c.hostToDevicePages())
        .put("storage_read_pages", c.storageReadPages()).put("storage_write_pages", c.storageWritePages())
        .put("storage_read_failures", c.storageReadFailures()).put("storage_corrupt_pages", c.storageCorruptPages())
        .put("storage_forged_pages", c.storageForgedPages())
        .put("prefetches_issued", c.prefetchesIssued()).put("prefetches_revoked", c.prefetchesRevoked())
        .put("prefetches_terminated", c.prefetchesTerminated()).put("prefetches_completed", c.prefetchesCompleted())
        .put("prefetches_aborted", c.prefetchesAborted());
    if (e.data() != null) {
      r.put("data_bytes", e.data().movedBytes()).put("checked_pages", e.data().checkedPages())
          .put("device_tier", e.data().tierName());
    }
    r.put("storage_pages_at_start", sim.storagePagesAtStart())
        .put("storage_evicted_pages", sim.storageEvictedPages())
        .put("tree_digest", e.controller().view().tree().digest().hash())
        .put("elapsed_ms", elapsedMillis);
    if (faults != null) {
      r.put("faults", faults.describe());
    }
    Divergence d = sim.first();
    r.putDivergence(d);
    if (sim.crash() != null) {
      r.put("crash", "simulation failed on seed " + cfg.seed() + ": " + sim.crash());
    }
    if (d == null && cfg.drainSteps() > 0) {
      r.put("quiescence", String.join("\n", e.quiescenceErrors()));
    }
    r.put("lost_peers", String.join(",", node.lostRanks().stream().map(String::valueOf).toList()));
    return r;
  }

  /** The killed-rank fault: a real {@code kill -9} of this process, as an operator or the OOM killer sends it. */
  private static void killSelf() {
    try {
      new ProcessBuilder("kill", "-9", String.valueOf(ProcessHandle.current().pid())).inheritIO().start()
          .waitFor();
    } catch (IOException ex) {
      // no kill binary: end as abruptly (no shutdown hooks, sockets closed by the kernel)
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
    Runtime.getRuntime().halt(137);
  }
}
