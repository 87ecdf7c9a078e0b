package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code simulate}: exit 0 with {@code divergence: none}, 1 on a divergence, 2 with one line on bad input. */
class SimulateCommandTest {

  private static CommandRun run(String... args) {
    return CommandRun.of(new SimulateCommand(), args);
  }

  /** {@code --help} prints usage even though {@code --version} is the protocol version, not the tool's. */
  @Test
  void helpPrintsUsage() {
    CommandRun r = run("--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Usage: "), r.out());
    assertTrue(r.out().contains("--version"), "the protocol version flag is listed");
  }

  /**
   * {@code --fault}'s help lists every kind the option takes (the {@code Fault} constants), and the fault grammar
   * documents each; an unknown kind is refused in one line naming them.
   */
  @Test
  void everyFaultKindIsInTheHelpAndInTheFaultGrammar() throws Exception {
    String help = run("--help").out().replaceAll("\\s+", " ");
    java.nio.file.Path root = java.nio.file.Path.of(System.getProperty("hicache.root", "..")).toAbsolutePath();
    String grammar = java.nio.file.Files.readString(root.resolve("docs/reference/fault-grammar.md"));
    java.util.List<String> kinds = new java.util.ArrayList<>();
    new SimulateCommand.FaultNames().forEach(kinds::add);
    assertEquals(dev.hicachesync.sim.environment.Fault.values().length, kinds.size());
    for (String kind : kinds) {
      assertTrue(help.contains(" " + kind + ",") || help.contains(" " + kind + " ") || help.endsWith(kind),
          kind + " not in --help");
      assertTrue(grammar.contains("`" + kind + "`"), kind + " not in docs/reference/fault-grammar.md");
    }
    CommandRun bad = run("--fault", "no_such_fault", "--steps", "1");
    assertEquals(2, bad.code(), bad.out() + bad.err());
    assertTrue(bad.err().contains("unknown fault 'no_such_fault'") && bad.err().contains("pf_raise_thread_dies"),
        bad.err());
  }

  @Test
  void defaultVersionRunsClean() {
    CommandRun r = run("--steps", "300", "--seed", "3");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().startsWith("seed: 3\n"), "the seed comes first");
    assertTrue(r.out().contains("hit rate (tokens): L1 device"));
    assertTrue(r.out().contains("collectives per step:"));
    assertTrue(r.out().strip().endsWith("divergence: none"));
  }

  /** The default version is the protocol SGLang runs today, unified. */
  @Test
  void defaultVersionIsUnified() {
    CommandRun r = run("--steps", "300", "--seed", "3");
    assertTrue(r.out().contains(", version unified, "), r.out());
  }

  /**
   * {@code --trace} alone records the run {@code simulate} makes without it: the default version (unified), the
   * same report but for the trace's line. A spec-shaped run ({@code --trace-loop spec}) that names no version
   * stays on merged (HiCacheSync.tla's); {@code --version unified --trace-loop spec} runs HiCacheUnified's shape
   * (keys 1..N, write_back, pools of N pages, data off) and writes a unified header; what that shape cannot be is
   * refused in one line.
   */
  @Test
  void traceAloneIsTheSameRunAndSpecShapedTraceWithoutVersionStaysMerged() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("sim-trace-default");
    CommandRun plain = run("--seed", "3", "--steps", "200");
    CommandRun same = run("--seed", "3", "--steps", "200", "--trace", dir.resolve("same.ndjson").toString());
    assertEquals(0, same.code(), same.out() + same.err());
    assertTrue(same.out().contains(", version unified, "), same.out());
    assertEquals(TraceFeaturesCommandTest.report(plain), TraceFeaturesCommandTest.report(same));
    CommandRun r = run("--seed", "3", "--trace", dir.resolve("run.ndjson").toString(), "--trace-loop", "spec");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains(", version merged, "), r.out());
    java.nio.file.Path uf = dir.resolve("u.ndjson");
    CommandRun u = run("--version", "unified", "--seed", "3", "--trace-requests", "3", "--trace", uf.toString(),
        "--trace-loop", "spec");
    assertEquals(0, u.code(), u.out() + u.err());
    assertTrue(u.out().contains(", version unified, ") && u.out().contains("write write_back"), u.out());
    String header = java.nio.file.Files.readAllLines(uf).get(0);
    assertTrue(header.contains("\"Version\":\"unified\"") && header.contains("\"Requests\":[1,2,3]")
        && header.contains("\"DeviceCap\":3,\"HostCap\":3"), header);
    for (String[] bad : new String[][] {{"--trace-keys", "2"}, {"--write-policy", "write_through"},
        {"--pages-per-key", "2"}, {"--data", "on"}, {"--host-pages", "2"}}) {
      CommandRun b = run("--version", "unified", "--seed", "3", "--trace-requests", "3", "--trace",
          dir.resolve("bad.ndjson").toString(), "--trace-loop", "spec", bad[0], bad[1]);
      assertEquals(2, b.code(), String.join(" ", bad) + ": " + b.out() + b.err());
      assertEquals(1, b.err().strip().lines().count(), b.err());
      assertTrue(b.err().contains("unified"), b.err());
    }
  }

  /**
   * Unified with PP > 1 runs (HiCacheUnifiedPipeline.tla: stage 0's S123 forwarded); its PP drain bug is
   * caught through the command line, and a PP drain fault without stages is refused in one line.
   */
  @Test
  void unifiedWithPipelineStagesRunsAndItsDrainBugIsCaught() {
    CommandRun ok = run("--pp", "2", "--cp", "2", "--tp", "1", "--steps", "300", "--seed", "7");
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains("divergence: none"), ok.out());
    CommandRun bug = run("--pp", "2", "--cp", "2", "--tp", "1", "--steps", "300", "--seed", "7",
        "--fault", "pp_drain_nowait");
    assertEquals(1, bug.code(), bug.out() + bug.err());
    assertTrue(bug.out().contains("TreeAgreement") && bug.out().contains("seed 7"), bug.out());
    CommandRun noStages = run("--steps", "10", "--fault", "pp_drain_nowait");
    assertEquals(2, noStages.code(), noStages.out() + noStages.err());
    assertEquals(1, noStages.err().strip().lines().count(), noStages.err());
    assertTrue(noStages.err().contains("needs pipeline stages"), noStages.err());
  }

  /** A unified bug fault is caught through the command line (exit 1, named invariant, seed). */
  @Test
  void unifiedFaultIsCaughtAndItsTwinIsClean() {
    CommandRun r = run("--fault", "attach_fails_locally", "--steps", "100");
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("divergence: CollectiveMatching at step 20"), r.out());
    assertTrue(r.out().contains("Failed on seed 7"), r.out());
    assertEquals(0, run("--fault", "attach_agreed", "--steps", "100").code());
    CommandRun wrong = run("--version", "merged", "--fault", "local_terminate", "--steps", "10");
    assertEquals(2, wrong.code(), wrong.out() + wrong.err());
    assertTrue(wrong.err().contains("version unified only"), wrong.err());
  }

  /** The data path is on by default and the report names the device tier and the host layout. */
  @Test
  void reportNamesTheDeviceTierAndLayout() {
    CommandRun r = run("--steps", "300", "--seed", "3", "--host-layout", "layer_first");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("\ndevice tier: "), r.out());
    assertTrue(r.out().contains("\nhost layout: layer_first, page 128 B"), r.out());
    CommandRun off = run("--steps", "300", "--seed", "3", "--data", "off");
    assertTrue(off.out().contains("\ndata path: off"), off.out());
    assertFalse(off.out().contains("device tier:"), off.out());
  }

  @Test
  void legacyVersionUnderCpReportsTheDivergence() {
    CommandRun r = run("--version", "pre20460", "--cp", "2", "--tp", "1", "--steps", "2000");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.out().contains("divergence: AckAgreement"), r.out());
    assertTrue(r.out().contains("Failed on seed 7"));
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    for (String[] args : new String[][] {{"--cp", "0"}, {"--version", "v9"}, {"--storage", "nfs"},
        {"--policy", "eager"}, {"--write-policy", "sometimes"}, {"--fault", "gremlins"},
        {"--data", "maybe"}, {"--page-bytes", "100"}, {"--host-layout", "diagonal"}}) {
      CommandRun r = run(args);
      assertEquals(2, r.code(), String.join(" ", args));
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertFalse(r.err().contains("Exception"), r.err());
      assertTrue(r.out().isEmpty());
    }
  }
}
