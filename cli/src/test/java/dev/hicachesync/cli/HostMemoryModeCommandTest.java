package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sync.ProtocolVersion;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate --hicache-host-memory-mode}: {@code buffer_only} (#34798, version unified) parks storage
 * hits the host pool cannot serve and says how many in the report; {@code cache} (the default) prints no such
 * line; another version or another mode is refused with one line, exit 2.
 */
class HostMemoryModeCommandTest {

  private static CommandRun run(String... args) {
    return CommandRun.of(new SimulateCommand(), args);
  }

  @Test
  void bufferOnlyReportsParkedHits() {
    CommandRun r = run("--hicache-host-memory-mode", "buffer_only", "--host-pages", "64", "--steps", "1500",
        "--seed", "7", "--drain", "300");
    assertEquals(0, r.code(), r.out() + r.err());
    Matcher m = Pattern.compile("host memory: buffer_only, (\\d+) storage hits parked, (\\d+) granted later")
        .matcher(r.out());
    assertTrue(m.find(), r.out());
    assertTrue(Long.parseLong(m.group(1)) > 0 && Long.parseLong(m.group(2)) > 0, m.group());
    assertTrue(r.out().strip().endsWith("divergence: none"), r.out());
  }

  @Test
  void cacheModeIsTheDefaultAndPrintsNothingNew() {
    CommandRun r = run("--steps", "200", "--seed", "7");
    assertEquals(0, r.code(), r.out() + r.err());
    assertFalse(r.out().contains("host memory:"), r.out());
  }

  /** A {@code rank} process in buffer-only mode does not join a world of cache-mode ranks (handshake identity). */
  @Test
  void rankIdentityNamesBufferOnly() {
    SimConfig.Builder b = SimConfig.builder().version(ProtocolVersion.UNIFIED);
    String cache = RankCommand.identity(b.build(), null);
    String buffer = RankCommand.identity(b.hostBufferOnly(true).build(), null);
    assertFalse(cache.contains("host_memory"), cache);
    assertTrue(buffer.contains(" host_memory=buffer_only "), buffer);
  }

  @Test
  void badModeAndOtherVersionsAreRefused() {
    CommandRun bad = run("--hicache-host-memory-mode", "buffer", "--steps", "10");
    assertEquals(2, bad.code(), bad.out() + bad.err());
    assertTrue(bad.err().contains("--hicache-host-memory-mode must be cache or buffer_only"), bad.err());
    assertEquals(1, bad.err().strip().lines().count(), bad.err());
    CommandRun merged = run("--hicache-host-memory-mode", "buffer_only", "--version", "merged", "--steps", "10");
    assertEquals(2, merged.code(), merged.out() + merged.err());
    assertTrue(merged.err().contains("version unified only"), merged.err());
  }
}
