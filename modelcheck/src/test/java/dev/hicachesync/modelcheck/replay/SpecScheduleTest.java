package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Captured;
import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceParser;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The translator's two readers: the schedule out of a TLC trace, the constants out of a model. */
class SpecScheduleTest {

  private static final Path MODELS = TestSpecs.root().resolve("modelcheck/models");
  private static final Path SPEC = TestSpecs.root().resolve("spec");

  @Test
  void b1ScheduleCompletesRankZerosWriteOnlyAndObservesEveryReceive() {
    SpecSchedule s = SpecSchedule.of(b1(), 2);
    // Both ranks write request 1's node through in step 1; only rank 0's copy completes (state 4), seen in step 2.
    assertEquals(List.of(new SpecSchedule.Copy(1, 2)), s.writes(0));
    assertEquals(List.of(new SpecSchedule.Copy(1, -1)), s.writes(1));
    assertEquals(List.of(), s.loads(0));
    // State 5's RECV is posted again with the payload it had, so coll does not change in that step: only the
    // action's name says that the receive completed. All three receives count.
    assertEquals(2, s.lastStep());
    assertEquals(3, s.observed().size());
    SpecSchedule.Observed rank1 = s.observed().get(2).get(1);
    assertEquals(List.of(0L, 1L, 1L, 0L), List.of(rank1.devFree(), rank1.hostFree(), rank1.writeAcks(), rank1.loadAcks()));
    assertEquals(Set.of(), s.undriven());
    assertEquals(List.of("schedule rank 0 write copies: [issued in step 1, done from step 2]",
        "schedule rank 1 write copies: [issued in step 1, not done in the trace]"), JavaReplay.schedule(s));
  }

  /**
   * B1's captured counterexample with its actions as HiCacheSync.tla names them now: the capture predates the
   * one-action-per-step spec, whose TLC prints the same states with each completion named after its step
   * (states 2, 3 and 5 complete RECV: SchedRecvRequests).
   */
  private static ErrorTrace b1() {
    ErrorTrace captured = TraceParser.parse(Captured.messages("pre20460_cp2")).orElseThrow();
    return new ErrorTrace(captured.states().stream()
        .map(t -> t.action().equals("SomeCollectiveCompletes")
            ? new TraceState(t.number(), "SchedRecvRequests", t.location(), t.variables()) : t)
        .toList(), captured.ending(), captured.loopTarget());
  }

  @Test
  void constantsComeFromTheCfgAndTheMcModule() throws Exception {
    ModelConstants b1 = ModelConstants.read(MODELS.resolve("MCHiCacheSync_pre20460_cp2.cfg"), MODELS.resolve("MCHiCacheSync.tla"), SPEC);
    assertEquals(List.of(1, 2), b1.requests());
    assertEquals(List.of(1, 2, 1, 1), List.of(b1.dp(), b1.cp(), b1.tp(), b1.pp()));
    assertEquals(List.of(1, 1, 2), List.of(b1.pagesPerKey(), b1.deviceCap(), b1.hostCap()));
    assertEquals("pre20460", b1.version());
    assertEquals(Set.of(), b1.bugs());
    ModelConstants b3 = ModelConstants.read(MODELS.resolve("MCHiCacheSync_b3_early_return.cfg"), MODELS.resolve("MCHiCacheSync.tla"), SPEC);
    assertEquals(Set.of("B3", "B5"), b3.bugs());
    assertTrue(JavaReplay.unreplayable(b3).isEmpty());
  }

  @Test
  void aConstantTheCfgDoesNotSetIsOneLineNamingIt() throws Exception {
    Path cfg = Files.createDirectories(TestSpecs.root().resolve("modelcheck/target/replay-test")).resolve("broken.cfg");
    Files.writeString(cfg, Files.readString(MODELS.resolve("MCHiCacheSync_pre20460_cp2.cfg")).replace("Requests <-", "Rqsts <-"));
    BadInputException e = assertThrows(BadInputException.class, () -> ModelConstants.read(cfg, MODELS.resolve("MCHiCacheSync.tla"), SPEC));
    // TLC's own message, on one line.
    assertEquals("broken.cfg: The constant parameter Requests is not assigned a value by the configuration file.",
        e.getMessage());
  }
}
