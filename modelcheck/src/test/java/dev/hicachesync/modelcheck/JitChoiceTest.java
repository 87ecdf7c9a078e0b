package dev.hicachesync.modelcheck;

import dev.hicachesync.topology.Topology;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The JIT choice of a catalogue model's TLC JVM follows its recorded size and kind. */
class JitChoiceTest {

  static ModelEntry model(String name, boolean liveness, String expected, Recorded recorded) {
    return new ModelEntry(name, "MCHiCacheSync", name + ".cfg", "ci", null, null, "merged",
        new Topology(1, 2, 1, 1), expected, liveness, recorded);
  }

  @Test
  void smallSafetyModelsGetC1UpToTheLimit() {
    long limit = JitChoice.SAFETY_C1_MAX_DISTINCT;
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("tiny", false, "holds", new Recorded(30, 1.0, 5))));
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("edge", false, "holds", new Recorded(limit, 9.0, 40))));
    assertEquals(List.of(), JitChoice.optionsFor(model("big", false, "holds", new Recorded(limit + 1, 30.0, 70))));
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("bug", false, "violates TreeAgreement", new Recorded(40, 2.0, 6))));
  }

  @Test
  void livenessModelsGetC1OnlyBelowTheirLowerLimit() {
    long limit = JitChoice.LIVENESS_C1_MAX_DISTINCT;
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("live", true, "holds", new Recorded(884, 25.0, 36))));
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("live4", true, "holds", new Recorded(9_382, 16.5, 107))),
        "post20460_cp2tp2_live measured faster under C1 once its properties shared one pass");
    assertEquals(List.of(JitChoice.C1_ONLY),
        JitChoice.optionsFor(model("edge", true, "holds", new Recorded(limit, 25.0, 36))));
    assertEquals(List.of(), JitChoice.optionsFor(model("unified", true, "holds", new Recorded(limit + 1, 79.2, 56))));
    assertEquals(List.of(), JitChoice.optionsFor(model("unified", true, "holds", new Recorded(12_593, 79.2, 56))),
        "the unified liveness models keep C2");
  }

  @Test
  void modelsWithMoreThanFourRanksKeepC2() {
    Recorded small = new Recorded(27_510, 484.4, 91);
    ModelEntry fourRanks = new ModelEntry("cp2tp2", "MCHiCacheSync", "cp2tp2.cfg", "deep", null, null, "merged",
        new Topology(1, 2, 2, 1), "holds", false, small);
    ModelEntry eightRanks = new ModelEntry("cp4tp2", "MCHiCacheSync", "cp4tp2.cfg", "deep", null, null, "merged",
        new Topology(1, 4, 2, 1), "holds", false, small);
    assertEquals(List.of(JitChoice.C1_ONLY), JitChoice.optionsFor(fourRanks));
    assertEquals(List.of(), JitChoice.optionsFor(eightRanks), "8 ranks: C1 measured slower (merged_cp4tp2)");
  }

  @Test
  void unknownSizeKeepsTheJvmDefault() {
    assertEquals(List.of(), JitChoice.optionsFor(model("new", false, "holds", null)));
    assertEquals(List.of(), JitChoice.optionsFor(model("zero", false, "holds", new Recorded(0, 0, 0))));
  }

  @Test
  void theCheckerPutsTheChoiceBeforeTheCallersOptions() {
    ModelChecker checker = new ModelChecker(TestSpecs.workspace(), null, 2, null, List.of("-Xmx2g"));
    TlcJob small = checker.jobFor(model("small", false, "holds", new Recorded(1_000, 3.0, 20)));
    assertEquals(List.of(JitChoice.C1_ONLY, "-Xmx2g"), small.jvmOptions());
    assertEquals(2, small.workers());
    TlcJob live = checker.jobFor(model("unified", true, "holds", new Recorded(12_593, 79.2, 56)));
    assertEquals(List.of("-Xmx2g"), live.jvmOptions());
    assertEquals(1, live.workers(), "liveness runs with one worker");
  }
}
