package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.testing.QtRuns;
import dev.hicachesync.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.core.stateful.Sequential;
import org.quicktheories.generators.Generate;

/**
 * Step-by-step stateful tests of the multi-rank simulator, with QuickTheories' {@code
 * org.quicktheories.core.stateful}: a generated {@link StatefulCase} is a configuration and a list of
 * {@link SimCommand}s (advance one lockstep point or a few steps, a request arrives, an abort, a rank is
 * late, its next I/O lands, its next read fails) run on a {@link SimulationRun}; after every command {@code
 * Sequential.modelCheck} compares each invariant's status, by name, with the model's ({@code holds}), and
 * the run itself compared every sync domain at every lockstep point it passed.
 *
 * <p>A failure shrinks the configuration and the command list and prints {@code VIOLATED <invariant>}, the
 * environment seed, the QuickTheories seed and the one-line replay string; paste it into {@link
 * #replay}'s callers below. Flags: QuickTheories' ({@link QtRuns}: {@code -Dhicache.qt.examples}, {@code
 * .seed}, {@code .shrinkCycles}), {@code -Dhicache.qt.commands} (longest command list, default 40), {@code
 * -Dhicache.qt.statefulExamples} (examples of the fixed-protocol property, default 5 × QuickTheories')
 * and {@code -Dhicache.qt.minimizeRuns} (runs of the greedy minimizer, default 60).
 */
class StatefulSimTest {
  /** Longest generated command list. */
  static final int MAX_COMMANDS = Integer.getInteger("hicache.qt.commands", 40);
  /**
   * Examples of the fixed-protocol property: a passing case costs milliseconds, so five times QuickTheories'
   * default ({@code -Dhicache.qt.statefulExamples} sets it). The must-catch tests use the default.
   */
  static final int FIXED_EXAMPLES = Integer.getInteger("hicache.qt.statefulExamples", 5 * QtRuns.EXAMPLES);

  /** The fixed protocol: any multi-rank topology, fixed versions, any policies; every invariant holds at every point. */
  @Test
  void fixedProtocolHoldsAtEveryLockstepPoint() {
    SimStats t = new SimStats();
    assertHolds(cases(SimGen.multiRankTopologies(), SimGen::fixedVersions, SimGen.anyPolicies(),
        SimGen.env(1, 12), Set.of()), t);
    // Not vacuous: requests were admitted and finished, pages went to the host and came back (L2 and L3
    // hits), prefetches ran. Small device pools (slack 1..12 pages) make the ranks evict.
    String coverage = String.format("steps %d, arrived %d, admitted %d, finished %d, aborted %d, host-hit tokens %d,"
            + " storage-hit tokens %d, device->host copies %d, prefetches issued %d / terminated %d, failed reads %d",
        t.steps(), t.arrived(), t.admitted(), t.finished(), t.aborted(), t.hostHitTokens(), t.storageHitTokens(),
        t.deviceToHostCopies(), t.prefetchesIssued(), t.prefetchesTerminated(), t.storageReadFailures());
    System.out.println("stateful coverage over " + FIXED_EXAMPLES + " examples: " + coverage);
    assertTrue(t.admitted() > 0 && t.finished() > 0 && t.deviceToHostCopies() > 0 && t.hostHitTokens() > 0
        && t.storageHitTokens() > 0 && t.prefetchesIssued() > 0, coverage);
  }

  /**
   * S5 inserts the pages every rank of the domain has read (the MIN of their counts), not this rank's own:
   * with storage on, prefetches that stop before they are read in full ({@code best_effort}, {@code
   * timeout}), and commands that make the ranks' reads land at different steps (a rank's next read lands, a
   * read fails, a rank is late), the ranks' counts differ when S5 decides. A rank-local count gives the ranks
   * different host trees (TreeAgreement); the run's checks catch it at the next lockstep point.
   */
  @Test
  void prefetchTerminationHoldsWhenTheRanksReadDifferently() {
    SimStats t = new SimStats();
    // One pipeline stage: S5 decides there; a later stage takes the decision it is sent.
    Gen<Topology> stage = Generate.pick(List.of(Topology.of(1, 2, 1, 1), Topology.of(1, 1, 2, 1),
        Topology.of(1, 2, 2, 1), Topology.of(2, 2, 1, 1)));
    assertHolds(QtRuns.qt().withExamples(FIXED_EXAMPLES), cases(stage, fixedNoLegacy(),
        SimGen.policies(List.of(PrefetchPolicy.BEST_EFFORT, PrefetchPolicy.TIMEOUT), List.of(WritePolicy.values()),
            List.of(StorageMode.FILE)), SimGen.env(2, 32), Set.of(), MAX_COMMANDS, unevenReads(), 4), t);
    String coverage = "prefetches issued " + t.prefetchesIssued() + ", terminated " + t.prefetchesTerminated()
        + ", storage-hit tokens " + t.storageHitTokens() + ", failed reads " + t.storageReadFailures();
    System.out.println("uneven-read coverage over " + FIXED_EXAMPLES + " examples: " + coverage);
    assertTrue(t.prefetchesTerminated() > 0 && t.storageHitTokens() > 0 && t.storageReadFailures() > 0, coverage);
  }

