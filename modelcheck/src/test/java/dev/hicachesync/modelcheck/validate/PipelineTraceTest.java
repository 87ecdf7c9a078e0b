package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spec-shaped runs with PP > 1 ({@code simulate --trace --pp P}) checked by TLC against {@code
 * spec/TraceHiCachePipeline.tla}: seeded runs of post20460 and merged are accepted; a later stage's RECV
 * snapshot edited (the stage disagrees with stage 0) and an edited ack count of stage 0's sync point are
 * rejected at that event. {@code -Dhicache.trace.long=true} adds CP 2 x TP 2 x PP 2 and PP 3.
 */
class PipelineTraceTest {

  /** A spec-shaped PP run: {@code n} requests over {@code keys} one-page keys; device 2 keys, host 3. */
  static List<String> simulate(String version, int cp, int tp, int pp, long seed, int n, int keys) {
    SimConfig cfg = SimConfig.builder().topology(Topology.of(1, cp, tp, pp))
        .version(ProtocolVersion.parse(version)).storage(StorageMode.OFF).seed(seed).steps(3L * n)
        .devicePages(2).hostPages(3).specShaped(SpecShaped.seeded(seed, n, keys, 1)).build();
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(cfg, new NdjsonTraceRecorder(out)).run();
    assertNull(r.divergence(), "the simulator's own checker: " + r.divergence());
    return new ArrayList<>(out.toString().lines().toList());
  }

