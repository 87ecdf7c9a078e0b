package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pieces of an ad-hoc check: module choice, the two cfgs, and the verdict the parts add up to. */
class AdhocPartsTest {

  private static TlcResult result(Verdict v) {
    return new TlcResult(0, v, 10, 20, 3, 1.0, Optional.empty(), "", null, List.of());
  }

  private static AdhocPart safety(Verdict v) {
    return AdhocPart.ran(AdhocPart.Part.SAFETY, List.of("TypeOK", "deadlock"), 2, result(v));
  }

  private static AdhocPart liveness(Verdict v) {
    return AdhocPart.ran(AdhocPart.Part.LIVENESS, List.of("AcksConsumed"), 1, result(v));
  }

  @Test
  void holdsOnlyWhenEveryPartFinished() {
    assertEquals(Verdict.HOLDS, new AdhocResult(List.of(safety(Verdict.HOLDS), liveness(Verdict.HOLDS))).verdict());
    assertEquals(Verdict.TIMEOUT, new AdhocResult(List.of(safety(Verdict.HOLDS), liveness(Verdict.TIMEOUT))).verdict());
    assertEquals(Verdict.TIMEOUT, new AdhocResult(List.of(safety(Verdict.TIMEOUT),
        AdhocPart.notRun(AdhocPart.Part.LIVENESS, List.of("AcksConsumed"), "safety did not finish"))).verdict());
    assertEquals(Verdict.HOLDS, new AdhocResult(List.of(safety(Verdict.HOLDS),
        AdhocPart.notRun(AdhocPart.Part.LIVENESS, List.of(), "the template has no temporal properties"))).verdict());
    assertEquals(Verdict.violates("AcksConsumed"),
        new AdhocResult(List.of(safety(Verdict.HOLDS), liveness(Verdict.violates("AcksConsumed")))).verdict());
    assertEquals(Verdict.ERROR, new AdhocResult(List.of(safety(Verdict.HOLDS), liveness(Verdict.ERROR))).verdict());
    assertEquals(AdhocPart.Status.CUT, liveness(Verdict.TIMEOUT).status());
    assertEquals(AdhocPart.Status.VIOLATED, safety(Verdict.DEADLOCK).status());
  }

  @Test
  void aReducedModelsLivenessIsSearchedAsTheCallerSays() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    TlcSearch.Simulation sampled = new TlcSearch.Simulation(100, 500, 1);
    assertEquals(sampled, new ModelChecker(TestSpecs.workspace(), runner, 1, null, List.of(), TlcSearch.EXHAUSTIVE,
        sampled).livenessSearch());
    assertEquals(TlcSearch.EXHAUSTIVE, new ModelChecker(TestSpecs.workspace(), runner, 1, null, List.of(),
        TlcSearch.EXHAUSTIVE).livenessSearch(), "--exhaustive: every state");
    assertTrue(AdhocModel.of(1, 2, 1, 2, "merged", null, null).reduced(), "PP 2 x CP 2 with storage is reduced");
    assertFalse(AdhocModel.of(1, 2, 1, 2, "merged", null, "off").reduced());
  }

  @Test
  void moduleFollowsTheTopologyWithItsDefaultPolicy() throws Exception {
    AdhocModel pp = AdhocModel.of(1, 2, 1, 2, "merged", null, null);
    assertEquals(AdhocModule.PIPELINE, pp.module());
    assertEquals("timeout", pp.policy());
    assertTrue(pp.storage());
    AdhocModel dp = AdhocModel.of(2, 1, 1, 1, "pre20460", null, "off");
    assertEquals(AdhocModule.REPLICAS, dp.module());
    assertEquals("wait_complete", dp.policy());
    AdhocModel one = AdhocModel.of(1, 2, 2, 1, "pipelined", null, null);
    assertEquals(AdhocModule.SYNC, one.module());
    assertEquals("best_effort", one.policy());
    assertEquals("MCHiCachePipeline", pp.module().mcModule());
  }

  @Test
  void safetyCfgDropsThePropertiesAndLivenessCfgTheInvariantsAndSymmetry() throws Exception {
    String cfg = "CONSTANTS\n  N = 2\nSPECIFICATION Spec\nSYMMETRY Perms\nINVARIANTS\n  TypeOK\n  TreeAgreement\n"
        + "PROPERTIES\n  AcksConsumed\n  RequestsProgress\n";
    CfgFile safety = CfgText.parse(CfgText.parse(cfg).without(CfgFile.Section.PROPERTIES).render());
    assertEquals(List.of("TypeOK", "TreeAgreement"), safety.invariants());
    assertFalse(safety.hasProperties());
    assertEquals("Perms", safety.symmetry(), "symmetry is sound for invariants");
    CfgFile liveness = CfgText.parse(
        CfgText.parse(cfg).without(CfgFile.Section.INVARIANTS, CfgFile.Section.SYMMETRY).render());
    assertEquals(List.of("AcksConsumed", "RequestsProgress"), liveness.properties());
    assertEquals(List.of(), liveness.invariants());
    assertNull(liveness.symmetry(), "TLC's liveness checking is unsound under symmetry");
    assertEquals(List.of("N = 2"), liveness.constants());
  }
}