  /** Commands weighted toward arrivals and per-rank I/O: reads that land, fail or lag on one rank only. */
  private static Gen<SimCommand> unevenReads() {
    Gen<Integer> rank = integers().between(0, 7);
    return Generate.frequency(List.of(
        org.quicktheories.api.Pair.of(2, Generate.<SimCommand>constant(new SimCommand.Point())),
        org.quicktheories.api.Pair.of(4, integers().between(1, 4).map(n -> (SimCommand) new SimCommand.Steps(n))),
        org.quicktheories.api.Pair.of(5, integers().between(0, 1).zip(SimGen.turns(),
            (dp, turn) -> (SimCommand) new SimCommand.Arrive(dp, turn))),
        org.quicktheories.api.Pair.of(3, rank.zip(integers().between(1, 12), (r, d) -> (SimCommand) new SimCommand.Delay(r, d))),
        org.quicktheories.api.Pair.of(5, rank.map(r -> (SimCommand) new SimCommand.CompleteIo(r))),
        org.quicktheories.api.Pair.of(2, rank.map(r -> (SimCommand) new SimCommand.FailRead(r)))));
  }

  /** B1 (#20460): {@code pre20460} under NSA CP syncs nothing across CP ranks. */
  @Test
  void pre20460WithCpIsCaught() {
    assertFails(cases(Generate.pick(List.of(Topology.of(1, 2, 1, 1), Topology.of(2, 2, 1, 1))),
        t -> Generate.constant(ProtocolVersion.PRE20460), writeThrough(), SimGen.env(2, 32), Set.of()),
        "AckAgreement", "TreeAgreement", "PrefetchAgreement");
  }

  /** B3 (#10127): {@code writing_check} returns before S1's all-reduce when nothing is ready on this rank. */
  @Test
  void skippedIdleWriteCheckIsCaught() {
    assertFails(cases(SimGen.multiRankTopologies(), fixedNoLegacy(), writeThrough(), SimGen.env(2, 32),
        Set.of(Fault.SKIP_IDLE_WRITE_CHECK)), "CollectiveMatching");
  }

  /**
   * B5: {@code loading_check} pops this rank's own count of completed load acks. It needs an L2 hit (device
   * eviction, then a session's next turn) whose load completes at different ticks on two ranks, so the
   * command lists are three times longer: with 40, 2 of 20 examples reached it; with 120, 6 of 20.
   */
  @Test
  void unsyncedLoadingCheckIsCaught() {
    assertFails(cases(SimGen.multiRankTopologies(), fixedNoLegacy(), writeThrough(), SimGen.env(1, 8),
        Set.of(Fault.UNSYNCED_LOADING_CHECK), 3 * MAX_COMMANDS), "AckAgreement", "TreeAgreement");
  }

  /**
   * B10 (#30760): a rank-local early exit from admission, before the prefetch checks of the requests behind.
   * The ranks' next collectives may be on different groups (S5 on attn_cp, RECV on the scheduler's group),
   * which only the fabric's timeout ends: each such run costs ~1.5 s, so this one shrinks and minimizes less.
   */
  @Test
  void earlyAdmissionExitIsCaught() {
    assertFails(Math.min(QtRuns.SHRINK_CYCLES, 6), Math.min(MINIMIZE_RUNS, 12), cases(SimGen.multiRankTopologies(), fixedNoLegacy(),
        SimGen.policies(List.of(PrefetchPolicy.values()), List.of(WritePolicy.values()), List.of(StorageMode.MEMORY)),
        SimGen.env(2, 32), Set.of(Fault.EARLY_ADMISSION_EXIT)), "CollectiveMatching", "AllocAgreement",
        "TreeAgreement");
  }

