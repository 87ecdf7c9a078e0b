package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code simulate}: exit 0 with {@code divergence: none}, 1 on a divergence, 2 with one line on bad input. */
class SimulateCommandTest {

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = new CommandLine(new SimulateCommand()).execute(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /** {@code --help} prints usage even though {@code --version} is the protocol version, not the tool's. */
  @Test
  void helpPrintsUsage() {
    Run r = run("--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("Usage: "), r.out());
    assertTrue(r.out().contains("--version"), "the protocol version flag is listed");
  }

  @Test
  void defaultVersionRunsClean() {
    Run r = run("--steps", "300", "--seed", "3");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().startsWith("seed: 3\n"), "the seed comes first");
    assertTrue(r.out().contains("hit rate (tokens): L1 device"));
    assertTrue(r.out().contains("collectives per step:"));
    assertTrue(r.out().strip().endsWith("divergence: none"));
  }

  /** The data path is on by default and the report names the device tier and the host layout. */
  @Test
  void reportNamesTheDeviceTierAndLayout() {
    Run r = run("--steps", "300", "--seed", "3", "--host-layout", "layer_first");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("\ndevice tier: "), r.out());
    assertTrue(r.out().contains("\nhost layout: layer_first, page 128 B"), r.out());
    Run off = run("--steps", "300", "--seed", "3", "--data", "off");
    assertTrue(off.out().contains("\ndata path: off"), off.out());
    assertFalse(off.out().contains("device tier:"), off.out());
  }

  @Test
  void legacyVersionUnderCpReportsTheDivergence() {
    Run r = run("--version", "pre20460", "--cp", "2", "--tp", "1", "--steps", "2000");
    assertEquals(1, r.code(), r.out());
    assertTrue(r.out().contains("divergence: AckAgreement"), r.out());
    assertTrue(r.out().contains("Failed on seed 7"));
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    for (String[] args : new String[][] {{"--cp", "0"}, {"--version", "v9"}, {"--storage", "nfs"},
        {"--policy", "eager"}, {"--write-policy", "sometimes"}, {"--fault", "gremlins"},
        {"--data", "maybe"}, {"--page-bytes", "100"}, {"--host-layout", "diagonal"}}) {
      Run r = run(args);
      assertEquals(2, r.code(), String.join(" ", args));
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertFalse(r.err().contains("Exception"), r.err());
      assertTrue(r.out().isEmpty());
    }
  }
}
