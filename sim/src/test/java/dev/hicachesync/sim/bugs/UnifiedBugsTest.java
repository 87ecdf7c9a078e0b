package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bugs TLC found in version {@code unified} (docs/explanation/unified.md, {@code spec/HiCacheUnified.tla}), each
 * injected into the Java implementation: the simulator must catch it and name the invariant, and the fixed
 * twin (the same scenario with the fix) must run clean. CP 2 x TP 2, {@code timeout}, memory storage, seeds
 * pinned.
 */
class UnifiedBugsTest {

  private static SimResult run(long seed, long drain, Fault... faults) {
    return BugRuns.run(BugRuns.base(seed).version(ProtocolVersion.UNIFIED).prefetchPolicy(PrefetchPolicy.TIMEOUT)
        .drainSteps(drain).faults(faults.length == 0 ? EnumSet.noneOf(Fault.class) : EnumSet.of(faults[0], faults)));
  }

  private static void caught(SimResult r, Invariant... accepted) {
    assertNotNull(r.divergence(), "the bug went unnoticed");
    assertTrue(List.of(accepted).contains(r.divergence().invariant()), r.divergence()::describe);
  }

  private static void clean(SimResult r) {
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.quiescence().isEmpty(), () -> String.join("\n", r.quiescence()));
  }

  /** The protocol itself, with a drain: no divergence, every rank quiet, and L3 hits really happen. */
  @Test
  void unifiedRunsCleanAndHitsStorage() {
    SimResult r = run(7, 300);
    clean(r);
    assertTrue(r.stats().storageHitTokens() > 0 && r.stats().prefetchesTerminated() > 0, r.stats()::describe);
  }

  /**
   * #36425 with a rank-local terminate ({@code unified_s4_short_circuit_io_term}, deadlock in TLC): a read
   * fails on one rank, whose {@code is_terminated()} short-circuit skips S4 while its peers enter it; the
   * fabric names the mismatch instead of hanging.
   */
  @Test
  void localTerminateSkipsS4() {
    caught(run(7, 0, Fault.LOCAL_TERMINATE), Invariant.CollectiveMatching);
  }

  /**
   * PD decode before #29483 ({@code unified_pd_decode_load_back}, deadlock in TLC): a rank whose own load
   * event is done runs {@code loading_check}'s MIN alone. The fix (a pure poll) is the protocol itself.
   */
  @Test
  void pdDecodeReadinessBeforeTheMin() {
    caught(run(7, 0, Fault.PD_DECODE_LOAD_READINESS), Invariant.CollectiveMatching);
  }

  /**
   * #27221 ({@code unified_wait_timeout_local_clock}, TreeAgreement in TLC): the waiting timeout on each
   * rank's clock aborts a request on some ranks only; the first thing the simulator sees is either the
   * trees differing or the abort's barrier meeting a peer's S4 or RECV.
   */
  @Test
  void waitingTimeoutOnLocalClocks() {
    caught(run(7, 0, Fault.WAITING_TIMEOUT_LOCAL_CLOCK), Invariant.TreeAgreement, Invariant.CollectiveMatching,
        Invariant.AckAgreement, Invariant.PrefetchAgreement, Invariant.AllocAgreement);
  }

  /** #37143: the same timeout decided once (steps waited, shared by every rank): clean, and it aborts. */
  @Test
  void waitingTimeoutBroadcastIsClean() {
    SimResult r = run(7, 300, Fault.WAITING_TIMEOUT_BROADCAST);
    clean(r);
    assertTrue(r.stats().aborted() > 0, "the waiting timeout never fired: " + r.stats().describe());
  }

  /**
   * #38428 ({@code unified_b38428_backup_dies}, AcksConsumed in TLC): rank 0's backup thread dies at a
   * backend exception; nothing diverges (S123's MIN keeps the ranks consistent), but after a drain its
   * backups were never acked.
   */
  @Test
  void backupThreadDeathLeavesAcksUnconsumed() {
    SimResult r = run(7, 300, Fault.BACKUP_THREAD_DIES);
    assertNull(r.divergence(), () -> r.divergence().describe());
    assertTrue(r.quiescence().stream().anyMatch(q -> q.startsWith("rank 0: AcksConsumed")),
        () -> String.join("\n", r.quiescence()));
  }

  /** #38427: the same exception caught and the backup acked: every rank drains. */
  @Test
  void backupRaiseCaughtIsClean() {
    clean(run(7, 300, Fault.BACKUP_RAISE_ACKED));
  }

  /**
   * F6 ({@code unified_pf_thread_dies}, bug PFDIE): rank 0's first storage hit query raises and ends its prefetch
   * thread; its peers' S7 for that operation never completes, which the fabric reports by the collective's timeout.
   */
  @Test
  void aRaisingStorageQueryKillsThePrefetchThreadAndThePeersWaitInS7() {
    SimResult r = BugRuns.run(BugRuns.base(7).version(ProtocolVersion.UNIFIED).prefetchPolicy(PrefetchPolicy.TIMEOUT)
        .collectiveTimeout(java.time.Duration.ofSeconds(1)).faults(EnumSet.of(Fault.PF_RAISE_THREAD_DIES)));
    caught(r, Invariant.CollectiveMatching);
    assertTrue(r.divergence().describe().contains("at S7"), r.divergence()::describe);
  }

  /** The fix of F6: the same raise counts as 0 hit pages (knob pf_raise alone): every rank drains. */
  @Test
  void aRaisingStorageQueryCaughtCountsAsNoHitAndIsClean() {
    clean(run(7, 300, Fault.PF_RAISE));
  }

  /**
   * F1 (docs/explanation/findings/F1-attach-outcome-per-rank.md, {@code unified_attach_local_outcome}): a runtime attach fails on the odd ranks;
   * their S123 vectors keep 4 entries while the others send 8.
   */
  @Test
  void attachFailingOnSomeRanksChangesS123Length() {
    SimResult r = run(7, 0, Fault.ATTACH_FAILS_LOCALLY);
    caught(r, Invariant.CollectiveMatching);
    assertEquals(Fault.ATTACH_STEP, r.divergence().step(), r.divergence()::describe);
    assertTrue(r.divergence().describe().contains("S123 len 4") && r.divergence().describe().contains("S123 len 8"),
        r.divergence()::describe);
  }

  /** The fix of F1: the attach outcome agreed (MIN) before {@code enable_storage} flips: clean. */
  @Test
  void agreedAttachIsClean() {
    clean(run(7, 300, Fault.ATTACH_AGREED));
  }

  /**
   * The runtime attach that succeeds everywhere ({@code unified_attach_all_ok} holds in TLC): today's attach,
   * each rank keeping its own outcome, with every backend initialising. Read from the run's event log: every
   * rank's S123 has 4 entries before {@link Fault#ATTACH_STEP} and 8 from that step on, so the payload grows
   * on all ranks together; nothing diverges, the run drains quiet, and storage hits follow the attach.
   */
  @Test
  void attachSucceedingEverywhereGrowsS123OnAllRanksTogether(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("attach.log");
    SimResult r = BugRuns.run(BugRuns.base(7).version(ProtocolVersion.UNIFIED).prefetchPolicy(PrefetchPolicy.TIMEOUT)
        .drainSteps(300).faults(EnumSet.of(Fault.ATTACH_ALL_OK)).logFile(log));
    clean(r);
    assertTrue(r.stats().storageHitTokens() > 0, r.stats()::describe);
    Pattern line = Pattern.compile("^step=(\\d+) .* rank=(\\d+) S123 local=\\[([^\\]]*)\\]");
    Map<Integer, int[]> seen = new TreeMap<>(); // rank -> {S123 calls before the attach, from it on}
    for (String l : Files.readAllLines(log)) {
      Matcher m = line.matcher(l);
      if (!m.find()) {
        continue;
      }
      long step = Long.parseLong(m.group(1));
      int rank = Integer.parseInt(m.group(2));
      int len = m.group(3).split(",").length;
      boolean after = step >= Fault.ATTACH_STEP;
      assertEquals(after ? 8 : 4, len, "rank " + rank + " step " + step + ": " + l);
      seen.computeIfAbsent(rank, k -> new int[2])[after ? 1 : 0]++;
    }
    assertEquals(4, seen.size(), "every rank of CP 2 x TP 2 logs its S123: " + seen.keySet());
    for (Map.Entry<Integer, int[]> e : seen.entrySet()) {
      assertTrue(e.getValue()[0] > 0 && e.getValue()[1] > 0, "rank " + e.getKey() + " has S123 on both sides");
    }
  }

  /** A unified-only fault in another version is refused with one line. */
  @Test
  void unifiedFaultNeedsUnified() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> BugRuns.base(7).version(ProtocolVersion.MERGED).faults(EnumSet.of(Fault.LOCAL_TERMINATE)).build());
    assertTrue(e.getMessage().contains("version unified"), e.getMessage());
  }
}
