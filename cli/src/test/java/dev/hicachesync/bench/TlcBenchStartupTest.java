package dev.hicachesync.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bench's start-up run (the part of a TLC run that is not per state) must stop after the initial states:
 * if its constraint let TLC go one level further, the row "beyond start-up" would take real states' work off
 * as start-up and report too low a cost per state.
 */
class TlcBenchStartupTest {

  @Test
  void theStartupRunFindsTheInitialStatesOnly() throws Exception {
    Workspace ws = Workspace.fromRoot();
    ModelEntry model = Catalogue.load(ws.catalogue()).named(List.of("b10_fixed")).get(0);
    TlcResult r = new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(TlcBench.startupJob(ws,
        "bench-test-startup", model.module(), ws.models().resolve(model.cfg()), List.of(ws.spec(), ws.models()),
        List.of("-XX:TieredStopAtLevel=1")));
    assertEquals(Verdict.Kind.HOLDS, r.verdict().kind(), r.message());
    // b10_fixed has one initial state; its successors are generated and dropped by the constraint.
    assertEquals(1, r.distinct(), "distinct states of the start-up run; log " + r.log());
    assertTrue(r.generated() > r.distinct(), "the initial state's successors were generated: " + r.generated());
  }

  /**
   * The resident-JVM row is a second run in a JVM that already ran the model: it must find the states a JVM of
   * its own finds (TLC's static state put back between runs), or its cost per state would divide by another count.
   */
  @Test
  void theResidentRowsSecondRunFindsTheSameStates() throws Exception {
    List<BenchRow> rows = TlcBench.run(Workspace.fromRoot(), "b10_fixed");
    assertEquals(3, rows.size(), rows.toString());
    BenchRow own = rows.get(0);
    BenchRow resident = rows.get(2);
    assertTrue(own.area().startsWith("TLC b10_fixed (3186 states,"), own.area());
    assertTrue(resident.area().startsWith("TLC b10_fixed in a resident JVM, second run (3186 states,"), resident.area());
    assertTrue(resident.baseline().contains("(125000 states,"), resident.baseline());
    assertTrue(resident.nanosPerOp() > 0 && resident.baselineNanosPerOp() > 0, resident.toString());
  }

  @Test
  void theCostPerStateIsTheWorkBeyondStartupOverTheStatesBeyondTheInitialOnes() {
    TlcResult whole = result(3_001, 2.5);
    TlcResult startup = result(1, 1.0);
    assertEquals(1.5e9 / 3_000, TlcBench.beyondStartup(whole, startup), 1e-6);
    // Noise larger than the search: no negative cost.
    assertEquals(1, TlcBench.beyondStartup(result(3_001, 0.9), startup), 0);
  }

  private static TlcResult result(long distinct, double seconds) {
    return new TlcResult(0, Verdict.HOLDS, distinct, distinct, 1, seconds, Optional.empty(), "", Path.of("x"),
        List.of(), List.of());
  }
}
