package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.storage.StorageBackendException;
import dev.hicachesync.storage.StorageRootException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How a run that stopped on an exception is reported: which exit code, in one line. */
class RunFailuresTest {
  private static String[] report(RuntimeException e) {
    PrintStream old = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = RunFailures.report("simulate", e);
      return new String[] {String.valueOf(code), err.toString(StandardCharsets.UTF_8)};
    } finally {
      System.setErr(old);
    }
  }

  @Test
  void aDiskThatFillsDuringTheRunIsExitFourInOneLine() {
    String[] r = report(new IllegalStateException("simulation failed on seed 7: trace write",
        new UncheckedIOException("writing the trace", new IOException("No space left on device"))));
    assertEquals("4", r[0]);
    assertEquals(1, r[1].lines().count(), r[1]);
    assertTrue(r[1].contains("I/O failure during the run") && r[1].contains("No space left on device"), r[1]);
  }

  @Test
  void aBackendExceptionIsExitFourAndAFolderThatTurnsOutBadIsExitTwo() {
    assertEquals("4", report(new IllegalStateException("simulation failed on seed 1",
        new StorageBackendException("rank 2: storage backend failed in put")))[0]);
    String[] bad = report(new IllegalStateException("x", new StorageRootException("storage folder /s: symlink")));
    assertEquals("2", bad[0]);
    assertTrue(bad[1].contains("storage folder /s"), bad[1]);
    assertEquals("3", report(new IllegalStateException("simulation failed: a bug"))[0]);
  }
}
