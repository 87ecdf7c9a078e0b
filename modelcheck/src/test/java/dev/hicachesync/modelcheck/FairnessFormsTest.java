package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * HiCacheSync's fairness is written on values (spec/HiCacheSync.tla, "Fairness"; docs/explanation/spec-design.md,
 * "Fairness on values"): {@code SomeCollectiveReady} and {@code BackgroundReady} stand for TLC's
 * {@code ENABLED <<A>>_vars}, {@code CollectiveStep} and {@code BackgroundStep} for {@code A} on
 * the steps of {@code Next}. The spec argues that each is exact; these cases check it with TLC.
 *
 * <p>{@link #theReadyAndStepPredicatesAreTlcsOwn}: on models that between them take every kind of
 * step (every environment action and knob, the prefetch thread posting with and without an S7
 * group, prefetch and async completions, two-stage sync points), the invariant
 * {@code ReadyIsEnabled} (each ready predicate equals TLC's ENABLED) and the action property
 * {@code StepIsAction} (each step predicate equals its action) hold on the whole state space.
 *
 * <p>{@link #theSpecHasTheVerdictOfTlcsWfAndSf}: the spec's fairness and TLC's WF and SF give the
 * same verdict, on the catalogue's liveness violations and on weaker specifications under which
 * properties fail.
 */
// Cases two at a time (junit-platform.properties): each is a TLC run of its own, in a folder of its own.
@Execution(ExecutionMode.CONCURRENT)
class FairnessFormsTest {

  private static final String MODULE = "FairnessFormsSync";

  static Stream<Arguments> agreementModels() {
    return LongTier.sample(Stream.of(
        Arguments.of("MCHiCacheSync_post20460_cp2_live.cfg", ""),      // storage, prefetch, S7 groups
        Arguments.of("MCHiCacheSync_post20460_cp2_live.cfg", "CP = 1"), // one rank: S7 has no group
        Arguments.of("MCHiCacheSync_merged_cp2tp2_live.cfg", ""),       // two-stage sync points
        Arguments.of("MCHiCacheSync_merged_cp2_live.cfg", ""),
        Arguments.of("MCHiCacheSync_pipelined_cp2_async_live.cfg", ""), // async channel, handle
        Arguments.of("MCHiCacheSync_knob_async_rank_off.cfg", ""),
        Arguments.of("MCHiCacheSync_knob_pf_thread_dies.cfg", ""),
        Arguments.of("MCHiCacheSync_b10_batch_full_exit.cfg", ""),      // batch_full
        Arguments.of("MCHiCacheSync_abort_cp2.cfg", ""),                // abort, policy timeout
        Arguments.of("MCHiCacheSync_abort_running_load_back.cfg", ""),
        Arguments.of("MCHiCacheSync_wait_timeout_local_clock.cfg", ""), // WTO
        Arguments.of("MCHiCacheSync_knob_local_clock.cfg", ""),
        Arguments.of("MCHiCacheSync_knob_local_order.cfg", ""),
        Arguments.of("MCHiCacheSync_knob_shared_group.cfg", ""),
        Arguments.of("MCHiCacheSync_b14_sidecar_min_kv_only.cfg", ""),  // sidecar pages
        Arguments.of("MCHiCacheSync_knob_local_extra_pools.cfg", "")));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("agreementModels")
  void theReadyAndStepPredicatesAreTlcsOwn(String modelCfg, String constant) throws Exception {
    // No deadlock check and none of the model's invariants: the whole state space, even where the
    // model's own checks stop TLC early.
    String checks = "SPECIFICATION Spec\nINVARIANT ReadyIsEnabled\nPROPERTY StepIsAction\nCHECK_DEADLOCK FALSE\n";
    assertEquals(0, exitCode(modelCfg, constant, checks, "agree"),
        "a ready or step predicate differs from TLC's ENABLED or action (see the TLC log)");
  }

  static Stream<Arguments> verdictCases() {
    String pfDies = "MCHiCacheSync_knob_pf_thread_dies.cfg";
    String asyncOff = "MCHiCacheSync_knob_async_rank_off.cfg";
    String asyncLive = "MCHiCacheSync_pipelined_cp2_async_live.cfg";
    String live = "MCHiCacheSync_post20460_cp2_live.cfg";
    return LongTier.sample(Stream.of(
        // the catalogue's liveness violations and a model that holds (Spec: the spec's fairness)
        Arguments.of(pfDies, "Spec", "SpecAsWritten", "PrefetchThreadNeverStuck", 13),
        Arguments.of(asyncOff, "Spec", "SpecAsWritten", "AsyncNeverStuck", 13),
        Arguments.of(pfDies, "Spec", "SpecAsWritten", "PrefetchTerminates", 0),
        Arguments.of(live, "Spec", "SpecAsWritten", "RequestsProgress", 0),
        Arguments.of(asyncLive, "Spec", "SpecAsWritten", "SchedulerNeverStuck", 0),
        // one condition only: the other's absence makes properties fail
        Arguments.of(asyncLive, "SpecCollectivesOnlyOnValues", "SpecCollectivesOnlyAsWritten", "AcksConsumed", 13),
        Arguments.of(asyncLive, "SpecCollectivesOnlyOnValues", "SpecCollectivesOnlyAsWritten", "RequestsProgress", 13),
        Arguments.of(asyncLive, "SpecCollectivesOnlyOnValues", "SpecCollectivesOnlyAsWritten", "SchedulerNeverStuck", 0),
        Arguments.of(asyncLive, "SpecBackgroundOnlyOnValues", "SpecBackgroundOnlyAsWritten", "SchedulerNeverStuck", 13),
        Arguments.of(asyncLive, "SpecBackgroundOnlyOnValues", "SpecBackgroundOnlyAsWritten", "PrefetchTerminates", 0)));
  }

  @ParameterizedTest(name = "{1} on {0}: {3}")
  @MethodSource("verdictCases")
  void theSpecHasTheVerdictOfTlcsWfAndSf(String modelCfg, String onValues, String asWritten, String property,
      int exit) throws Exception {
    assertEquals(exit, exitCode(modelCfg, "", "SPECIFICATION " + asWritten + "\nPROPERTY " + property + "\n",
        asWritten + "-" + property), "TLC's WF and SF (the case itself is off)");
    assertEquals(exit, exitCode(modelCfg, "", "SPECIFICATION " + onValues + "\nPROPERTY " + property + "\n",
        onValues + "-" + property), "the fairness on values");
  }

  /** TLC's exit code for the model's constants (one of them replaced) and {@code checks}. */
  private static int exitCode(String modelCfg, String constant, String checks, String label) throws Exception {
    return ModelVariants.exitCode("fairness-forms", "modelcheck/src/test/resources/liveness", MODULE, modelCfg,
        constant, checks, label);
  }
}