  /**
   * Bounded liveness after any command list: with no more arrivals, within {@link Scenario#DRAIN_STEPS}
   * steps every prefetch has left {@code ongoing_prefetch} ({@code PrefetchTerminates}), every ack is
   * consumed ({@code AcksConsumed}), every request served ({@code RequestsProgress}), no page leaked.
   */
  @Test
  void fixedProtocolDrainsAfterAnyCommands() {
    QtRuns.qt().forAll(cases(SimGen.multiRankTopologies(), SimGen::fixedVersions, SimGen.anyPolicies(),
        SimGen.env(2, 64), Set.of())).checkAssert(c -> {
          String failure = run(c, null, Scenario.DRAIN_STEPS);
          if (failure != null) {
            fail(failure);
          }
        });
  }

  /**
   * The drain check can fail: a request whose prompt (8 system pages + 4) never fits a 4-page device pool
   * is never admitted, which the drain reports as {@code RequestsProgress} (the invariants all hold).
   */
  @Test
  void drainCheckSeesAStarvedRequest() {
    String failure = run(StatefulCase.decode("dp=1,cp=2,tp=1,pp=1;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH;st=OFF;"
        + "seed=1;rf=0;dev=4;host=8;run=1;sys=1x8;sess=1;faults=;pre=;env=;turns=|A0:0/0/56/1/1/0/-1,S1"), null,
        Scenario.DRAIN_STEPS);
    assertTrue(failure != null && failure.startsWith("VIOLATED RequestsProgress"), String.valueOf(failure));
  }

  private static final String B5_LINE = "dp=1,cp=1,tp=4,pp=1;v=merged;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;"
      + "seed=1099511627776;rf=20;dev=24;host=160;run=6;sys=3x8;sess=4;faults=UNSYNCED_LOADING_CHECK;pre=;env=;"
      + "turns=|A0:1/0/27/10/3/0/-1,S1,S2,S1,S1,A0:0/1/36/10/2/1/-1,A0:1/2/49/4/4/1/-1,S2,S1,"
      + "A0:1/0/33/20/1/1/-1,S1,S3";

  /** Pinned: B5's minimal command list as {@link #unsyncedLoadingCheckIsCaught} printed it (seed 20260520). */
  @Test
  void replayB5UnsyncedLoadingCheck() {
    violates("AckAgreement", B5_LINE);
  }

  /** Pinned: B1's minimal command list (pre20460 under CP: one request, a step, three points, a step). */
  @Test
  void replayB1Pre20460WithCp() {
    violates("AckAgreement", "dp=1,cp=2,tp=1,pp=1;v=pre20460;pf=TIMEOUT;w=WRITE_THROUGH;st=OFF;seed=70;rf=5;"
        + "dev=15;host=89;run=4;sys=1x3;sess=4;faults=;pre=;env=;turns=|A1:0/3/24/8/1/0/-1,S1,P,P,P,S1");
  }

  /** Pinned: B3's minimal command list (one request, three steps: an idle rank skips S1). */
  @Test
  void replayB3SkippedIdleWriteCheck() {
    violates("CollectiveMatching", "dp=2,cp=2,tp=1,pp=1;v=post20460;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;"
        + "seed=1099511627776;rf=20;dev=44;host=90;run=6;sys=1x8;sess=4;faults=SKIP_IDLE_WRITE_CHECK;pre=;env=;"
        + "turns=|A0:0/2/6/5/1/0/-1,S3");
  }

  /**
   * Pinned: B10's minimal command list (one request, five steps). One CP rank waits in S5 on {@code
   * attn_cp} while the other, having exited admission early, waits in RECV on the scheduler's group: only
   * the fabric's timeout (~1.5 s) ends it, and it comes back from {@code advance()} as CollectiveMatching.
   */
  @Test
  void replayB10EarlyAdmissionExit() {
    violates("CollectiveMatching", "dp=2,cp=2,tp=1,pp=1;v=post20460;pf=BEST_EFFORT;w=WRITE_THROUGH;st=MEMORY;"
        + "seed=1099511627776;rf=20;dev=50;host=160;run=6;sys=3x8;sess=4;faults=EARLY_ADMISSION_EXIT;pre=;env=;"
        + "turns=|A1:2/1/3/21/3/3/-1,S5");
  }

