package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing of TLC's {@code -tool} outputs captured from real runs ({@link Captured}), one per exit kind. */
class TlcOutputParserTest {

  private static TlcResult parse(String name, int exit, List<String> properties) {
    return TlcOutputParser.parse(exit, false, TlcOutput.of(Captured.output(name)), properties, 1.0, Path.of("x.log"));
  }

  private static TlcResult parse(int exit, List<String> lines) {
    return TlcOutputParser.parse(exit, false, TlcOutput.of(lines), List.of(), 1.0, Path.of("x"));
  }

  /** {@code text} as TLC prints it in {@code -tool} mode: a message with code {@code code}. */
  private static List<String> message(int code, int severity, String... text) {
    List<String> lines = new ArrayList<>();
    lines.add("@!@!@STARTMSG " + code + ":" + severity + " @!@!@");
    lines.addAll(List.of(text));
    lines.add("@!@!@ENDMSG " + code + " @!@!@");
    return lines;
  }

  @Test
  void success() {
    TlcResult r = parse("Ok", 0, List.of());
    assertEquals(Verdict.HOLDS, r.verdict());
    assertEquals(3, r.distinct());
    assertEquals(4, r.generated());
    assertEquals(3, r.depth());
    assertTrue(r.trace().isEmpty());
  }

  @Test
  void exitZeroWithoutCompletionIsAnError() {
    TlcResult r = parse(0, message(2262, 0, "TLC2 Version 2.18"));
    assertEquals(Verdict.Kind.ERROR, r.verdict().kind());
    assertEquals("TLC exited 0 without reporting a completed search", r.message());
  }

  @Test
  void theVerdictMustAgreeWithTheExitCode() {
    // TLC's verdict message and its exit code are two statements of one outcome: a disagreement is a failure.
    assertEquals(Verdict.Kind.ERROR, parse("Diverge", 11, List.of()).verdict().kind());
    assertEquals(Verdict.Kind.ERROR, parse("Deadlock", 12, List.of()).verdict().kind());
    assertEquals(Verdict.Kind.ERROR, parse("Ok", 12, List.of()).verdict().kind());
    assertEquals(Verdict.Kind.ERROR, parse("Liveness", 12, List.of()).verdict().kind());
    // Every run ends with TLC's "Finished in" (TLC_FINISHED); only TLC_SUCCESS says the search completed.
    assertEquals(Verdict.Kind.ERROR, parse("Assumption", 0, List.of()).verdict().kind());
    // The plain-text sentence alone (TLC run without -tool) is not a verdict.
    assertEquals(Verdict.Kind.ERROR, parse(0, List.of("Model checking completed. No error has been found.")).verdict().kind());
  }

  @Test
  void deadlockWithTrace() {
    TlcResult r = parse("Deadlock", 11, List.of());
    assertEquals(Verdict.DEADLOCK, r.verdict());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(3, t.length());
    assertEquals(TraceState.INITIAL, t.states().get(0).action());
    assertEquals("Step", t.states().get(2).action());
    assertEquals("2", t.states().get(2).variables().get("x").format());
    assertEquals(ErrorTrace.Ending.PREFIX, t.ending());
  }

  @Test
  void invariantNamedWithTrace() {
    TlcResult r = parse("Diverge", 12, List.of());
    assertEquals(Verdict.violates("Agreement"), r.verdict());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(List.of("Initial predicate", "Insert", "SkipAck"), t.states().stream().map(TraceState::action).toList());
    assertEquals("(0 :> {1, 2} @@ 1 :> {1, 2, 3})", t.states().get(2).variables().get("tree").format());
    assertEquals("[last |-> \"S2\", ok |-> FALSE]", t.states().get(2).variables().get("log").format());
    assertTrue(t.states().get(1).location().startsWith("line 15, col 11"));
    assertEquals(3, r.distinct());
    assertEquals(3, r.depth());
  }

