package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * PP > 1 in the simulator's own loop: a later stage takes each scheduler decision of the stage before it over the
 * pipeline channel, and its trace records every one as a one-member {@code pipe} line (the decision, its pops).
 * {@code validate-trace} ({@code TraceHiCacheRun.tla}) checks a later stage rule by rule: the order of its sync
 * points (R3), its pops against the decision (R5), its queues at RECV (R7), and each decision against the one the
 * stage before made (R8). A run is accepted; a later stage's edited pop is rejected at that line; a decision edited
 * on the later stage alone (value, result and pops, consistent in itself) is rejected where it meets the stage
 * before's.
 */
class ForwardedDecisionsTraceCommandTest {

  /** merged, CP 2 x TP 1 x PP 2, storage on, the default workload. */
  private static final String[] RUN = {"--version", "merged", "--pp", "2", "--cp", "2", "--tp", "1", "--steps",
      "60", "--seed", "5", "--data", "off"};

  private static final Pattern PIPE_S123 = Pattern.compile(".*\"grp\":\"pipe\".*\"site\":\"S123\".*");

  @Test
  void aPipelineRunIsAcceptedWithEveryLaterStageDecisionLogged() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("pp-forwarded", RUN);
    Set<String> sites = new java.util.TreeSet<>();
    for (String l : lines) {
      Matcher m = Pattern.compile("\"r\":([23]),.*\"grp\":\"pipe\".*\"site\":\"(\\w+)\"").matcher(l);
      if (m.find()) {
        sites.add(m.group(2));
      }
    }
    assertTrue(sites.containsAll(Set.of("S123", "S4")), "the later stage logs its event checks and"
        + " admissions: " + sites);
    ValidateTraceCommandTest.Outcome ok = RunTraceCommandTest.validate("pp-forwarded", lines);
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("(TraceHiCacheRun) (merged"), ok.out());
  }

  @Test
  void aLaterStagePopOtherThanTheDecisionIsRejectedThere() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("pp-forwarded-pop", RUN);
    int line = edit(lines, "\"pop\":\\[(\\d+)");
    ValidateTraceCommandTest.Outcome o = RunTraceCommandTest.validate("pp-forwarded-pop", lines);
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains(": rejected: "), o.out());
    assertEquals(RunTraceCommandTest.eventOfLine(lines, line), rejectedEvent(o.out()), "line " + line + ": "
        + o.out());
  }

  @Test
  void aDecisionTheStageBeforeDidNotMakeIsRejected() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("pp-forwarded-decision", RUN);
    // One write ack more, on the later stage alone: value, result and pops agree with each other (R2, R5 hold).
    int line = edit(lines, "\"val\":\\[(\\d+)");
    lines.set(line - 1, bump(lines.get(line - 1), "\"res\":\\[(\\d+)"));
    lines.set(line - 1, bump(lines.get(line - 1), "\"pop\":\\[(\\d+)"));
    String edited = lines.get(line - 1);
    Matcher rs = Pattern.compile("\"r\":(\\d+),\"step\":(\\d+),").matcher(edited);
    assertTrue(rs.find(), edited);
    int upstream = Integer.parseInt(rs.group(1)) - 2; // the rank of stage 0 at the same grid place (stage size 2)
    String upstreamS123 = "\"r\":" + upstream + ",\"step\":" + rs.group(2) + ",";
    int upLine = 0;
    for (int i = 1; i < lines.size() && upLine == 0; i++) {
      if (lines.get(i).contains(upstreamS123) && lines.get(i).contains("\"site\":\"S123\"")) {
        upLine = i + 1;
      }
    }
    assertTrue(upLine > 0, "stage 0's S123 of that step");
    ValidateTraceCommandTest.Outcome o = RunTraceCommandTest.validate("pp-forwarded-decision", lines);
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains(": rejected: "), o.out());
    // Whichever of the two lines comes second in the file is where the decisions meet.
    assertEquals(Math.max(RunTraceCommandTest.eventOfLine(lines, line), RunTraceCommandTest.eventOfLine(lines,
        upLine)), rejectedEvent(o.out()), "lines " + line + " and " + upLine + ": " + o.out());
  }

  /** Adds one to what {@code field} captures on the first later-stage S123 line; returns its line number. */
  private static int edit(List<String> lines, String field) {
    for (int i = 1; i < lines.size(); i++) {
      if (PIPE_S123.matcher(lines.get(i)).matches()) {
        lines.set(i, bump(lines.get(i), field));
        return i + 1;
      }
    }
    throw new AssertionError("no later-stage S123 line");
  }

  private static String bump(String l, String field) {
    Matcher m = Pattern.compile(field).matcher(l);
    assertTrue(m.find(), l);
    return l.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) + 1) + l.substring(m.end(1));
  }

  private static int rejectedEvent(String out) {
    Matcher m = Pattern.compile("matches event (\\d+) of ").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }
}