  /** The same B1 configuration and commands with the fixed protocol hold (the pinned failure is the bug's). */
  @Test
  void replayB1CommandsHoldWhenFixed() {
    holds("dp=1,cp=2,tp=1,pp=1;v=post20460;pf=TIMEOUT;w=WRITE_THROUGH;st=OFF;seed=70;rf=5;"
        + "dev=15;host=89;run=4;sys=1x3;sess=4;faults=;pre=;env=;turns=|A1:0/3/24/8/1/0/-1,S1,P,P,P,S1");
  }

  /** The replay line rebuilds the same case. */
  @Test
  void replayLineRoundTrips() {
    QtRuns.qt().forAll(cases(SimGen.multiRankTopologies(), SimGen::fixedVersions, SimGen.anyPolicies(),
        SimGen.env(2, 64), Set.of())).checkAssert(c -> {
          StatefulCase back = StatefulCase.decode(c.encode());
          org.junit.jupiter.api.Assertions.assertEquals(c.encode(), back.encode());
          org.junit.jupiter.api.Assertions.assertEquals(c, back);
        });
  }

  // ---------------------------------------------------------------- generators

  /** Cases over the given configuration generators; no script (requests arrive by command). */
  static Gen<StatefulCase> cases(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<SimGen.Policies> policies, Gen<SimGen.Env> env, Set<Fault> faults) {
    return cases(topologies, versions, policies, env, faults, MAX_COMMANDS);
  }

  /** As above, with command lists of at most {@code maxCommands}. */
  static Gen<StatefulCase> cases(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<SimGen.Policies> policies, Gen<SimGen.Env> env, Set<Fault> faults, int maxCommands) {
    return cases(topologies, versions, policies, env, faults, maxCommands, 4);
  }

  /** As above, with at most {@code maxSessions} chat sessions (fewer: more shared prefixes, more L2 hits). */
  static Gen<StatefulCase> cases(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<SimGen.Policies> policies, Gen<SimGen.Env> env, Set<Fault> faults, int maxCommands, int maxSessions) {
    return cases(topologies, versions, policies, env, faults, maxCommands, SimCommand.commands(), maxSessions);
  }

  /** As above, drawing the commands from {@code commands}. */
  static Gen<StatefulCase> cases(Gen<Topology> topologies, Function<Topology, Gen<ProtocolVersion>> versions,
      Gen<SimGen.Policies> policies, Gen<SimGen.Env> env, Set<Fault> faults, int maxCommands,
      Gen<SimCommand> commands, int maxSessions) {
    Gen<SimGen.Work> noScript = integers().between(1, 3).zip(integers().between(1, 8),
        integers().between(1, maxSessions), (sys, pages, sessions) -> new SimGen.Work(sys, pages, sessions, List.of()));
    Gen<Scenario> base = SimGen.scenarios(topologies, versions, policies, env, noScript, faults);
    return base.zip(lists().of(commands).ofSizeBetween(1, maxCommands), StatefulCase::of);
  }

  private static Function<Topology, Gen<ProtocolVersion>> fixedNoLegacy() {
    return t -> Generate.pick(List.of(ProtocolVersion.MERGED, ProtocolVersion.POST20460));
  }

  private static Gen<SimGen.Policies> writeThrough() {
    return SimGen.policies(List.of(PrefetchPolicy.values()),
        List.of(WritePolicy.WRITE_THROUGH, WritePolicy.WRITE_THROUGH_SELECTIVE),
        List.of(StorageMode.MEMORY, StorageMode.OFF));
  }

  // ---------------------------------------------------------------- the check

  /**
   * Runs {@code c}'s commands on a fresh {@link SimDriver} under {@code Sequential.modelCheck} and fails
   * with {@code VIOLATED <invariant>}, the seeds and the replay line at the first command after which an
   * invariant no longer holds. Always closes the run (no thread left behind).
   */
  static void check(StatefulCase c) {
    String failure = run(c, null);
    if (failure != null) {
      fail(failure);
    }
  }

  /**
   * Runs {@code c} and returns its failure report, or null when every invariant held after every command;
   * adds the run's statistics to {@code totals} (when given) either way.
   */
  static String run(StatefulCase c, SimStats totals) {
    return run(c, totals, 0);
  }

