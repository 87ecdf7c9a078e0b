package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --storage-durable}: the file store of a run forces every page object and then its folder, the
 * report counts both; without the flag nothing is forced; with another backend it is exit 2, one line.
 */
class StorageDurableFlagTest {
  private static final Pattern FORCED =
      Pattern.compile("storage durability: fsync, (\\d+) page files then (\\d+) folders forced");
  private static final Pattern WRITTEN = Pattern.compile("written (\\d+) pages");

  @TempDir
  Path dir;

  private static CommandRun simulate(String... extra) {
    String[] base = {"--cp", "1", "--tp", "2", "--steps", "400", "--seed", "3", "--storage", "file"};
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CommandRun.of(new SimulateCommand(), args);
  }

  @Test
  void aDurableRunForcesEveryPageObjectThenItsFolder() {
    CommandRun r = simulate("--storage-durable", "--storage-dir", dir.resolve("s").toString());
    assertEquals(0, r.code(), r.out() + r.err());
    Matcher m = FORCED.matcher(r.out());
    assertTrue(m.find(), r.out());
    long files = Long.parseLong(m.group(1));
    Matcher w = WRITTEN.matcher(r.out());
    assertTrue(w.find(), r.out());
    assertTrue(files > 0, r.out());
    assertEquals(Long.parseLong(w.group(1)), files, "one forced object per page written: " + r.out());
    assertEquals(files, Long.parseLong(m.group(2)), "one folder force per object: " + r.out());
  }

  @Test
  void withoutTheFlagNothingIsForced() {
    CommandRun r = simulate("--storage-dir", dir.resolve("s").toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertFalse(r.out().contains("storage durability"), r.out());
  }

  @Test
  void theFlagWithoutTheFileBackendIsExitTwo() throws IOException {
    CommandRun s = CommandRun.of(new SimulateCommand(), "--storage", "memory", "--storage-durable");
    assertEquals(2, s.code(), s.out() + s.err());
    assertEquals(1, s.err().strip().lines().count(), s.err());
    assertTrue(s.err().contains("durable storage (fsync) needs the file backend, but storage is memory"), s.err());

    Path trace = Files.writeString(dir.resolve("t.jsonl"),
        "{\"timestamp\": 0, \"input_length\": 100, \"output_length\": 2, \"hash_ids\": [0, 1]}\n");
    CommandRun w = CommandRun.of(new SweepCommand(), "--workload", trace.toString(), "--storage", "off",
        "--storage-durable", "--out", dir.resolve("x.png").toString());
    assertEquals(2, w.code(), w.out() + w.err());
    assertEquals(1, w.err().strip().lines().count(), w.err());
    assertTrue(w.err().contains("but storage is off"), w.err());
  }
}
