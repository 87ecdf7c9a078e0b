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

  @Test
  void defaultVersionRunsClean() {
    Run r = run("--steps", "300", "--seed", "3");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().startsWith("seed: 3\n"), "the seed comes first");
    assertTrue(r.out().contains("hit rate (tokens): L1 device"));
    assertTrue(r.out().contains("collectives per step:"));
    assertTrue(r.out().strip().endsWith("divergence: none"));
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
        {"--policy", "eager"}, {"--write-policy", "sometimes"}, {"--fault", "gremlins"}}) {
      Run r = run(args);
      assertEquals(2, r.code(), String.join(" ", args));
      assertEquals(1, r.err().strip().lines().count(), r.err());
      assertFalse(r.err().contains("Exception"), r.err());
      assertTrue(r.out().isEmpty());
    }
  }
}
