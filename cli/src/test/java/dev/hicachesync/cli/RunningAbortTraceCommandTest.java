package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Aborts of running requests ({@code simulate --faults abort_running=P}): the simulator's own loop aborts a
 * seeded share of its admitted requests while they run, through the path SGLang's takes (the request finishes
 * early with what it decoded, {@code cache_finished_req}, no sync point). Traced, each RECV line carries how many
 * running requests the rank aborted so far ({@code abr}), and {@code validate-trace} ({@code TraceHiCacheRun.tla})
 * accepts the run; a rank whose trace says it aborted one request fewer, or still runs one more, is rejected at that
 * RECV; a run that aborts running requests and drains ends quiet (no lock or page left behind by an abort).
 */
class RunningAbortTraceCommandTest {

  /** A short run of the simulator's own loop at CP 2 x TP 1 that aborts running requests (merged, storage on). */
  private static final String[] RUN = {"--version", "merged", "--cp", "2", "--tp", "1", "--steps", "80",
      "--seed", "5", "--data", "off", "--faults", "abort_running=0.3"};

  private static final Pattern ABR = Pattern.compile("\"abr\":(\\d+)");

  @Test
  void aRunThatAbortsRunningRequestsIsTracedAndAccepted() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("abort-running", RUN);
    assertTrue(lines.get(0).contains("\"aborts_running\""), lines.get(0));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"abr\":1,") || l.contains("\"abr\":1}")),
        "some rank logs a running request aborted");
    ValidateTraceCommandTest.Outcome ok = RunTraceCommandTest.validate("abort-running", lines);
    assertEquals(0, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().contains(": accepted: all ") && ok.out().contains("(TraceHiCacheRun) (merged"), ok.out());
  }

  @Test
  void aRankThatDidNotAbortTheRequestIsRejectedAtTheNextRecv() throws Exception {
    List<String> lines = RunTraceCommandTest.traced("abort-running-edit", RUN);
    // The first RECV line of rank 1 after its first abort of a running request: one abort fewer, as if the
    // rank had not aborted it (its other fields left as they are).
    List<String> fewer = new ArrayList<>(lines);
    int line = editFirstAbort(fewer, "\"abr\":(\\d+)", -1);
    ValidateTraceCommandTest.Outcome o = RunTraceCommandTest.validate("abort-running-fewer", fewer);
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("breaks TreeAgreement after event "), o.out());
    assertEquals(RunTraceCommandTest.eventOfLine(fewer, line), eventOf(o.out()), "line " + line + ": " + o.out());

    // The same line with the aborted request still running there.
    List<String> running = new ArrayList<>(lines);
    int runLine = editFirstAbort(running, "\"run\":(\\d+)", 1);
    ValidateTraceCommandTest.Outcome r = RunTraceCommandTest.validate("abort-running-still", running);
    assertEquals(1, r.code(), r.out() + r.err());
    assertTrue(r.out().contains("breaks TreeAgreement after event "), r.out());
    assertEquals(RunTraceCommandTest.eventOfLine(running, runLine), eventOf(r.out()), "line " + runLine + ": "
        + r.out());
  }

  @Test
  void aRunThatAbortsRunningRequestsDrainsQuiet() {
    List<String> argv = new ArrayList<>(List.of(RUN));
    argv.addAll(List.of("--drain", "100"));
    CommandRun run = CommandRun.of(new SimulateCommand(), argv.toArray(String[]::new));
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().matches("(?s).*aborted \\d+ \\([1-9]\\d* while running\\).*"), run.out());
    assertTrue(run.out().contains("divergence: none") && !run.out().contains("not quiet"), run.out());
  }

  /** Adds {@code by} to the number {@code field} captures on rank 1's first RECV line with {@code abr} > 0. */
  private static int editFirstAbort(List<String> lines, String field, int by) {
    for (int i = 1; i < lines.size(); i++) {
      String l = lines.get(i);
      Matcher abr = ABR.matcher(l);
      if (l.contains("\"site\":\"RECV\"") && l.contains("\"r\":1,") && abr.find()
          && Long.parseLong(abr.group(1)) > 0) {
        Matcher m = Pattern.compile(field).matcher(l);
        assertTrue(m.find(), l);
        lines.set(i, l.substring(0, m.start(1)) + (Long.parseLong(m.group(1)) + by) + l.substring(m.end(1)));
        return i + 1;
      }
    }
    throw new AssertionError("no RECV line of rank 1 after an abort of a running request");
  }

  /** The event after which the outcome says TreeAgreement broke. */
  private static int eventOf(String out) {
    Matcher m = Pattern.compile("breaks TreeAgreement after event (\\d+) of ").matcher(out);
    assertTrue(m.find(), out);
    return Integer.parseInt(m.group(1));
  }
}
