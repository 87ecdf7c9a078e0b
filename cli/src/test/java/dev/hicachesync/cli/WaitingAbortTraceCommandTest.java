package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Aborts of waiting requests in the simulator's own loop come where SGLang handles them, with the step's other
 * input and before the event check ({@code api.StepOrder}'s ABORTS phase): the S6 of an abort sits between the
 * step's RECV and its S123. {@code validate-trace} accepts that order, and still rejects an abort made after the
 * step's admission began (an S6 moved after the S4 of its step).
 */
class WaitingAbortTraceCommandTest {

  /** {@code merged}, CP 2 x TP 1, seed 5: waiting requests aborted at steps 159 and 292. */
  private static final String[] RUN = {"--version", "merged", "--cp", "2", "--tp", "1", "--steps", "300",
      "--seed", "5", "--data", "off"};

  @Test
  void anAbortBeforeTheEventCheckIsAcceptedAndOneAfterAdmissionIsNot() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("abort-waiting", RUN);
    int s6 = firstS6FollowedByS4InItsStep(lines);
    String step = stepOf(lines.get(s6));
    assertTrue(site(lines.get(s6 - 1)).equals("RECV") && site(lines.get(s6 + 2)).equals("S123"),
        "the abort's S6 between RECV and the event check: " + lines.subList(s6 - 1, s6 + 3));
    ValidateTraceCommandTest.Outcome ok = RunTraceCommandTest.validate("abort-waiting", lines);
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all "), ok.out());

    // Both S6 lines moved after the last S4 line of their step: an abort after admission began.
    List<String> late = new ArrayList<>(lines);
    List<String> pair = new ArrayList<>(late.subList(s6, s6 + 2));
    late.subList(s6, s6 + 2).clear();
    int lastS4 = -1;
    for (int i = s6; i < late.size() && stepOf(late.get(i)).equals(step); i++) {
      if (site(late.get(i)).equals("S4")) {
        lastS4 = i;
      }
    }
    late.addAll(lastS4 + 1, pair);
    ValidateTraceCommandTest.Outcome o = RunTraceCommandTest.validate("abort-waiting-late", late);
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("rejected") && o.out().contains("S6"), o.out());
  }

  private static int firstS6FollowedByS4InItsStep(List<String> lines) {
    for (int i = 1; i < lines.size(); i++) {
      if (site(lines.get(i)).equals("S6")) {
        String step = stepOf(lines.get(i));
        for (int j = i + 1; j < lines.size() && stepOf(lines.get(j)).equals(step); j++) {
          if (site(lines.get(j)).equals("S4")) {
            return i;
          }
        }
      }
    }
    throw new AssertionError("no abort followed by an admission in its step: the run no longer shows the case");
  }

  private static String site(String line) {
    int at = line.indexOf("\"site\":\"");
    return at < 0 ? "" : line.substring(at + 8, line.indexOf('"', at + 8));
  }

  private static String stepOf(String line) {
    int at = line.indexOf("\"step\":");
    return at < 0 ? "" : line.substring(at + 7, line.indexOf(',', at + 7));
  }
}