  /**
   * As {@link #run(StatefulCase, SimStats)}; then, when every invariant held and {@code drainSteps} > 0,
   * runs that many steps without arrivals and reports {@code VIOLATED <liveness property>} unless every
   * rank is quiet.
   */
  static String run(StatefulCase c, SimStats totals, long drainSteps) {
    Path dir = null;
    SimDriver[] sut = new SimDriver[1];
    try {
      if (c.base().storage() == StorageMode.FILE) {
        dir = Files.createTempDirectory("hicache-stateful-");
        c.base().preloadStorage(dir);
      }
      Path storage = dir;
      Sequential.modelCheck(SimModel.initial(), c.commands(), m -> sut[0] = new SimDriver(c, storage),
          SimDriver::observe);
      if (drainSteps > 0 && sut[0] != null) {
        SimulationRun run = sut[0].run();
        for (long i = 0; i < drainSteps && run.verdict().ok(); i++) {
          run.advanceStep();
        }
        if (!run.verdict().ok()) {
          return report(c, run.verdict(), "while draining");
        }
        List<String> errors = run.quiescence();
        if (!errors.isEmpty()) {
          return "VIOLATED " + SimOracle.livenessName(errors) + " within " + drainSteps
              + " steps without arrivals after the commands\n" + seeds(c) + "\n" + String.join("\n", errors);
        }
      }
      return null;
    } catch (AssertionError e) {
      SimulationRun.Verdict v = sut[0] == null ? null : sut[0].run().verdict();
      return report(c, v, e.getMessage());
    } catch (RuntimeException e) {
      return "VIOLATED crash: " + e + "\n" + seeds(c);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (sut[0] != null) {
        if (totals != null) {
          add(totals, sut[0].run().stats());
        }
        sut[0].close();
      }
      deleteTree(dir);
    }
  }

  /** Runs of a failing case the greedy minimizer may make ({@code -Dhicache.qt.minimizeRuns}). */
  static final int MINIMIZE_RUNS = Integer.getInteger("hicache.qt.minimizeRuns", 150);
  private static final java.util.regex.Pattern RAN = java.util.regex.Pattern.compile("Ran (\\d+) steps");

  /**
   * Returns a minimal command list for a failing case (QuickTheories' shrinking works on random draws and
   * leaves irrelevant commands behind): cuts the commands after the one that failed, then removes chunks
   * of commands down to single ones (1-minimal when the budget suffices) and shortens multi-step commands,
   * while the first violated invariant stays {@code invariant}, within {@code runs} runs. Deterministic:
   * the runs are.
   */
  static StatefulCase minimize(StatefulCase c, String invariant, int runs) {
    List<SimCommand> cmds = new ArrayList<>(c.commands());
    String first = run(c, null);
    if (first == null) {
      return c;
    }
    java.util.regex.Matcher m = RAN.matcher(first);
    if (m.find()) {
      cmds = new ArrayList<>(cmds.subList(0, Math.min(cmds.size(), Integer.parseInt(m.group(1)) + 1)));
    }
    // Remove chunks, halving their size when no chunk can go (a light ddmin), then single commands
    // and shorter multi-step commands.
    for (int chunk = Math.max(1, cmds.size() / 2); chunk >= 1 && runs > 0; ) {
      boolean removed = false;
      for (int i = cmds.size() - chunk; i >= 0 && runs > 0; i -= chunk) {
        List<SimCommand> fewer = new ArrayList<>(cmds);
        fewer.subList(i, i + chunk).clear();
        runs--;
        if (failsWith(new StatefulCase(c.base(), fewer), invariant)) {
          cmds = fewer;
          removed = true;
        }
      }
      if (!removed) {
        chunk /= 2;
      }
    }
    boolean progress = true;
    while (progress && runs > 0) {
      progress = false;
      for (int i = cmds.size() - 1; i >= 0 && runs > 0; i--) {
        if (!(cmds.get(i) instanceof SimCommand.Steps st) || st.steps() < 2) {
          continue;
        }
        List<SimCommand> shorter = new ArrayList<>(cmds);
        shorter.set(i, new SimCommand.Steps(st.steps() - 1));
        runs--;
        if (failsWith(new StatefulCase(c.base(), shorter), invariant)) {
          cmds = shorter;
          progress = true;
        }
      }
    }
    return new StatefulCase(c.base(), cmds);
  }

  private static boolean failsWith(StatefulCase c, String invariant) {
    String r = run(c, null);
    List<String> names = r == null ? List.of() : SimOracle.violated(r);
    return !names.isEmpty() && names.get(0).equals(invariant);
  }

  /** Runs the stateful property over {@code gen}; a failure is minimized and its minimal replay line added. */
  static void assertHolds(Gen<StatefulCase> gen, SimStats totals) {
    assertHolds(QtRuns.qt().withExamples(FIXED_EXAMPLES), gen, totals);
  }

