package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pinned scenarios, one line each: paste the {@code replay:} line a failing property printed. Fixed-protocol
 * lines must keep holding (regressions); bug lines must keep failing with their invariant — they are the
 * shrunk counterexamples {@link BugsCaughtPropertyTest} found (seed 20260520), so each bug's minimal
 * schedule stays known and replays in milliseconds.
 */
class ReplayTest {

  /** A CP×TP = 4 domain with file storage preloaded unevenly per rank, the timeout policy and read failures. */
  @Test
  void cpTpWithUnevenStorageHolds() {
    holds("dp=1,cp=2,tp=2,pp=1;v=merged;pf=TIMEOUT;w=WRITE_THROUGH;st=FILE;seed=7;rf=5;dev=60;host=48;run=3;"
        + "sys=2x5;sess=3;faults=;pre=5.5.4.5;turns=0/0/40/9/3/0/-1,1/1/20/5/2/1/-1,0/2/50/12/4/0/2,"
        + "2/0/30/8/1/0/-1,1/1/45/20/6/3/-1,3/2/10/4/2/0/-1,0/0/56/24/5/1/-1");
  }

  /** post20460 with PP and storage: stage 0 decides and forwards. */
  @Test
  void postFixWithPipelineHolds() {
    holds("dp=1,cp=2,tp=1,pp=2;v=post20460;pf=WAIT_COMPLETE;w=WRITE_THROUGH_SELECTIVE;st=FILE;seed=11;rf=0;"
        + "dev=48;host=64;run=2;sys=1x6;sess=2;faults=;pre=6.6.6.6;turns=0/0/30/10/2/0/-1,0/1/30/10/2/0/-1,"
        + "2/0/12/6/3/1/-1,1/1/40/3/1/0/1,2/0/8/8/2/2/-1");
  }

  /** B1: pre20460 under CP, one request: the ranks pop different write-ack counts at S1. */
  @Test
  void b1Pre20460WithCp() {
    violates("AckAgreement", "dp=1,cp=2,tp=1,pp=1;v=pre20460;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;seed=0;rf=0;"
        + "dev=4;host=8;run=1;sys=1x1;sess=1;faults=;pre=;turns=0/0/1/1/1/0/-1");
  }

  /** B3: the idle rank skips S1; its next collective meets the other's S1. */
  @Test
  void b3SkippedIdleWriteCheck() {
    violates("CollectiveMatching", "dp=1,cp=1,tp=1,pp=2;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;seed=0;"
        + "rf=0;dev=4;host=8;run=1;sys=1x1;sess=1;faults=SKIP_IDLE_WRITE_CHECK;pre=;turns=0/0/1/1/1/0/-1");
  }

  /** B5: unsynchronized load-ack pops. */
  @Test
  void b5UnsyncedLoadingCheck() {
    violates("AckAgreement", "dp=2,cp=2,tp=1,pp=1;v=post20460;pf=BEST_EFFORT;w=WRITE_THROUGH_SELECTIVE;st=MEMORY;"
        + "seed=1099511627776;rf=0;dev=29;host=160;run=6;sys=3x8;sess=4;faults=UNSYNCED_LOADING_CHECK;pre=;"
        + "turns=3/3/56/24/6/3/3,0/3/56/3/6/1/-1,3/3/3/8/4/2/-1,2/1/56/24/1/3/3,0/1/56/24/6/3/3,"
        + "3/2/56/24/5/2/3,3/0/56/24/6/3/3,3/0/11/24/6/3/0,2/2/56/13/6/3/3,2/2/25/19/3/1/0,3/3/42/2/1/0/-1,"
        + "0/0/30/15/6/2/-1,0/1/9/8/1/2/-1");
  }

  /** B10: a rank-local early exit from admission; the stages admit differently (seen first as AllocAgreement). */
  @Test
  void b10EarlyAdmissionExit() {
    violates("AllocAgreement", "dp=1,cp=1,tp=1,pp=2;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;seed=0;"
        + "rf=0;dev=4;host=8;run=1;sys=1x1;sess=1;faults=EARLY_ADMISSION_EXIT;pre=;turns=0/0/1/1/1/0/-1");
  }