  @Test
  void actionNamesWithArgumentsAndSingleVariableStates() {
    List<String> lines = new ArrayList<>(message(2110, 1, "Invariant Inv is violated."));
    lines.addAll(message(2121, 1, "The behavior up to this point is:"));
    lines.addAll(message(2217, 4, "1: <Initial predicate>", "x = 0", ""));
    lines.addAll(message(2217, 4, "2: <RankInsert(0, \"S1\") line 7, col 3 to line 9, col 20 of module M>", "x = 1", ""));
    ErrorTrace t = parse(12, lines).trace().orElseThrow();
    assertEquals("RankInsert(0, \"S1\")", t.states().get(1).action());
    assertEquals("line 7, col 3 to line 9, col 20 of module M", t.states().get(1).location());
    assertEquals("1", t.states().get(1).variables().get("x").format());
  }

  @Test
  void anInitialStateViolationCarriesItsState() {
    // Captured from TLC 2.18 -tool on Init == x = 0, INVARIANT x # 0 (exit 12).
    TlcResult r = parse(12, message(2107, 1, "Invariant Inv is violated by the initial state:", "x = 0", ""));
    assertEquals(Verdict.violates("Inv"), r.verdict());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(1, t.length());
    assertEquals(TraceState.INITIAL, t.states().get(0).action());
    assertEquals("0", t.states().get(0).variables().get("x").format());
  }

  @Test
  void anActionPropertyIsNamedByTlc() {
    // Captured from TLC 2.18 -tool on PROPERTY NotZero == [][x' > 5]_x (exit 13).
    List<String> lines = new ArrayList<>(message(2112, 1, "Action property NotZero is violated."));
    lines.addAll(message(2121, 1, "The behavior up to this point is:"));
    lines.addAll(message(2217, 4, "1: <Initial predicate>", "x = 0", ""));
    lines.addAll(message(2217, 4, "2: <Next line 5, col 9 to line 5, col 18 of module InitBad>", "x = 1", ""));
    TlcResult r = TlcOutputParser.parse(13, false, TlcOutput.of(lines), List.of("NotZero", "Other"), 1.0, Path.of("x"));
    assertEquals(Verdict.violates("NotZero"), r.verdict());
    assertEquals(2, r.trace().orElseThrow().length());
  }

  @Test
  void ofSeveralTracesTheLastCounts() {
    List<String> lines = new ArrayList<>(message(2110, 1, "Invariant Inv is violated."));
    lines.addAll(message(2121, 1, "The behavior up to this point is:"));
    lines.addAll(message(2217, 4, "1: <Initial predicate>", "x = 0", ""));
    lines.addAll(message(2217, 4, "2: <Next line 5, col 9 to line 5, col 18 of module M>", "x = 1", ""));
    lines.addAll(message(2121, 1, "The behavior up to this point is:"));
    lines.addAll(message(2217, 4, "2: <Next line 5, col 9 to line 5, col 18 of module M>", "x = 7", ""));
    ErrorTrace t = parse(12, lines).trace().orElseThrow();
    assertEquals(1, t.length());
    assertEquals("7", t.states().get(0).variables().get("x").format());
  }

  @Test
  void theSearchDepthTlcStatesWinsOverItsProgressReports() {
    List<String> lines = new ArrayList<>(message(2200, 0,
        "Progress(3) at 2026-12-04 05:45:38: 3 states generated, 3 distinct states found, 0 states left on queue."));
    lines.addAll(message(2193, 0, "Model checking completed. No error has been found."));
    lines.addAll(message(2199, 0, "9 states generated, 4 distinct states found, 0 states left on queue."));
    lines.addAll(message(2194, 0, "The depth of the complete state graph search is 4."));
    TlcResult r = parse(0, lines);
    assertEquals(Verdict.HOLDS, r.verdict());
    assertEquals(4, r.depth());
    assertEquals(4, r.distinct());
    assertEquals(9, r.generated());
  }

