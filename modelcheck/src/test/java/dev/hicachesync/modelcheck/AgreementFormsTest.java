package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agreement invariants compare ranks in linear forms (spec/HiCacheSync.tla's {@code AgreeSettledAt}:
 * through the set of each rank's S7 count and value; spec/HiCacheUnified.tla's {@code AgreeAt}: every rank
 * with rank 0) where the plain statement compares every two ranks. These cases check with TLC that the
 * two forms are one predicate in every reachable state ({@code SettledFormsAgree}, {@code AgreeFormsAgree};
 * the modules are in src/test/resources/agreement), on models whose states include ones where the pairwise
 * form is false ({@link #thePairwiseFormFailsOnTheseModels}), so that both answers are compared.
 */
// Cases two at a time (junit-platform.properties): each is a TLC run of its own, in a folder of its own.
@Execution(ExecutionMode.CONCURRENT)
class AgreementFormsTest {

  private static final String SYNC = "AgreementFormsSync";
  private static final String UNIFIED = "AgreementFormsUnified";
  /** The whole state space: none of the model's own checks, which would stop TLC at their violation. */
  private static final String WHOLE_SPACE = "SPECIFICATION Spec\nCHECK_DEADLOCK FALSE\nINVARIANT ";

  /** The model's whole state space, or (where that is too large for a test) its first BFS levels. */
  private static final String WHOLE = "";
  private static final String SHALLOW = "CONSTRAINT Shallow\n";

  static Stream<Arguments> models() {
    return Stream.of(
        Arguments.of(SYNC, "MCHiCacheSync_knob_release_whole.cfg", "", "SettledFormsAgree", WHOLE),
        // pre20460 with CP 2 and storage: S7 unsynced across CP ranks, every difference counts
        Arguments.of(SYNC, "MCHiCacheSync_pre20460_cp2.cfg", "StorageOn = TRUE", "SettledFormsAgree", SHALLOW),
        Arguments.of(SYNC, "MCHiCacheSync_merged_cp2tp2.cfg", "", "SettledFormsAgree", WHOLE),
        Arguments.of(UNIFIED, "MCHiCacheUnified_unified_wait_timeout_local_clock.cfg", "", "AgreeFormsAgree", WHOLE),
        Arguments.of(UNIFIED, "MCHiCacheUnified_unified_buffer_stage_local.cfg", "", "AgreeFormsAgree", SHALLOW));
  }

  @ParameterizedTest(name = "{3} on {1} {2}")
  @MethodSource("models")
  void theLinearFormIsThePairwiseForm(String module, String modelCfg, String constant, String invariant,
      String bound) throws Exception {
    assertEquals(0, exitCode(module, modelCfg, constant, WHOLE_SPACE + invariant + "\n" + bound, invariant),
        "the linear and the pairwise form differ in a reachable state (see the TLC log)");
  }

  static Stream<Arguments> failing() {
    return Stream.of(
        Arguments.of(SYNC, "MCHiCacheSync_knob_release_whole.cfg", "", "PairwiseSettledQueues"),
        Arguments.of(SYNC, "MCHiCacheSync_pre20460_cp2.cfg", "StorageOn = TRUE", "PairwisePrefetchDecisions"),
        Arguments.of(UNIFIED, "MCHiCacheUnified_unified_wait_timeout_local_clock.cfg", "", "PairwiseTrees"),
        Arguments.of(UNIFIED, "MCHiCacheUnified_unified_buffer_stage_local.cfg", "", "PairwiseHostFree"));
  }

  @ParameterizedTest(name = "{3} on {1} {2}")
  @MethodSource("failing")
  void thePairwiseFormFailsOnTheseModels(String module, String modelCfg, String constant, String invariant)
      throws Exception {
    assertEquals(12, exitCode(module, modelCfg, constant, WHOLE_SPACE + invariant + "\n", invariant),
        "no reachable state where the pairwise form is false: the comparison above saw only TRUE");
  }

  /** TLC's exit code for the model's constants (one of them replaced) and {@code checks}. */
  private static int exitCode(String module, String modelCfg, String constant, String checks, String label)
      throws Exception {
    return ModelVariants.exitCode("agreement-forms", "modelcheck/src/test/resources/agreement", module, modelCfg,
        constant, checks, label);
  }
}
