package dev.hicachesync.cli;

import static dev.hicachesync.cli.CheckCommandTest.check;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ad-hoc {@code check} on the real specification: the module a topology chooses, and safety
 * before liveness. Each run is a few seconds of safety checking; liveness is time-boxed.
 */
class AdhocCheckTest {

  /** The row of the part named {@code part} ("safety", "liveness"). */
  private static String partRow(String out, String part) {
    return out.lines().filter(l -> l.startsWith(part + " ")).findFirst().orElse("(no " + part + " row)");
  }

  @Test
  void ppModelRunsThePipelineModuleWithItsPpSync() {
    // In HiCacheSync the stages run in lockstep without PP sync: AckAgreement fails (a false alarm).
    CheckCommandTest.Outcome o = check("--pp", "2", "--version", "merged", "--storage", "off", "--workers", "1",
        "--time-limit", "20");
    assertTrue(o.out().contains("HiCachePipeline"), o.out());
    assertFalse(o.out().contains("violates"), o.out() + o.err());
    assertTrue(partRow(o.out(), "safety").endsWith("holds (exhaustive)"), o.out());
    // Liveness of this module is slow in this TLC: it either finishes (0) or is cut (3), never "holds" when cut.
    String liveness = partRow(o.out(), "liveness");
    assertTrue(o.code() == 0 && liveness.endsWith("holds (exhaustive)")
        || o.code() == 3 && liveness.endsWith("no verdict") && !o.out().lines().findFirst().orElse("").isEmpty()
            && o.out().lines().skip(2).findFirst().orElse("").endsWith("timeout"), o.out() + o.err());
  }

  @Test
  void dpModelRunsTheReplicasModule() {
    CheckCommandTest.Outcome o = check("--dp", "2", "--version", "merged", "--storage", "off", "--workers", "1",
        "--time-limit", "120");
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().skip(2).findFirst().orElse("")
        .matches("adhoc_merged_2-1-1-1_wait_complete_nostorage +HiCacheReplicas +merged +2,1,1,1 +wait_complete +off +holds"),
        o.out());
    assertTrue(partRow(o.out(), "liveness").endsWith("holds (exhaustive)"), o.out());
  }

  @Test
  void safetyIsReportedBeforeLivenessRuns() {
    // With liveness in the cfg TLC ran > 900 s on this model; safety alone finds B1 (the CP
    // ranks' ack counts and then trees diverge) in seconds.
    long start = System.nanoTime();
    CheckCommandTest.Outcome o = check("--cp", "3", "--tp", "1", "--version", "pre20460", "--workers", "1",
        "--time-limit", "200");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(partRow(o.out(), "safety").matches(".* violates [A-Za-z]+Agreement"), o.out());
    assertTrue(partRow(o.out(), "liveness").endsWith("not run: safety is violated"), o.out());
    assertTrue(o.out().contains("== adhoc_pre20460_1-3-1-1_best_effort_storage safety: violates "), o.out());
    // Generous: a safety-only run takes seconds plus a JVM start; liveness first would take minutes.
    assertTrue(seconds < 120, "took " + seconds + " s");
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "--pp 2 --version pre20460",
    "--pp 2 --version pipelined",
    "--pp 2 --version merged --policy best_effort",
    "--pp 2 --dp 2 --version merged",
    "--dp 2 --version pipelined",
    "--dp 2 --cp 2 --version pre20460",
    "--dp 2 --version merged --policy timeout",
    "--pp 2 --version merged --jobs 2",
  })
  void whatAModuleCannotExpressIsRefused(String args) {
    CheckCommandTest.Outcome o = check(args.split(" "));
    assertEquals(2, o.code(), o.err());
    assertEquals(1, o.err().lines().count(), o.err());
    assertTrue(o.err().contains("cannot") || o.err().contains("no module") || o.err().contains("--jobs"), o.err());
    assertEquals("", o.out());
  }
}
