package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.topology.Topology;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tlc2.output.EC;

/** Cfg parsing, verdicts, the ad-hoc template, progress lines and the per-model time limit. */
class SmallPartsTest {

  @Test
  void cfgListsInvariantsAndProperties() throws Exception {
    CfgFile cfg = CfgText.parse("\\* comment PROPERTY Fake\nCONSTANTS N = 2\nSPECIFICATION Spec\n"
        + "INVARIANTS TypeOK TreeAgreement\n(* PROPERTY Hidden *)\nPROPERTY AcksConsumed\nPROPERTIES PrefetchTerminates\n");
    assertEquals(List.of("TypeOK", "TreeAgreement"), cfg.invariants());
    assertEquals(List.of("AcksConsumed", "PrefetchTerminates"), cfg.properties());
    assertFalse(CfgText.parse("INIT Init NEXT Next INVARIANT Inv").hasProperties());
    assertEquals("Perms", CfgText.parse("SPECIFICATION Spec SYMMETRY Perms PROPERTY P").symmetry());
    assertEquals("SYMMETRY", CfgText.parse("SPECIFICATION Spec SYMMETRY Perms PROPERTY P").reduction());
    assertEquals("VIEW", CfgText.parse("SPECIFICATION Spec VIEW RankSymmetryView PROPERTY P").reduction());
    assertNull(CfgText.parse("SPECIFICATION Spec PROPERTY P").reduction());
    assertEquals("ReducedSpec", CfgText.parse("SPECIFICATION ReducedSpec INVARIANT Inv").reduction());
    assertEquals("ReducedSpec", CfgText.parse("SPECIFICATION ReducedSpec INVARIANT Inv").specification());
    assertNull(CfgText.parse("INIT Init NEXT Next").specification());
  }

  @Test
  void cfgWithOnlyOneProperty() throws Exception {
    String cfg = "CONSTANTS N = 2\nSPECIFICATION Spec\nPROPERTIES A \\* first\n  B\nINVARIANT Inv\nPROPERTY C\n";
    CfgFile single = CfgText.parse(CfgText.parse(cfg).withOnlyProperty("B").render());
    assertEquals(List.of("B"), single.properties());
    assertEquals(List.of("Inv"), single.invariants());
    assertEquals(List.of("N = 2"), single.constants());
  }

  @Test
  void cfgRendersEverySectionTlcReads() throws Exception {
    String cfg = "CONSTANTS N = 2 S = {\"a\", \"b\"} B = FALSE M = m R <- Def\nINIT Init NEXT Next\n"
        + "CONSTRAINT Small ACTION_CONSTRAINT Step\nINVARIANT Inv\nPROPERTY P\nSYMMETRY Perms\nVIEW V\n"
        + "CHECK_DEADLOCK FALSE\n";
    CfgFile read = CfgText.parse(cfg);
    assertEquals(List.of("N = 2", "S = {\"a\", \"b\"}", "B = FALSE", "M = m", "R <- Def"), read.constants());
    assertEquals(List.of("Small"), read.constraints());
    assertEquals(List.of("Step"), read.actionConstraints());
    assertFalse(read.checkDeadlock());
    assertEquals(read, CfgText.parse(read.render()), read.render());
    assertTrue(CfgText.parse("INIT Init NEXT Next").checkDeadlock(), "TLC checks deadlock unless told not to");
  }

  @Test
  void everyModelCfgSurvivesRendering() throws Exception {
    // What ModelChecker writes for a model (its safety part, one property) keeps all the rest TLC read.
    int cfgs = 0;
    try (var files = java.nio.file.Files.list(TestSpecs.root().resolve("modelcheck/models"))) {
      for (java.nio.file.Path f : files.filter(p -> p.toString().endsWith(".cfg")).sorted().toList()) {
        CfgFile cfg = CfgFile.read(f);
        assertEquals(cfg, CfgText.parse(cfg.render()), f.getFileName().toString());
        assertFalse(cfg.constants().isEmpty(), f.getFileName().toString());
        cfgs++;
      }
    }
    assertTrue(cfgs >= 100, "read " + cfgs + " cfgs");
  }

