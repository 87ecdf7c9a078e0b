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

/** {@code validate-trace} in-process: exit 0 accepted, 1 rejected, 2 not a trace (one line), 3 TLC failed. */
class ValidateTraceCommandTest {

  record Outcome(int code, String out, String err) {}

  static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> argv = new ArrayList<>(List.of("validate-trace"));
    argv.addAll(List.of(args));
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), argv.toArray(String[]::new));
    return new Outcome(code, out.toString(), err.toString());
  }

  static Path file(String name, List<String> lines) throws Exception {
    Path f = TestSpecs.root().resolve("cli/target/trace-cli-test/" + name + ".ndjson");
    Files.createDirectories(f.getParent());
    Files.write(f, lines);
    return f;
  }

  static List<String> hand() throws Exception {
    return new ArrayList<>(Files.readAllLines(
        TestSpecs.root().resolve("modelcheck/src/test/resources/trace/hand-post20460-cp2.ndjson")));
  }

  static void assertOneLine(Outcome o, int code, String contains) {
    assertEquals(code, o.code(), o.out() + o.err());
    assertEquals(1, o.err().lines().count(), o.err());
    assertTrue(o.err().contains(contains), o.err());
  }

  @Test
  void malformedLineIsExitTwoNamingTheLine() throws Exception {
    List<String> lines = hand();
    lines.set(2, lines.get(2).replace("\"res\":[1]", "\"res\":[1"));
    Outcome o = run(file("malformed", lines).toString());
    assertOneLine(o, 2, "malformed.ndjson:3: not JSON");
  }

  @Test
  void unknownEventIsExitTwo() throws Exception {
    List<String> lines = hand();
    lines.set(4, lines.get(4).replace("CollectiveCompletes", "CollectiveTeleports"));
    assertOneLine(run(file("unknown", lines).toString()), 2, "unknown.ndjson:5: unknown event 'CollectiveTeleports'");
  }

  @Test
  void missingFieldIsExitTwo() throws Exception {
    List<String> lines = hand();
    lines.set(3, lines.get(3).replace("\"op\":\"MIN\",", ""));
    assertOneLine(run(file("missing", lines).toString()), 2, "missing.ndjson:4: missing field 'op'");
  }

  @Test
  void missingFileAndBadOptionsAreExitTwo() throws Exception {
    assertOneLine(run("no/such/trace.ndjson"), 2, "cannot read the file");
    assertOneLine(run(file("ok", hand()).toString(), "--time-limit", "0"), 2, "--time-limit");
    assertEquals(2, run().code());
  }

  /**
   * A trace of version unified is followed by TraceHiCacheUnified.tla, which refuses what HiCacheUnified does
   * not have, in one line naming it: the write_through policy (the hand trace's), a key requested twice, a
   * feature of the other module's list with this module's reason.
   */
  @Test
  void unifiedTraceOfAnotherShapeIsExitTwoNamingTheFeature() throws Exception {
    List<String> lines = hand();
    lines.set(0, lines.get(0).replace("\"Version\":\"post20460\"", "\"Version\":\"unified\""));
    assertTrue(lines.get(0).contains("\"unified\""), lines.get(0));
    assertOneLine(run(file("unified", lines).toString()), 2, "feature 'write_through', which the spec"
        + " (HiCacheUnified) cannot follow");
    lines.set(0, lines.get(0).replace("\"write_through\"", "\"write_back\"")
        .replace("\"Requests\":[1]", "\"Requests\":[1,2,1]"));
    assertTrue(lines.get(0).contains("\"Requests\":[1,2,1]"), lines.get(0));
    assertOneLine(run(file("unified-repeat", lines).toString()), 2, "feature 'repeated_keys'");
    lines.set(0, lines.get(0).replace("\"Requests\":[1,2,1]", "\"Requests\":[1]")
        .replace("}", ",\"Features\":[\"storage\",\"decode\"]}"));
    assertTrue(lines.get(0).contains("decode"), lines.get(0));
    assertOneLine(run(file("unified-decode", lines).toString()), 2,
        "feature 'decode', which the spec (HiCacheUnified) cannot follow: HiCacheUnified's requests have no");
  }

  @Test
  void acceptedIsExitZero() throws Exception {
    Outcome o = run(file("accepted", hand()).toString(), "--spec-dir", TraceSpecDir.get().toString());
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("accepted: all 3 events are a behaviour of HiCacheSync (post20460"), o.out());
  }

  @Test
  void rejectedIsExitOneWithEventRankAndWhatTheSpecAllowed() throws Exception {
    List<String> lines = hand();
    lines.set(3, lines.get(3).replace("\"res\":[0]", "\"res\":[1]"));   // rank 0's S1 result
    Outcome o = run(file("rejected", lines).toString(), "--spec-dir", TraceSpecDir.get().toString());
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("matches event 2 of 3 (line 4, first logged by rank 0, step 0)"), o.out());
    assertTrue(o.out().contains("the spec allowed there: rank 0: pf none, sched S1 stage 1 on attn_cp <<0>>"),
        o.out());
    assertTrue(o.out().contains("the recorded ranks first disagree at event 2 (line 4): S1 result [1] on rank 0"),
        o.out());
  }

  @Test
  void specDirWithoutTheTraceSpecIsExitThree() throws Exception {
    Path empty = Files.createDirectories(TestSpecs.root().resolve("cli/target/trace-cli-test/no-spec"));
    assertOneLine(run(file("nospec", hand()).toString(), "--spec-dir", empty.toString()), 3, "trace spec not found");
  }
}
