package dev.hicachesync.cli;

import static dev.hicachesync.cli.CheckCommandTest.check;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --simulate N}: TLC's random simulation of an ad-hoc model on the real specification. A bug
 * version is found, the seed replays the same counterexample, and a run that finds nothing says it proves
 * nothing.
 */
class SimulationCheckTest {

  private static final String NOT_A_PROOF = "this is not a proof";

  /** The counterexample part of the output (from its header on). */
  private static String counterexample(String out) {
    int at = out.indexOf("== adhoc_");
    return at < 0 ? "(no counterexample)" : out.substring(at);
  }

  private static String tlcLog(String out) throws IOException {
    int at = out.indexOf("(TLC output: ");
    return Files.readString(Path.of(out.substring(at + 13, out.indexOf(')', at))));
  }

  @Test
  void simulationFindsB1AndTheSeedReplaysIt() throws IOException {
    // pre20460 reduces over attn_tp only: at CP 2 the CP ranks' acks and trees diverge (B1).
    String[] args = {"--cp", "2", "--version", "pre20460", "--simulate", "30", "--depth", "100", "--seed", "7"};
    CheckCommandTest.Outcome first = check(args);
    assertEquals(1, first.code(), first.out() + first.err());
    assertTrue(first.out().lines().anyMatch(l -> l.startsWith("safety ") && l.matches(".* violates [A-Za-z]+")),
        first.out());
    assertTrue(first.out().contains("simulation: a violation found in random behaviours (seed 7 replays it)"), first.out());
    assertTrue(first.out().contains("safety simulated: TLC -simulate num=30 -depth 100 -seed 7 on Spec"), first.out());
    // TLC itself ran its simulation mode (not an exhaustive search that would find the bug too).
    assertTrue(tlcLog(first.out()).contains("Running Random Simulation with seed 7"), first.out());

    CheckCommandTest.Outcome again = check(args);
    assertEquals(counterexample(first.out()), counterexample(again.out()), "the same seed, the same behaviour");
  }