  @Test
  void aCfgTlcRejectsIsOneLineNamingTheFile() {
    BadInputException e = assertThrows(BadInputException.class, () -> CfgText.parse("INVARIANT Inv\nCONSTANTS N\n"));
    assertTrue(e.getMessage().contains(".cfg: TLC found an error in the configuration file"), e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void verdicts() {
    assertEquals(Verdict.violates("TreeAgreement"), Verdict.parseExpected("violates TreeAgreement"));
    assertEquals("deadlock", Verdict.parseExpected("deadlock").toString());
    assertThrows(IllegalArgumentException.class, () -> Verdict.parseExpected("violates"));
    assertThrows(IllegalArgumentException.class, () -> Verdict.parseExpected("passes"));
    assertFalse(Verdict.violates("A").matches(Verdict.violates("B")));
    assertFalse(Verdict.ERROR.matches(Verdict.HOLDS));
  }

  @Test
  void adhocTemplate() throws Exception {
    AdhocModel m = AdhocModel.of(1, 2, 2, 1, "merged", "timeout", "off");
    String cfg = m.render("DP = ${DP} CP = ${CP} TP = ${TP} PP = ${PP} V = \"${VERSION}\" P = \"${POLICY}\" S = ${STORAGE}");
    assertEquals("DP = 1 CP = 2 TP = 2 PP = 1 V = \"merged\" P = \"timeout\" S = FALSE", cfg);
    assertTrue(assertThrows(BadInputException.class, () -> m.render("X = ${WRITE}")).getMessage().contains("${WRITE}"));
    assertThrows(BadInputException.class, () -> AdhocModel.of(1, 1, 1, 1, "merged", "best_effort", "yes"));
  }

  /** A message of TLC's {@code -tool} output. */
  private static TlcMessage message(int code, String text) {
    return new TlcMessage(code, 0, List.of(text));
  }

  @Test
  void progressMessages() {
    Progress p = Progress.of(message(EC.TLC_PROGRESS_STATS, "Progress(6) at 2026-11-29 17:53:14: 425,403 states"
        + " generated (425,403 s/min), 398,469 distinct states found (398,469 ds/min), 387,834 states left on queue."))
        .orElseThrow();
    assertEquals(new Progress(6, 425403, 398469, 387834), p);
    assertEquals(new Progress(-1, 4, 3, 0), Progress.of(
        message(EC.TLC_STATS, "4 states generated, 3 distinct states found, 0 states left on queue.")).orElseThrow());
    assertTrue(Progress.of(message(EC.TLC_FINISHED, "Finished in 00s")).isEmpty());
    assertTrue(Progress.of(message(EC.TLC_COVERAGE_VALUE, "4 states generated, 3 distinct states found, 0 states left"
        + " on queue.")).isEmpty(), "the code says what a message is, not its text");
  }

  @Test
  void progressStatusShowsCountsAndPhase() {
    ProgressReporter reporter = new ProgressReporter(new PrintWriter(new StringWriter()), false);
    reporter.started("m");
    reporter.message(message(EC.TLC_PROGRESS_STATS,
        "Progress(3) at 2026-11-29 17:53:14: 10 states generated, 7 distinct states found, 2 states left on queue."));
    reporter.message(message(EC.TLC_CHECKING_TEMPORAL_PROPS,
        "Checking temporal properties for the complete state space with 7 total distinct states"));
    String status = reporter.status();
    reporter.finished();
    assertTrue(status.matches("\\[m\\] checking liveness, 10 states, 7 distinct, 2 on queue, [\\d,]+ states/s,"
        + " elapsed 0:0\\d, 1 worker"), status);
  }

  @Test
  void aSimulationShowsItIsSimulating() {
    ProgressReporter reporter = new ProgressReporter(new PrintWriter(new StringWriter()), false);
    reporter.started("m");
    reporter.message(message(EC.TLC_MODE_SIMU, "Running Random Simulation with seed 1 with 1 worker."));
    String walking = reporter.status();
    reporter.message(message(EC.TLC_PROGRESS_SIMU, "Progress: 50001 states checked."));
    String later = reporter.status();
    reporter.finished();
    assertTrue(walking.matches("\\[m\\] simulating, elapsed 0:0\\d, 1 worker"), walking);
    assertTrue(later.startsWith("[m] simulating, elapsed"), later);
  }

  @Test
  void progressIsOneRewrittenLineOnATerminalAndPlainLinesOtherwise() {
    StringWriter text = new StringWriter();
    ProgressReporter terminal = new ProgressReporter(new PrintWriter(text), true);
    terminal.started("m", 2);
    terminal.tick();
    terminal.message(message(EC.TLC_PROGRESS_STATS,
        "Progress(3) at 2026-11-29 17:53:14: 10 states generated, 7 distinct states found, 2 states left on queue."));
    terminal.tick();
    terminal.println("[m] holds");
    terminal.finished();
    String shown = text.toString();
    assertTrue(shown.startsWith("\r[m] parsing, elapsed 0:0"), shown);
    assertTrue(shown.contains("\r[m] exploring, 10 states, 7 distinct, 2 on queue, "), shown);
    assertEquals(1, shown.chars().filter(c -> c == '\n').count(), "no newline but the result's: " + shown);
    assertTrue(shown.matches("(?s).*\r +\r\\[m\\] holds\n"), "the progress line is wiped first: " + shown);

    StringWriter log = new StringWriter();
    ProgressReporter plain = new ProgressReporter(new PrintWriter(log), false);
    plain.started("m", 1);
    plain.tick();
    plain.tick();
    plain.finished();
    assertEquals(2, log.toString().lines().filter(l -> l.startsWith("[m] parsing, elapsed 0:0")).count(), log.toString());
    assertFalse(log.toString().contains("\r"), log.toString());
  }

  @Test
  void progressOfParallelRunsIsOneLineWithTheTotalWorkers() {
    ProgressReporter reporter = new ProgressReporter(new PrintWriter(new StringWriter()), false);
    reporter.expect(5);
    ProgressListener a = reporter.slot();
    ProgressListener b = reporter.slot();
    a.started("a", 2);
    b.started("b", 1);
    b.message(message(EC.TLC_PROGRESS_STATS,
        "Progress(3) at 2026-11-29 17:53:14: 40 states generated, 30 distinct states found, 9 states left on queue."));
    String both = reporter.status();
    b.finished();
    reporter.completed();
    String one = reporter.status();
    a.finished();
    assertTrue(both.startsWith("[a] parsing, elapsed 0:0"), both);
    assertTrue(both.contains("; [b] exploring, 40 states, 30 distinct, 9 on queue, "), both);
    assertTrue(both.endsWith(" | 2 running, 3 workers, 0 of 5 done"), both);
    assertTrue(one.endsWith(" | 1 running, 2 workers, 1 of 5 done"), one);
  }

  @Test
  void timeLimitFollowsTheRecordedTime() {
    ModelChecker checker = new ModelChecker(TestSpecs.workspace(), null, 1, null, List.of());
    ModelEntry quick = new ModelEntry("q", "M", "q.cfg", "ci", null, null, "merged",
        new Topology(1, 1, 1, 1), "holds", false, new Recorded(10, 30.0, 3));
    assertEquals(Duration.ofSeconds(300), checker.limitFor(quick));
    ModelEntry unknown = new ModelEntry("u", "M", "u.cfg", "ci", null, null, "merged",
        new Topology(1, 1, 1, 1), "holds", false, null);
    assertEquals(ModelChecker.DEFAULT_LIMIT, checker.limitFor(unknown));
  }
}
