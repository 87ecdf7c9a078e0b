package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exit 4 end to end: the tool runs in a child JVM whose files may not grow past 64 KiB ({@code ulimit -f};
 * the JVM ignores SIGXFSZ, so a write past the limit fails with EFBIG, "File too large", as a write to a
 * full disk fails with ENOSPC). Every output path passes the checks before the run (they create empty
 * files); the write that fails comes during the run. The command must exit 4 with one line on stderr
 * naming the failure, no stack trace.
 */
class FillingDiskExitFourTest {
  /** Largest file the child may write, in 1024-byte blocks (bash's unit for {@code ulimit -f}). */
  private static final int FILE_LIMIT_BLOCKS = 64;

  @TempDir
  Path dir;

  /** Runs {@code ./hicache-sync simulate args} in a child JVM under the file size limit. */
  private static String[] simulateUnderFileLimit(String... args) throws IOException, InterruptedException {
    Path bash = Path.of("/bin/bash");
    assumeTrue(Files.isExecutable(bash), "needs bash for ulimit");
    List<String> cmd = new ArrayList<>(List.of(bash.toString(), "-c",
        "ulimit -f " + FILE_LIMIT_BLOCKS + " && exec \"$@\"", "limited",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
        "-cp", System.getProperty("java.class.path"), "dev.hicachesync.cli.Main", "simulate"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child ends");
    return new String[] {String.valueOf(p.exitValue()), new String(err, StandardCharsets.UTF_8)};
  }

  private static void assertExitFourInOneLine(String[] r) {
    assertEquals("4", r[0], r[1]);
    assertEquals(1, r[1].lines().count(), r[1]);
    assertTrue(r[1].startsWith("hicache-sync simulate: I/O failure during the run"), r[1]);
    assertTrue(r[1].contains("File too large"), r[1]);
    assertFalse(r[1].contains("\tat "), r[1]);
  }

  @Test
  void aStorePageThatCannotBeWrittenMidRunIsExitFour() throws Exception {
    // 128 KiB pages: the first page object a backup thread writes passes the limit.
    String[] r = simulateUnderFileLimit("--cp", "1", "--tp", "2", "--steps", "400", "--seed", "3",
        "--storage", "file", "--storage-dir", dir.resolve("store").toString(), "--page-bytes", "131072",
        "--device-pages", "32", "--host-pages", "32");
    assertExitFourInOneLine(r);
  }

  @Test
  void aLogThatOutgrowsTheDiskIsExitFour() throws Exception {
    Path log = dir.resolve("run.log");
    String[] r = simulateUnderFileLimit("--cp", "2", "--tp", "2", "--steps", "3000", "--seed", "3",
        "--data", "off", "--log", log.toString());
    assertExitFourInOneLine(r);
    assertEquals(FILE_LIMIT_BLOCKS * 1024L, Files.size(log), "the log was cut at the limit, not before the run");
  }
}
