package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.monitor.ConsensusAlarm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a monitor model's replay judges the implementation's monitor ({@link MonitorReplay#judge}): the alarm TLC
 * reports, by name, at the spec's step reproduces; no alarm, another alarm, another step, or (for a silent hang) a
 * base run that did not hang where the spec does, is a disagreement that says the implementation departs; a fixed
 * twin is clean only with no alarm and a clean run. The catalogue's rows ({@code replays.md}, checked by {@link
 * JavaReplayTest}) run the real replays; the outcomes no catalogue model has are built here. And the module that
 * gives a monitor's counterexample its base action names ({@link MonitorTrace#module}) lists the trace's states
 * less the monitor's variable.
 */
class MonitorReplayTest {

  private static final List<String> ALARM_CFG = List.of("TypeOK", "NoConsensusAlarm");
  private static final List<String> HANG_CFG = List.of("TypeOK", "NoSilentHang");

  private static ModelEntry model(String expected) {
    return new ModelEntry("m", "MCConsensusMonitor", "m.cfg", "ci", "X", null, "unified", null, expected, false, null);
  }

  private static ReplayReport run(ReplayReport.Outcome outcome, String impl) {
    return new ReplayReport("base", "bug", outcome, "spec", impl, List.of("schedule line"), "");
  }

  private static ConsensusAlarm alarm(ConsensusAlarm.Kind kind, long step) {
    return new ConsensusAlarm(kind, step, "detail");
  }

  @Test
  void theSpecsAlarmAtTheSpecsStepReproduces() {
    ReplayReport r = MonitorReplay.judge(model("violates NoConsensusAlarm"), "bug", "spec", false, true,
        run(ReplayReport.Outcome.CLEAN, "no violation (3 steps)"), alarm(ConsensusAlarm.Kind.NoConsensusAlarm, 2), 2,
        ALARM_CFG);
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, r.outcome(), r.render());
    assertEquals(List.of("schedule line"), r.steps(), "an own-trace replay shows the schedule, not a base verdict");
  }

  @Test
  void noAlarmAnotherAlarmOrAnotherStepIsTheImplementationsFault() {
    ReplayReport none = MonitorReplay.judge(model("violates NoConsensusAlarm"), "bug", "spec", false, true,
        run(ReplayReport.Outcome.PART_WAYS, "TreeAgreement at step 0, step 0 events, rank 1"), null, 0, ALARM_CFG);
    assertEquals(ReplayReport.Outcome.PART_WAYS, none.outcome());
    assertEquals("the implementation is wrong: the spec's monitor breaks NoConsensusAlarm at step 0, the"
        + " implementation's raises no alarm: the run stops first, at TreeAgreement at step 0, step 0 events",
        none.detail(), "the rank that threw first is left out: it varies from run to run");
    ReplayReport later = MonitorReplay.judge(model("violates NoConsensusAlarm"), "bug", "spec", false, true,
        run(ReplayReport.Outcome.CLEAN, "no violation"), alarm(ConsensusAlarm.Kind.NoConsensusAlarm, 3), 2,
        ALARM_CFG);
    assertEquals(ReplayReport.Outcome.PART_WAYS, later.outcome());
    assertTrue(later.detail().endsWith("the implementation's at step 3"), later.detail());
    ReplayReport other = MonitorReplay.judge(model("violates NoSilentHang"), "bug", "spec", false, false,
        run(ReplayReport.Outcome.SAME_VIOLATION, "CollectiveMatching at step 1"),
        alarm(ConsensusAlarm.Kind.NoConsensusAlarm, 1), 1, HANG_CFG);
    assertEquals(ReplayReport.Outcome.PART_WAYS, other.outcome());
    assertTrue(other.detail().contains("raises NoConsensusAlarm at step 1"), other.detail());
  }

  @Test
  void aSilentHangReproducesOnlyWhereTheBaseRunHangsAtTheSpecsStep() {
    ReplayReport hang = MonitorReplay.judge(model("violates NoSilentHang"), "bug", "spec", false, false,
        run(ReplayReport.Outcome.SAME_VIOLATION, "CollectiveMatching at step 2"),
        alarm(ConsensusAlarm.Kind.NoSilentHang, 2), 1, HANG_CFG);
    assertEquals(ReplayReport.Outcome.SAME_VIOLATION, hang.outcome(), "a rank posted at its next step's first call");
    assertTrue(hang.steps().get(1).startsWith("base replay of bug on base: reproduced"), hang.steps().toString());
    ReplayReport elsewhere = MonitorReplay.judge(model("violates NoSilentHang"), "bug", "spec", false, false,
        run(ReplayReport.Outcome.PART_WAYS, "CollectiveMatching at step 4"),
        alarm(ConsensusAlarm.Kind.NoSilentHang, 4), 1, HANG_CFG);
    assertEquals(ReplayReport.Outcome.PART_WAYS, elsewhere.outcome());
  }

  @Test
  void aFixedTwinIsCleanOnlyWithoutAlarmAndWithACleanRun() {
    ModelEntry fixed = model("holds");
    assertEquals(ReplayReport.Outcome.CLEAN, MonitorReplay.judge(fixed, "bug", "spec", true, true,
        run(ReplayReport.Outcome.CLEAN, "no violation"), null, 1, ALARM_CFG).outcome());
    ReplayReport alarmed = MonitorReplay.judge(fixed, "bug", "spec", true, true,
        run(ReplayReport.Outcome.CLEAN, "no violation"), alarm(ConsensusAlarm.Kind.NoConsensusAlarm, 1), 1, ALARM_CFG);
    assertEquals(ReplayReport.Outcome.PART_WAYS, alarmed.outcome());
    assertTrue(alarmed.detail().startsWith("the implementation is wrong: the fixed version's monitor raises"),
        alarmed.detail());
    assertEquals(ReplayReport.Outcome.PART_WAYS, MonitorReplay.judge(fixed, "bug", "spec", true, false,
        run(ReplayReport.Outcome.PART_WAYS, "CollectiveMatching at step 1"), null, 1, HANG_CFG).outcome());
  }

  @Test
  void theBaseActionModuleListsTheTraceLessTheMonitorsVariable() {
    TraceState s1 = new TraceState(1, TraceState.INITIAL, "", Map.of("pc", new TlaValue.Str("recv"),
        "clog", new TlaValue.Tuple(List.of())));
    TraceState s2 = new TraceState(2, "MonNext", "", Map.of("pc", new TlaValue.Str("admit"),
        "clog", new TlaValue.Tuple(List.of(new TlaValue.Int(1)))));
    String module = MonitorTrace.module("MCHiCacheUnified", new ErrorTrace(List.of(s1, s2),
        ErrorTrace.Ending.PREFIX, 0));
    assertTrue(module.contains("EXTENDS MCHiCacheUnified, TLC"), module);
    assertTrue(module.contains("<<\"recv\">>,\n    <<\"admit\">>\n"), module);
    assertTrue(module.contains("OnTrace == \\E k \\in 1 .. Len(TraceStates) : <<pc>> = TraceStates[k]"), module);
    assertTrue(module.contains("NotAtEnd == <<pc>> # TraceStates[Len(TraceStates)]"), module);
    assertTrue(!module.contains("clog =") && !module.contains("<<1>>"), "the monitor's variable is left out");
  }
}