  @Test
  void findingNothingSaysItIsNotAProof() {
    CheckCommandTest.Outcome o = check("--cp", "2", "--version", "merged", "--storage", "off", "--simulate", "3",
        "--depth", "40");
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().skip(2).findFirst().orElse("").endsWith("no violation found"), o.out());
    assertTrue(o.out().contains("no violation found (simulation: not a proof)"), o.out());
    assertTrue(o.out().contains("simulation: no violation in 3 random behaviours of at most 40 steps (seed 1): "
        + NOT_A_PROOF), o.out());
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("liveness ")
        && l.endsWith("no violation found (simulation: not a proof)")), o.out());
    assertTrue(o.out().contains("liveness simulated the same way"), o.out());
  }

  /**
   * The liveness part of a simulated model is simulated too: TLC checks the temporal properties on each
   * behaviour under the spec's fairness. A stand-in model whose invariant holds: without fairness a behaviour
   * may stop before its one step (the property fails), with weak fairness it may not (nothing found).
   */
  @Test
  void aSimulationChecksLivenessOnItsBehaviours(@TempDir Path dir) throws IOException {
    String spec = Files.readString(TestSpecs.dir().resolve("MCHiCacheSync.tla"));
    String template = Files.readString(TestSpecs.dir().resolve("adhoc.cfg.template"));
    Path unfair = Files.createDirectories(dir.resolve("unfair"));
    Files.writeString(unfair.resolve("MCHiCacheSync.tla"), spec.replace("====", "Inserted == <>done\n===="));
    Files.writeString(unfair.resolve("adhoc.cfg.template"), template + "PROPERTY Inserted\n");
    Path fair = Files.createDirectories(dir.resolve("fair"));
    Files.writeString(fair.resolve("MCHiCacheSync.tla"), spec.replace("====",
        "Inserted == <>done\nFairSpec == Spec /\\ WF_vars(Insert)\n===="));
    Files.writeString(fair.resolve("adhoc.cfg.template"),
        template.replace("SPECIFICATION Spec", "SPECIFICATION FairSpec") + "PROPERTY Inserted\n");

    CheckCommandTest.Outcome violated = check(in(unfair, "--cp", "2", "--version", "merged", "--simulate", "20",
        "--depth", "5"));
    assertEquals(1, violated.code(), violated.out() + violated.err());
    assertTrue(violated.out().lines().anyMatch(l -> l.startsWith("safety ")
        && l.endsWith("no violation found (simulation: not a proof)")), violated.out());
    assertTrue(violated.out().lines().anyMatch(l -> l.startsWith("liveness ") && l.endsWith("violates Inserted")),
        violated.out());
    assertTrue(violated.out().contains("simulation: a violation found in random behaviours"), violated.out());

    CheckCommandTest.Outcome sampled = check(in(fair, "--cp", "2", "--version", "merged", "--simulate", "20",
        "--depth", "5"));
    assertEquals(0, sampled.code(), sampled.out() + sampled.err());
    assertTrue(sampled.out().lines().anyMatch(l -> l.startsWith("liveness ")
        && l.endsWith("no violation found (simulation: not a proof)")), sampled.out());
  }

  /**
   * PP 2 x CP 2 merged with storage: safety is searched exhaustively on ReducedSpec; liveness, which needs every
   * state of Spec, is simulated unless --exhaustive, and the output says so.
   */
  @Test
  void aReducedModelsLivenessIsSimulatedAndSaysSo() {
    CheckCommandTest.Outcome o = check("--pp", "2", "--cp", "2", "--version", "merged", "--time-limit", "120");
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("safety ") && l.endsWith("holds (exhaustive)")), o.out());
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("liveness ")
        && l.endsWith("no violation found (simulation: not a proof)")), o.out());
    assertTrue(o.out().contains("safety exhaustive: ReducedSpec with VIEW LiveSymmetryView; liveness simulated: TLC"
        + " -simulate num=100 -depth 500 -seed 1 on Spec"), o.out());
    assertTrue(o.out().contains("simulation: no violation in 100 random behaviours"), o.out());
    assertTrue(o.err().contains("its liveness (every state of Spec) would not finish in about a minute"), o.err());
  }

  /**
   * Version unified at 4 ranks: safety is searched exhaustively under the rank-symmetry view; liveness, which
   * needs every state of Spec without a view, is simulated unless --exhaustive, and the output says so.
   */
  @Test
  void unifiedAtFourRanksHoldsExhaustivelyUnderItsViewAndSimulatesLiveness() {
    CheckCommandTest.Outcome o = check("--cp", "2", "--tp", "2", "--storage", "off", "--time-limit", "120");
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("safety ") && l.endsWith("holds (exhaustive)")), o.out());
    assertTrue(o.out().contains("safety exhaustive: Spec with VIEW RankSymmetryView; liveness simulated"), o.out());
    assertTrue(o.err().contains("HiCacheUnified with 4 ranks is searched with VIEW RankSymmetryView for safety;"
        + " its liveness (every state of Spec) would not finish in about a minute"), o.err());
  }

  private static String[] in(Path models, String... args) {
    List<String> argv = new ArrayList<>(List.of(args));
    argv.addAll(List.of("--models-dir", models.toString(), "--spec-dir", models.toString()));
    return argv.toArray(String[]::new);
  }

  @Test
  void aSimulationCutByTheTimeLimitDoesNotClaimItsBehaviours() {
    CheckCommandTest.Outcome o = check("--cp", "2", "--version", "merged", "--simulate", "100000000", "--depth", "100",
        "--time-limit", "3");
    assertEquals(3, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("cut by the time limit"), o.out());
    assertTrue(o.out().contains("simulation: stopped before 100000000 random behaviours"), o.out());
    assertTrue(!o.out().contains("simulation: no violation in"), o.out());
  }

  @Test
  void simulationOptionsAreCheckedBeforeTlcRuns() {
    CheckCommandTest.Outcome catalogue = check("--model", "b1_fixed", "--simulate", "5");
    assertEquals(2, catalogue.code());
    assertTrue(catalogue.err().contains("--simulate checks an ad-hoc model"), catalogue.err());
    CheckCommandTest.Outcome depth = check("--cp", "2", "--depth", "10");
    assertEquals(2, depth.code());
    assertTrue(depth.err().contains("--depth and --seed qualify --simulate N"), depth.err());
    CheckCommandTest.Outcome both = check("--cp", "2", "--simulate", "5", "--distributed", "2");
    assertEquals(2, both.code());
    assertEquals(1, both.err().lines().count(), both.err());
    CheckCommandTest.Outcome zero = check("--cp", "2", "--simulate", "0");
    assertEquals(2, zero.code());
    CheckCommandTest.Outcome requests = check("--cp", "2", "--requests", "4");
    assertEquals(2, requests.code());
    assertTrue(requests.err().contains("--requests must be 1 to 3"), requests.err());
  }

  @Test
  void largerThanTheExhaustiveSizeIsSimulatedAndSaysSo() {
    // Version unified at 5 ranks is beyond what HiCacheUnified searches exhaustively in about a minute.
    CheckCommandTest.Outcome fallback = check("--cp", "5", "--storage", "off", "--time-limit", "120");
    assertTrue(fallback.err().contains("5 ranks is more than HiCacheUnified is searched exhaustively in about a minute"),
        fallback.err());
    assertTrue(fallback.err().contains("which is no proof; --exhaustive searches every state"), fallback.err());
    assertTrue(fallback.out().contains(NOT_A_PROOF) || fallback.code() == 1, fallback.out());
  }
}
