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

  @Test
  void defaultVersionRunsClean() {
    CommandRun r = run("--steps", "300", "--seed", "3");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().startsWith("seed: 3\n"), "the seed comes first");
    assertTrue(r.out().contains("hit rate (tokens): L1 device"));
    assertTrue(r.out().contains("collectives per step:"));
    assertTrue(r.out().strip().endsWith("divergence: none"));
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
