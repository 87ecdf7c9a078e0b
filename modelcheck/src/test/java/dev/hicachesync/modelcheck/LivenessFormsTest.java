package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The liveness properties of HiCacheSync and HiCachePipeline were restated so that TLC checks
 * them without a tableau, all in one pass ({@code Busy ~> ~Busy} as {@code []<>~Busy}, and
 * {@code <>X} as {@code []<>X} with X's stability as an action property; docs/explanation/spec-design.md).
 * Each case checks one property in its old form ({@code <name>Old}, kept in the test modules
 * {@code LivenessForms*.tla}) and in its new form, on one model under one specification, and
 * wants both to give the expected TLC exit code (13: violated, 0: holds).
 *
 * <p>The specifications include weaker ones than the spec's own ({@code Spec}): without the
 * background's fairness, or without the collectives', some properties fail. A new form that
 * checks less than the old one (e.g. {@code <>~Busy} instead of {@code []<>~Busy}) holds where
 * the old form fails; one that checks more fails where the old one holds.
 */
// Cases two at a time (junit-platform.properties): each is a TLC run of its own, in a folder of its own.
@Execution(ExecutionMode.CONCURRENT)
class LivenessFormsTest {

  static Stream<Arguments> cases() {
    String sync = "LivenessFormsSync";
    String pipe = "LivenessFormsPipeline";
    String pfDies = "MCHiCacheSync_knob_pf_thread_dies.cfg";
    String asyncOff = "MCHiCacheSync_knob_async_rank_off.cfg";
    String asyncLive = "MCHiCacheSync_pipelined_cp2_async_live.cfg";
    String b6 = "MCHiCachePipeline_b6_fixed_live.cfg";
    return LongTier.sample(Stream.of(
        // the catalogue's liveness violations (Spec: the spec's own fairness)
        Arguments.of(sync, pfDies, "Spec", "PrefetchThreadNeverStuck", 13),
        Arguments.of(sync, asyncOff, "Spec", "AsyncNeverStuck", 13),
        // a dead prefetch thread leaves its peers in S7, but every prefetch still terminates
        Arguments.of(sync, pfDies, "Spec", "PrefetchTerminates", 0),
        // the background may stop for good: acks stay queued, requests unserved
        Arguments.of(sync, asyncLive, "SpecCollectivesOnly", "AcksConsumed", 13),
        Arguments.of(sync, asyncLive, "SpecCollectivesOnly", "RequestsProgress", 13),
        Arguments.of(sync, asyncLive, "SpecCollectivesOnly", "SchedulerNeverStuck", 0),
        // the background only weakly fair
        Arguments.of(sync, asyncLive, "SpecWeakBackground", "RequestsProgress", 13),
        Arguments.of(sync, asyncLive, "SpecWeakBackground", "PrefetchTerminates", 0),
        // a posted collective may never complete
        Arguments.of(sync, asyncLive, "SpecBackgroundOnly", "SchedulerNeverStuck", 13),
        Arguments.of(sync, asyncLive, "SpecBackgroundOnly", "PrefetchTerminates", 0),
        // the pipeline
        Arguments.of(pipe, b6, "SpecNoBackground", "AcksConsumed", 13),
        Arguments.of(pipe, b6, "SpecNoBackground", "PrefetchTerminates", 0),
        Arguments.of(pipe, b6, "Spec", "SyncThreadNeverStuck", 0)));
  }

  @ParameterizedTest(name = "{2} on {1}: {3}")
  @MethodSource("cases")
  void theNewFormHasTheOldFormsVerdict(String module, String modelCfg, String spec, String property, int exit)
      throws Exception {
    assertEquals(exit, exitCode(module, modelCfg, spec, property + "Old"),
        "the old form's verdict (the case itself is off)");
    assertEquals(exit, exitCode(module, modelCfg, spec, property), "the new form's verdict");
  }

  /** TLC's exit code for the model's constants with {@code spec} and the single {@code property}. */
  private static int exitCode(String module, String modelCfg, String spec, String property) throws Exception {
    Workspace ws = Workspace.fromRoot();
    Path work = ws.work().resolve("liveness-forms");
    Files.createDirectories(work);
    String name = module + "-" + modelCfg.replace(".cfg", "") + "-" + spec + "-" + property;
    // The model's constants only: its invariants are checked by the catalogue, and its own
    // specification and properties are replaced.
    String constants = CfgFile.read(ws.models().resolve(modelCfg))
        .without(CfgFile.Section.INVARIANTS, CfgFile.Section.PROPERTIES, CfgFile.Section.SPECIFICATION).render();
    Path cfg = work.resolve(name + ".cfg");
    Files.writeString(cfg, constants + "\nSPECIFICATION " + spec + "\nPROPERTY " + property + "\n");
    Path forms = TestSpecs.root().resolve("modelcheck/src/test/resources/liveness");
    TlcJob job = new TlcJob(name, module, cfg, List.of(ws.spec(), ws.models(), forms), work, 1,
        Duration.ofMinutes(5), List.of("-Xmx1g", "-XX:TieredStopAtLevel=1"));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE, TlcBatch.RESIDENT).run(job).exitCode();
  }
}
