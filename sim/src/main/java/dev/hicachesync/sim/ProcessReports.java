package dev.hicachesync.sim;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.topology.GroupKind;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds the parts of a world of rank processes ({@link RankReport}s) up into the result the in-JVM run of the
 * same configuration returns: the same statistics (request figures once per sync domain, data movement from
 * every rank), the same final tree-digest check, and the first divergence.
 */
public final class ProcessReports {
  private ProcessReports() {}

  /**
   * Returns the world's result.
   *
   * @param reports one per rank, in rank order
   * @param fromLogs the first disagreement of the gathered digest logs ({@link DigestLogs}), or null
   * @param elapsedMillis wall time of the whole world (reporting only)
   */
  public static SimResult combine(SimConfig cfg, List<RankReport> reports, Divergence fromLogs, long elapsedMillis) {
    Topology t = cfg.topology();
    long completed = Long.MAX_VALUE;
    for (RankReport r : reports) {
      completed = Math.min(completed, r.num("steps_run"));
    }
    // The first divergence: the lowest step; at one step a rank's own failure (a failed collective, a local
    // invariant) before the logs' disagreement it explains.
    List<Divergence> found = new ArrayList<>();
    for (RankReport r : reports) {
      if (r.divergence() != null) {
        found.add(r.divergence());
      }
    }
    if (fromLogs != null) {
      found.add(fromLogs);
    }
    Divergence d = found.stream().min(Comparator.comparingLong(Divergence::step)).orElse(null);
    List<Long> digests = new ArrayList<>();
    if (d == null) {
      d = finalDigests(t, reports, completed, digests);
    }
    List<String> quiescence = new ArrayList<>();
    if (d == null && cfg.drainSteps() > 0) {
      for (RankReport r : reports) {
        for (String q : r.lines("quiescence")) {
          quiescence.add("rank " + r.rank() + ": " + q);
        }
      }
    }
    long steps = Math.min(completed, cfg.steps());
    SimStats s = stats(cfg, reports, steps, true);
    return new SimResult(cfg, s, d, steps, digests, quiescence, elapsedMillis);
  }

  /** Returns one rank's own view as a result: its counters alone (a rank process's stdout). */
  public static SimResult local(SimConfig cfg, RankReport r) {
    long steps = Math.min(r.num("steps_run"), cfg.steps());
    SimStats s = stats(cfg, List.of(r), steps, false);
    return new SimResult(cfg, s, r.divergence(), steps, List.of(r.num("tree_digest")), r.lines("quiescence"),
        r.num("elapsed_ms"));
  }

  /** Compares each domain's final tree digests (the in-JVM run's last check); fills {@code digests}. */
  private static Divergence finalDigests(Topology t, List<RankReport> reports, long completed, List<Long> digests) {
    for (List<Integer> domain : t.groups(GroupKind.SYNC_DOMAIN)) {
      long ref = reports.get(domain.get(0)).num("tree_digest");
      for (int i = 1; i < domain.size(); i++) {
        long other = reports.get(domain.get(i)).num("tree_digest");
        if (other != ref) {
          return new Divergence(completed, "tree digest at the end", List.of(Invariant.TreeAgreement),
              domain.get(0), domain.get(i), Long.toHexString(ref), Long.toHexString(other));
        }
      }
      digests.add(ref);
    }
    return null;
  }

  /** As {@code Simulator.stats}, from the reports; {@code world}: domains counted by their first rank. */
  private static SimStats stats(SimConfig cfg, List<RankReport> reports, long steps, boolean world) {
    Topology t = cfg.topology();
    SimStats s = new SimStats();
    s.ran(steps, reports.size());
    s.pageBytes(cfg.controllerConfig().pageBytes());
    if (cfg.data().on()) {
      s.pageBytes(cfg.data().pageBytes());
      s.dataPath(reports.get(0).text("device_tier"), String.format("%s, page %d B (%d layers x %d B)",
          cfg.data().hostLayout().label(), cfg.data().pageBytes(), cfg.data().layers(), cfg.data().layerBytes()));
    }
    for (RankReport r : reports) {
      if (cfg.data().on()) {
        s.addData(r.num("data_bytes"), r.num("checked_pages"));
      }
      EngineStats e = EngineStats.of(r);
      ControllerCounts c = controller(r);
      if (!world || t.syncDomain(r.rank()).get(0) == r.rank()) {
        s.addDomain(e, c);
      }
      s.addRank(e, c, r.num("controller_collectives"));
      // Unbounded: every rank opened the one shared folder, which the in-JVM run opens once.
      if (cfg.storageBounded() || r.rank() == reports.get(0).rank()) {
        s.addStoragePagesAtStart(r.num("storage_pages_at_start"));
      }
    }
    if (cfg.storageBounded()) {
      s.storageCapacityPages(cfg.storagePages());
      for (RankReport r : reports) {
        s.addStorageEvictedPages(r.num("storage_evicted_pages"));
      }
    }
    return s;
  }

  private static final Pattern FAULTS = Pattern.compile(
      "faults injected: corrupt (\\d+), missing (\\d+), slow (\\d+), abort (\\d+), backend_error (\\d+)"
          + "(?:, oversized (\\d+))?(?:, forged (\\d+))?");

  /**
   * Returns the world's {@code faults injected} line: each rank counted the faults it injected, the in-JVM run
   * counts them for every rank; null when no rank injected any.
   */
  public static String faults(List<RankReport> reports) {
    long[] sum = new long[7];
    boolean[] shown = new boolean[7];
    boolean any = false;
    for (RankReport r : reports) {
      String line = r.text("faults");
      if (line == null) {
        continue;
      }
      Matcher m = FAULTS.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("rank " + r.rank() + " reports faults as '" + line + "'");
      }
      any = true;
      for (int i = 0; i < 7; i++) {
        if (m.group(i + 1) != null) {
          sum[i] += Long.parseLong(m.group(i + 1));
          shown[i] = true;
        }
      }
    }
    return any ? String.format(Locale.ROOT, "faults injected: corrupt %d, missing %d, slow %d, abort %d, backend_error %d",
        sum[0], sum[1], sum[2], sum[3], sum[4]) + (shown[5] ? ", oversized " + sum[5] : "")
        + (shown[6] ? ", forged " + sum[6] : "") : null;
  }

  private static ControllerCounts controller(RankReport r) {
    return new ControllerCounts(r.num("device_to_host_copies"), r.num("device_to_host_pages"),
        r.num("host_to_device_copies"), r.num("host_to_device_pages"), r.num("storage_read_pages"),
        r.num("storage_write_pages"), r.num("storage_read_failures"), r.num("storage_corrupt_pages"),
        r.num("storage_forged_pages"), r.num("prefetches_issued"), r.num("prefetches_revoked"),
        r.num("prefetches_terminated"), r.num("prefetches_completed"), r.num("prefetches_aborted"),
        0, 0); // parked hits are not in a rank's report (buffer-only host memory runs in one JVM)
  }
}