  /** B7: the unread tail goes back while the reader still writes it. */
  @Test
  void b7EarlyTailRelease() {
    violates("HostSlotSafety", "dp=1,cp=1,tp=1,pp=2;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH_SELECTIVE;st=FILE;"
        + "seed=764157111841;rf=5;dev=39;host=123;run=1;sys=3x4;sess=1;faults=EARLY_TAIL_RELEASE;pre=4.4;"
        + "turns=0/2/42/21/1/3/-1,2/0/34/5/1/2/-1,0/0/41/7/3/3/-1,1/2/18/7/1/0/-1,2/1/2/10/5/0/-1,"
        + "2/1/12/2/1/0/-1,0/3/52/4/1/2/0,1/1/27/22/1/3/-1,0/2/10/1/2/0/-1,3/0/2/9/2/1/-1,1/0/6/6/3/0/-1,"
        + "3/0/11/10/2/0/-1,2/3/17/12/2/1/-1");
  }

  /**
   * Found by {@code SimPropertyTest#fixedProtocolHoldsAndDrains} with {@code -Dhicache.qt.maxTurns=60}
   * (shrunk): the fixed protocol, two PP stages, small host pool — one request was never admitted
   * ({@code RequestsProgress}: "1 waiting and 0 running" after 200 drain steps). Cause (confirmed from the
   * final trees): a parent's write-through failed for lack of host slots while its smaller child's
   * succeeded; once the child was demoted to the host, the device-only parent over a host-only child could
   * be neither demoted nor deleted by {@code RadixTree.evictDevice}, pinning its pages and its ancestors'.
   * Fixed by {@code write_backup}'s backup invariant (parent before child) and by device eviction dropping
   * such a node with its unprotected host-only subtree (see {@code BackupInvariantTest}, {@code
   * RadixTreeTest#deviceOnlyNodeOverHostOnlyChildrenIsEvictedWithItsSubtree}).
   */
  @Test
  void knownRequestsProgressStarvation() {
    holds("dp=1,cp=1,tp=1,pp=2;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;seed=848478302;rf=0;dev=27;"
        + "host=28;run=1;sys=1x5;sess=2;faults=;turns=0/0/31/7/1/0/-1,0/0/19/9/1/0/-1,0/1/3/22/1/0/-1,"
        + "0/0/1/1/1/0/-1,0/0/22/1/1/0/-1,0/1/2/5/1/0/-1,0/1/1/4/1/0/-1,0/0/1/3/1/0/-1,0/0/24/2/1/0/-1,"
        + "0/0/11/11/1/0/-1,0/0/17/3/1/1/-1,0/0/1/12/1/0/-1,0/0/1/11/1/0/-1,0/0/1/1/1/0/-1,0/0/25/10/1/0/-1,"
        + "0/0/1/24/1/0/0,0/1/7/1/1/0/-1,0/0/1/1/1/0/-1,0/0/2/1/1/0/-1,0/0/1/23/1/0/-1,0/0/24/1/1/0/-1,"
        + "0/1/42/1/1/0/-1,0/1/7/1/1/0/-1,0/0/1/1/1/0/-1");
  }

  /**
   * The same starvation on a CP=4 domain, found with {@code -Dhicache.qt.seed=99 -Dhicache.qt.examples=200}
   * (default script length). It held with host=512, with {@code write_back}, with dev=40, or with one
   * rank: host pressure plus write-through plus device pressure (see {@link
   * #knownRequestsProgressStarvation} for the cause and the fix).
   */
  @Test
  void knownRequestsProgressStarvationCp4() {
    holds("dp=1,cp=4,tp=1,pp=1;v=merged;pf=WAIT_COMPLETE;w=WRITE_THROUGH_SELECTIVE;st=MEMORY;seed=204893978051;"
        + "rf=0;dev=18;host=11;run=2;sys=3x6;sess=2;faults=;pre=;env=;turns=3/3/18/15/2/0/-1,0/3/13/1/2/0/-1,"
        + "1/1/13/7/3/0/-1,1/3/51/4/1/0/-1,0/0/20/3/3/1/-1,3/3/6/23/2/0/-1,2/2/28/7/2/0/-1");
  }

  /** Runs {@code line} and asserts every invariant and bounded liveness check holds. */
  static void holds(String line) {
    SimOracle.assertHolds(Scenario.decode(line));
  }

  /** Runs {@code line} and asserts it violates {@code invariant} first. */
  static void violates(String invariant, String line) {
    AssertionError e = assertThrows(AssertionError.class, () -> SimOracle.assertHolds(Scenario.decode(line)));
    List<String> names = SimOracle.violated(e.getMessage());
    assertTrue(!names.isEmpty() && names.get(0).equals(invariant),
        "expected " + invariant + ", got:\n" + e.getMessage());
  }
}