  @ParameterizedTest(name = "{0} (1,{1},{2},{3}) seed {4}")
  @CsvSource({
      "merged,    1, 1, 2, 3",   // stage 0 one rank: every step one atomic spec step, RECVs only logged
      "post20460, 2, 1, 2, 3"})  // S1 and S2 on stage 0's attn_cp group, forwarded to stage 1
  void seededPipelineRunsAreAccepted(String version, int cp, int tp, int pp, long seed) throws Exception {
    List<String> lines = simulate(version, cp, tp, pp, seed, 8, 4);
    assertTrue(lines.get(0).contains("\"PP\":" + pp), lines.get(0));
    Validation v = TraceValidationTest.validate("pp-" + version + "-" + cp + tp + pp + "-seed" + seed, lines);
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), TraceValidationTest.show(v));
  }

  @ParameterizedTest(name = "{0} (1,{1},{2},{3}) seed {4}")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @CsvSource({
      "merged,    2, 1, 2, 3",
      "merged,    2, 2, 2, 5",   // S123 fused over the grid, split into attn_cp and attn_tp steps
      "post20460, 1, 1, 3, 4"})  // three stages: stage 2 follows stage 1's forwarded messages
  void longPipelineRunsAreAccepted(String version, int cp, int tp, int pp, long seed) throws Exception {
    seededPipelineRunsAreAccepted(version, cp, tp, pp, seed);
  }

  /**
   * Stage 1's RECV snapshot of one step says one more free host page than it had: stage 1 disagrees with
   * stage 0, and no behaviour of HiCachePipeline reaches that RECV.
   */
  @Test
  void aLaterStageWhoseStateDisagreesIsRejectedThere() throws Exception {
    List<String> lines = simulate("merged", 1, 1, 2, 3, 8, 4);
    int line = editLaterStageSnapshot(lines, "hfree");
    rejectedAt("pp-edited-stage1-hfree", lines, line);
  }

  /**
   * Stage 0's sync point pops one more ack on one rank than the spec pops. The edited line is the first line of
   * its collective (the first of its members' lines to complete it): which member's line comes first depends on
   * the threads, and an edit of a later member's line was accepted in some runs; and it is on stage 0's own group,
   * not a later stage's forwarded ({@code pipe}) line (the tests below).
   */
  @Test
  void anEditedPopOfStageZeroIsRejectedThere() throws Exception {
    List<String> lines = simulate("post20460", 2, 1, 2, 3, 8, 4);
    int line = editFirstOfItsCollective(lines, "pop");
    rejectedAt("pp-edited-pop", lines, line);
  }

  /** A later stage's forwarded ({@code pipe}) line pops one more ack than the decision it received (R5). */
  @Test
  void anEditedPopOfALaterStagesForwardedDecisionIsRejectedThere() throws Exception {
    List<String> lines = simulate("post20460", 2, 1, 2, 3, 8, 4);
    int line = editForwarded(lines, "pop");
    Validation v = rejectedAt("pp-edited-forwarded-pop", lines, line);
    assertTrue(v.event().orElseThrow().describe().contains("(R5: a member pops exactly the decision)"),
        TraceValidationTest.show(v));
  }

  /** A later stage receives, and pops, one more ack than the stage before it decided (R8). */
  @Test
  void aLaterStageReceivingAnotherDecisionThanTheStageBeforeMadeIsRejectedThere() throws Exception {
    List<String> lines = simulate("post20460", 2, 1, 2, 3, 8, 4);
    int line = editForwarded(lines, "val");
    editLine(lines, line - 1, "res");
    editLine(lines, line - 1, "pop");
    Validation v = rejectedAt("pp-edited-forwarded-decision", lines, line);
    assertTrue(v.event().orElseThrow().describe().contains("(R8: the forwarded decision)"),
        TraceValidationTest.show(v));
  }

  /** Validates {@code lines} and checks that validation rejects them at the event of 1-based line {@code line}. */
  private static Validation rejectedAt(String name, List<String> lines, int line) throws Exception {
    Validation v = TraceValidationTest.validate(name, lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), TraceValidationTest.show(v));
    assertEquals(TraceValidationTest.eventOfLine(lines, line), v.event().orElseThrow().number(),
        "line " + line + ": " + TraceValidationTest.show(v));
    return v;
  }

  /** Adds one to the first element of {@code field} on the first pipe line after the 8th; returns its 1-based number. */
  static int editForwarded(List<String> lines, String field) {
    for (int i = 8; i < lines.size(); i++) {
      if (lines.get(i).contains("\"grp\":\"pipe\"") && lines.get(i).contains("\"" + field + "\":[")) {
        editLine(lines, i, field);
        return i + 1;
      }
    }
    throw new AssertionError("no pipe line with " + field);
  }

  private static void editLine(List<String> lines, int i, String field) {
    Matcher m = Pattern.compile("\"" + field + "\":\\[(\\d+)").matcher(lines.get(i));
    assertTrue(m.find(), lines.get(i));
    long v = Long.parseLong(m.group(1));
    lines.set(i, lines.get(i).substring(0, m.start(1)) + (v + 1) + lines.get(i).substring(m.end(1)));
  }

  /**
   * Adds one to the first element of {@code field} on the first line after the 8th that is the first line of its
   * collective (step, group and members, site) on a group of stage 0 (not {@code pipe}); returns its 1-based line
   * number.
   */
  static int editFirstOfItsCollective(List<String> lines, String field) {
    Pattern p = Pattern.compile("\"" + field + "\":\\[(\\d+)");
    Pattern key = Pattern.compile("\"step\":(\\d+),\"grp\":\"([^\"]+)\".*\"m\":(\\[[^]]*]),\"site\":\"([^\"]+)\"");
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 1; i < lines.size(); i++) {
      Matcher k = key.matcher(lines.get(i));
      if (!k.find() || !seen.add(k.group(1) + "/" + k.group(2) + k.group(3) + "/" + k.group(4)) || i < 8
          || k.group(2).equals("pipe")) { // a later stage's forwarded count, not stage 0's sync point
        continue;
      }
      Matcher m = p.matcher(lines.get(i));
      if (m.find()) {
        long v = Long.parseLong(m.group(1));
        lines.set(i, lines.get(i).substring(0, m.start(1)) + (v + 1) + lines.get(i).substring(m.end(1)));
        return i + 1;
      }
    }
    throw new AssertionError("no first line of a collective with " + field);
  }

  /**
   * Adds one to {@code field} of the snapshot of the first stage-1 RECV line (rank 1 of a (1,1,1,2) run)
   * after the 6th line; returns its 1-based line number.
   */
  static int editLaterStageSnapshot(List<String> lines, String field) {
    Pattern p = Pattern.compile("\"" + field + "\":(\\d+)");
    for (int i = 6; i < lines.size(); i++) {
      String l = lines.get(i);
      if (!l.contains("\"r\":1,") || !l.contains("\"site\":\"RECV\"")) {
        continue;
      }
      Matcher m = p.matcher(l);
      if (m.find()) {
        lines.set(i, l.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) + 1) + l.substring(m.end(1)));
        return i + 1;
      }
    }
    throw new AssertionError("no stage-1 RECV line with a snapshot");
  }
}
