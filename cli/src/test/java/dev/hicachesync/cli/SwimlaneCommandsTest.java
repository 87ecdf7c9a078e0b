package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.validate.TraceSpecDir;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --report DIR} of {@code check} and {@code validate-trace}, and {@code check --replay}'s bad input. */
class SwimlaneCommandsTest {

  record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Outcome(code, out.toString(), err.toString());
  }

  /** An empty directory under target/. */
  private static Path emptyDir(String name) throws Exception {
    Path d = TestSpecs.root().resolve("cli/target/swimlane-cli-test/" + name);
    if (Files.isDirectory(d)) {
      try (var files = Files.list(d)) {
        for (Path f : files.toList()) {
          Files.delete(f);
        }
      }
    }
    return d;
  }

  @Test
  void checkWritesThePageOfTheViolationAndNamesIt() throws Exception {
    Path d = emptyDir("check");
    Outcome o = run("check", "--dp", "1", "--cp", "2", "--tp", "1", "--version", "pre20460", "--storage", "off",
        "--models-dir", TestSpecs.dir().toString(), "--spec-dir", TestSpecs.dir().toString(), "--report", d.toString());
    assertEquals(1, o.code(), o.out() + o.err());
    List<Path> written;
    try (var files = Files.list(d)) {
      written = files.toList();
    }
    assertEquals(1, written.size(), written.toString());
    Path page = written.get(0).toAbsolutePath().normalize();
    assertTrue(o.out().contains("swimlanes: " + page), o.out());
    String html = Files.readString(page);
    assertTrue(html.contains("violates TreeAgreement</strong> at state"), "the verdict is on the page");
    assertTrue(html.contains("class=\"head lane-head\" data-lane=\"1\""), "rank 1 has a lane");
  }

  @Test
  void validateTraceWritesThePageWithTheRejectedEvent() throws Exception {
    Path d = emptyDir("trace");
    List<String> lines = new ArrayList<>(Files.readAllLines(
        TestSpecs.root().resolve("modelcheck/src/test/resources/trace/hand-post20460-cp2.ndjson")));
    lines.set(3, lines.get(3).replace("\"res\":[0]", "\"res\":[1]"));   // rank 0's S1 result: event 2
    Path trace = d.getParent().resolve("swimlane-rejected.ndjson");
    Files.write(trace, lines);
    Outcome o = run("validate-trace", trace.toString(), "--spec-dir", TraceSpecDir.get().toString(), "--report",
        d.toString());
    assertEquals(1, o.code(), o.out() + o.err());
    Path page = d.resolve("trace-swimlane-rejected.html").toAbsolutePath().normalize();
    assertTrue(o.out().contains("swimlanes: " + page), o.out());
    assertTrue(Files.readString(page).contains("class=\"step rejected violating\" data-state=\"2\""),
        "event 2 is the rejected one");
  }

  @Test
  void aReportPathThatCannotTakePagesIsExitTwoWithOneLineBeforeTlcRuns() throws Exception {
    Path file = Files.createDirectories(TestSpecs.root().resolve("modelcheck/target/swimlane-cli-test"))
        .resolve("a-file.html");
    Files.writeString(file, "not a folder");
    List<String> bad = new ArrayList<>(List.of(file.toString(), "/dev/full", ""));
    if (Files.isDirectory(Path.of("/proc"))) {
      bad.add("/proc/hicache-sync-pages");
    }
    for (String path : bad) {
      Outcome o = run("check", "--model", "ok", "--models-dir", TestSpecs.dir().toString(), "--spec-dir",
          TestSpecs.dir().toString(), "--report", path);
      assertEquals(2, o.code(), "--report '" + path + "': " + o.out() + o.err());
      assertEquals(1, o.err().lines().count(), o.err());
      assertTrue(o.err().startsWith("hicache-sync check: --report"), o.err());
      assertEquals("", o.out(), "nothing ran: no table, no TLC");
      Outcome v = run("validate-trace", TestSpecs.root().resolve("modelcheck/src/test/resources/trace/hand-post20460-cp2.ndjson")
          .toString(), "--report", path);
      assertEquals(2, v.code(), "validate-trace --report '" + path + "': " + v.out() + v.err());
      assertEquals(1, v.err().lines().count(), v.err());
    }
  }

  @Test
  void aModelThatHoldsSaysThatNoPageWasWritten() throws Exception {
    Path d = emptyDir("holds");
    Outcome o = run("check", "--model", "ok", "--models-dir", TestSpecs.dir().toString(), "--spec-dir",
        TestSpecs.dir().toString(), "--report", d.toString());
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("swimlanes: no page written to " + d + ": no model produced a counterexample"), o.out());
  }

  @Test
  void aReplayTheImplementationCannotRunIsRefusedWithExitTwoNamingWhy() throws Exception {
    // A copy of the models with b14_sidecar_min_kv_only's cfg over two sync domains: the spec-shaped replays
    // cover one, so it is refused from its constants, before TLC runs.
    Path models = Files.createDirectories(emptyDir("refused-models"));
    try (var files = Files.list(TestSpecs.root().resolve("modelcheck/models"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, models.resolve(f.getFileName()));
      }
    }
    Path cfg = models.resolve("MCHiCacheSync_b14_sidecar_min_kv_only.cfg");
    Files.writeString(cfg, Files.readString(cfg).replace("DP = 1", "DP = 2"));
    Outcome o = run("check", "--replay", "b14_sidecar_min_kv_only", "--models-dir", models.toString());
    assertEquals(2, o.code(), o.out() + o.err());
    assertEquals(1, o.err().lines().count(), o.err());
    assertTrue(o.err().contains("--replay b14_sidecar_min_kv_only refused: not replayable: spec-shaped replays cover"
        + " one sync domain of one stage (DP 1, PP 1), not DP 2, PP 1"), o.err());
    assertTrue(o.out().contains("replay: not replayable:"), "the report still says what was refused: " + o.out());
  }

  @Test
  void replayOfAnUnknownModelOrWithOtherModelsIsExitTwo() {
    Outcome unknown = run("check", "--replay", "no_such_model");
    assertEquals(2, unknown.code(), unknown.out() + unknown.err());
    assertEquals(1, unknown.err().lines().count(), unknown.err());
    Outcome both = run("check", "--replay", "pre20460_cp2", "--tier", "ci");
    assertEquals(2, both.code(), both.out() + both.err());
    assertTrue(both.err().contains("--replay runs one catalogue model alone"), both.err());
  }
}