  static void assertHolds(org.quicktheories.QuickTheory qt, Gen<StatefulCase> gen, SimStats totals) {
    try {
      qt.forAll(gen).checkAssert(c -> {
        String failure = run(c, totals);
        if (failure != null) {
          fail(failure);
        }
      });
    } catch (AssertionError e) {
      throw new AssertionError(withMinimal(String.valueOf(e.getMessage()), MINIMIZE_RUNS), e);
    }
  }

  /** Appends the minimal replay line of the report's (first, smallest) failing case. */
  private static String withMinimal(String report, int runs) {
    String line = report.lines().filter(l -> l.startsWith("replay: ")).findFirst().orElse(null);
    List<String> names = SimOracle.violated(report);
    if (line == null || names.isEmpty()) {
      return report;
    }
    StatefulCase min = minimize(StatefulCase.decode(line.substring("replay: ".length())), names.get(0), runs);
    return report + "\nminimal replay (" + names.get(0) + ", " + min.commands().size() + " commands): " + min.encode();
  }

  private static void add(SimStats into, SimStats s) {
    into.addRun(s);
  }

  private static String report(StatefulCase c, SimulationRun.Verdict v, String modelCheck) {
    StringBuilder sb = new StringBuilder("VIOLATED ");
    if (v != null && v.divergence() != null) {
      sb.append(v.divergence().invariant()).append(' ').append(v.divergence().invariants());
    } else {
      sb.append("crash: ").append(v == null ? "(no run)" : v.crash());
    }
    sb.append(" after ").append(v == null ? 0 : v.points()).append(" lockstep points\n").append(seeds(c))
        .append('\n').append(modelCheck);
    if (v != null && v.divergence() != null) {
      sb.append('\n').append(v.divergence().describe());
    }
    return sb.toString();
  }

  private static String seeds(StatefulCase c) {
    return "Failed on seed " + c.base().seed() + " (QuickTheories seed " + QtRuns.SEED + ")\nreplay: " + c.encode();
  }

  /**
   * Asserts that the stateful property fails on {@code gen} within the default examples, naming {@code
   * expected} first (or one of {@code alsoAccepted}: a shrunk schedule may surface the bug through a
   * consequence), and that the minimized command list still fails so. Prints the seeds and both lines.
   */
  static void assertFails(Gen<StatefulCase> gen, String expected, String... alsoAccepted) {
    assertFails(QtRuns.SHRINK_CYCLES, MINIMIZE_RUNS, gen, expected, alsoAccepted);
  }

  static void assertFails(int shrinkCycles, int minimizeRuns, Gen<StatefulCase> gen, String expected,
      String... alsoAccepted) {
    AssertionError e = assertThrows(AssertionError.class,
        () -> QtRuns.qt().withShrinkCycles(shrinkCycles).forAll(gen).checkAssert(StatefulSimTest::check),
        "the stateful property held for " + QtRuns.EXAMPLES + " examples: the bug went unnoticed");
    String report = withMinimal(String.valueOf(e.getMessage()), minimizeRuns);
    List<String> names = SimOracle.violated(report);
    System.out.println("Stateful property failed as expected (wanted " + expected + "), violated " + names + ":\n"
        + report.lines().filter(l -> l.startsWith("replay: ") || l.startsWith("Failed on seed")
            || l.startsWith("minimal replay")).reduce((a, b) -> a + "\n" + b).orElse("(no replay line)"));
    assertTrue(!names.isEmpty(), "the failure names no invariant:\n" + report);
    boolean ok = names.get(0).equals(expected) || List.of(alsoAccepted).contains(names.get(0));
    assertTrue(ok, "expected " + expected + ", the smallest counterexample violates " + names.get(0) + ":\n" + report);
    assertTrue(report.contains("minimal replay (" + names.get(0)), "no minimal replay line:\n" + report);
  }

  /** Replays a printed line and asserts it violates {@code invariant} first (a pinned counterexample). */
  static void violates(String invariant, String line) {
    AssertionError e = assertThrows(AssertionError.class, () -> check(StatefulCase.decode(line)));
    List<String> names = SimOracle.violated(e.getMessage());
    assertTrue(!names.isEmpty() && names.get(0).equals(invariant), "expected " + invariant + ", got:\n" + e.getMessage());
  }

  /** Replays a printed line and asserts every invariant holds after every command. */
  static void holds(String line) {
    check(StatefulCase.decode(line));
  }

  private static void deleteTree(Path dir) {
    if (dir == null) {
      return;
    }
    try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
      all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temporary folder is harmless
    }
  }
}
