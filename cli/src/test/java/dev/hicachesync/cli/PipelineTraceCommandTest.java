package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PP > 1 end to end through the CLI: {@code simulate --trace F --pp 2} then {@code validate-trace F}, checked
 * against {@code TraceHiCachePipeline.tla} and accepted (0); what that module cannot follow is refused in one
 * line with exit 2, by {@code simulate} (storage on, pre20460) and by {@code validate-trace} (a header
 * saying so).
 */
class PipelineTraceCommandTest {

  private static Path file(String name) throws Exception {
    Path f = TestSpecs.root().resolve("cli/target/trace-cli-test/" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    return f;
  }

  @Test
  void aSimulatedPipelineTraceIsAcceptedByThePipelineModule() throws Exception {
    Path f = file("pipeline");
    CommandRun sim = CommandRun.of(new SimulateCommand(), "--seed", "3", "--pp", "2", "--cp", "1", "--tp", "1",
        "--version", "merged", "--data", "off", "--trace", f.toString(), "--trace-loop", "spec");
    assertEquals(0, sim.code(), sim.out() + sim.err());
    List<String> lines = Files.readAllLines(f);
    assertTrue(lines.get(0).contains("\"PP\":2,\"Version\":\"merged\""), lines.get(0));
    assertTrue(lines.get(0).contains("\"Features\":[\"pp\"]"), lines.get(0));

    ValidateTraceCommandTest.Outcome ok = ValidateTraceCommandTest.run(f.toString());
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("a behaviour of HiCachePipeline (merged"
        + " dp,cp,tp,pp=1,1,1,2)"), ok.out());

    // The same run said to have storage on, or to be pre20460: refused before TLC runs, naming why.
    List<String> storage = new ArrayList<>(lines);
    storage.set(0, storage.get(0).replace("\"StorageOn\":false", "\"StorageOn\":true")
        .replace("\"Features\":[\"pp\"]", "\"Features\":[\"storage\",\"pp\"]"));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(
        ValidateTraceCommandTest.file("pipeline-storage", storage).toString()), 2,
        "the trace uses feature 'storage' with PP 2, which TraceHiCachePipeline.tla cannot follow");
    List<String> legacy = new ArrayList<>(lines);
    legacy.set(0, legacy.get(0).replace("\"Version\":\"merged\"", "\"Version\":\"pre20460\""));
    ValidateTraceCommandTest.assertOneLine(ValidateTraceCommandTest.run(
        ValidateTraceCommandTest.file("pipeline-pre20460", legacy).toString()), 2,
        "version pre20460 with PP 2 is not validated");
  }

  @Test
  void aPipelineRunTheModuleCannotFollowIsNotSimulated() throws Exception {
    CommandRun storage = CommandRun.of(new SimulateCommand(), "--seed", "3", "--pp", "2", "--version", "merged",
        "--storage", "memory", "--trace", file("pipeline-storage-sim").toString(), "--trace-loop", "spec");
    assertEquals(2, storage.code(), storage.out() + storage.err());
    assertEquals(1, storage.err().strip().lines().count(), storage.err());
    assertTrue(storage.err().contains("with --pp > 1 needs storage off"), storage.err());

    CommandRun legacy = CommandRun.of(new SimulateCommand(), "--seed", "3", "--pp", "2", "--version", "pre20460",
        "--trace", file("pipeline-pre20460-sim").toString(), "--trace-loop", "spec");
    assertEquals(2, legacy.code(), legacy.out() + legacy.err());
    assertTrue(legacy.err().contains("with --pp > 1 needs --version post20460 or merged"), legacy.err());
  }
}
