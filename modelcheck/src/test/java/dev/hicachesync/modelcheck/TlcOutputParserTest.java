package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing of TLC outputs captured from real runs, one per exit kind. */
class TlcOutputParserTest {

  private static TlcResult parse(String name, int exit, List<String> properties) {
    return TlcOutputParser.parse(exit, false, Captured.output(name), properties, 1.0, Path.of("x.log"));
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
    TlcResult r = TlcOutputParser.parse(0, false, List.of("TLC2 Version 2.18"), List.of(), 1.0, Path.of("x"));
    assertEquals(Verdict.Kind.ERROR, r.verdict().kind());
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
  }

  @Test
  void actionNamesWithArgumentsAndSingleVariableStates() {
    List<String> lines = List.of(
        "Error: Invariant Inv is violated by the initial state:",
        "State 1: <Initial predicate>",
        "x = 0",
        "",
        "State 2: <RankInsert(0, \"S1\") line 7, col 3 to line 9, col 20 of module M>",
        "x = 1",
        "");
    ErrorTrace t = TlcOutputParser.parse(12, false, lines, List.of(), 1.0, Path.of("x")).trace().orElseThrow();
    assertEquals("RankInsert(0, \"S1\")", t.states().get(1).action());
    assertEquals("line 7, col 3 to line 9, col 20 of module M", t.states().get(1).location());
    assertEquals("1", t.states().get(1).variables().get("x").format());
  }

  @Test
  void bigMultiLineTraceAndCommaCounts() {
    TlcResult r = parse("Big", 12, List.of());
    assertEquals(Verdict.violates("Inv"), r.verdict());
    assertEquals(746010, r.distinct());
    assertEquals(939271, r.generated());
    assertEquals(6, r.depth());
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
    assertFalse(r.message().contains("\n"));
  }

  @Test
  void semanticErrorNamesTheOperator() {
    TlcResult r = parse("Sem", 150, List.of());
    assertTrue(r.message().contains("Unknown operator: `y'"), r.message());
    assertTrue(r.message().contains("line 3, col 13"), r.message());
  }

  @Test
  void assumptionEvaluationAndConfigErrors() {
    assertTrue(parse("Assumption", 10, List.of()).message().contains("Assumption line 5"));
    TlcResult eval = parse("Eval", 75, List.of());
    assertTrue(eval.message().contains("Cannot cast"), eval.message());
    assertTrue(eval.trace().isEmpty(), "a failed run has no counterexample");
    assertTrue(parse("BadCfg", 151, List.of()).message().contains("invariant NoSuch"));
  }

  @Test
  void timeoutKeepsLastProgress() {
    List<String> lines = List.of("Progress(6) at 2026-11-29 17:53:14: 425,403 states generated (425,403 s/min), "
        + "398,469 distinct states found (398,469 ds/min), 387,834 states left on queue.");
    TlcResult r = TlcOutputParser.parse(-1, true, lines, List.of(), 5.0, Path.of("x"));
    assertEquals(Verdict.TIMEOUT, r.verdict());
    assertEquals(398469, r.distinct());
    assertEquals(6, r.depth());
  }
}