  @Test
  void bigMultiLineTraceAndCommaCounts() {
    TlcResult r = parse("Big", 12, List.of());
    assertEquals(Verdict.violates("Inv"), r.verdict());
    assertEquals(638271, r.distinct());
    assertEquals(673241, r.generated());
    assertEquals(5, r.depth());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(5, t.length());
    assertEquals(3, t.states().get(4).variables().size());
  }

  @Test
  void livenessLoopNamesTheCfgProperty() {
    TlcResult r = parse("Liveness", 13, List.of("ReachesTwo"));
    assertEquals(Verdict.violates("ReachesTwo"), r.verdict());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(2, t.length());
    assertEquals(ErrorTrace.Ending.LOOP, t.ending());
    assertEquals(1, t.loopTarget());
    assertEquals("Next", t.loopAction(), "the action of the step back to the loop's state");
    assertEquals(2, r.distinct());
  }

  @Test
  void livenessWithSeveralPropertiesListsThem() {
    TlcResult r = parse("Liveness", 13, List.of("A", "B"));
    assertEquals("violates A, B", r.verdict().toString());
  }

  @Test
  void livenessStuttering() {
    TlcResult r = parse("Stutter", 13, List.of("ReachesOne"));
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(1, t.length());
    assertEquals(ErrorTrace.Ending.STUTTERING, t.ending());
  }

  @Test
  void parseErrorMessageIsOneLineWithThePosition() {
    TlcResult r = parse("ParseError", 150, List.of());
    assertEquals(Verdict.Kind.ERROR, r.verdict().kind());
    assertTrue(r.message().contains("line 4, column 15"), r.message());
    assertTrue(r.message().contains("Could not parse module ParseError"), r.message());
    assertFalse(r.message().contains("\n"));
  }

  @Test
  void semanticErrorNamesTheOperator() {
    TlcResult r = parse("Sem", 150, List.of());
    assertTrue(r.message().contains("Unknown operator: `y'"), r.message());
    assertTrue(r.message().contains("line 4, col 13"), r.message());
  }

  @Test
  void assumptionEvaluationAndConfigErrors() {
    assertTrue(parse("Assumption", 10, List.of()).message().contains("Assumption line 5"));
    TlcResult eval = parse("Eval", 75, List.of());
    // The "unexpected exception" message wraps its cause's message (nested in -tool mode).
    assertTrue(eval.message().contains("Cannot cast"), eval.message());
    assertFalse(eval.message().contains("@!@!@"), eval.message());
    assertTrue(eval.trace().isEmpty(), "a failed run has no counterexample");
    assertEquals("TLC exit 151: The invariant NoSuch specified in the configuration file is not defined in the"
        + " specification.", parse("BadCfg", 151, List.of()).message());
  }

  @Test
  void aCrashOutsideTlcsMessagesIsReportedFromThePlainLines() {
    TlcResult r = parse(1, List.of("Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        "\tat tlc2.Foo.bar(Foo.java:1)"));
    assertTrue(r.message().startsWith("TLC exit 1: Exception in thread \"main\" java.lang.OutOfMemoryError"), r.message());
  }

  @Test
  void timeoutKeepsLastProgress() {
    List<String> lines = new ArrayList<>(message(2200, 0, "Progress(6) at 2026-11-29 17:53:14: 425,403 states generated"
        + " (425,403 s/min), 398,469 distinct states found (398,469 ds/min), 387,834 states left on queue."));
    lines.add("@!@!@STARTMSG 2200:0 @!@!@"); // killed before the message ended
    TlcResult r = TlcOutputParser.parse(-1, true, TlcOutput.of(lines), List.of(), 5.0, Path.of("x"));
    assertEquals(Verdict.TIMEOUT, r.verdict());
    assertEquals(398469, r.distinct());
    assertEquals(6, r.depth());
  }
}
