package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runner on hand-written specs, one per kind of TLC exit, with a real TLC child JVM. */
class TlcRunnerTest {

  private final List<TlcMessage> seen = Collections.synchronizedList(new ArrayList<>());

  private TlcResult run(String module, Duration limit, int workers) throws Exception {
    ProgressListener listener = new ProgressListener() {
      @Override
      public void message(TlcMessage message) {
        seen.add(message);
      }
    };
    Workspace ws = TestSpecs.workspace();
    TlcJob job = new TlcJob("runner-" + module, module, ws.models().resolve(module + ".cfg"),
        List.of(ws.spec()), ws.work(), workers, limit, List.of("-Xmx256m"));
    return new TlcRunner(TlcJar.locate(), listener).run(job);
  }

  private TlcResult run(String module) throws Exception {
    return run(module, Duration.ofMinutes(2), 2);
  }

  @Test
  void holds() throws Exception {
    TlcResult r = run("Ok");
    assertEquals(0, r.exitCode());
    assertEquals(Verdict.HOLDS, r.verdict());
    assertEquals(3, r.distinct());
    assertEquals(4, r.generated());
    assertEquals(3, r.depth());
    assertTrue(Files.readString(r.log()).contains("No error has been found"));
    assertEquals(TlcOutput.of(r.output()).messages(), seen, "the listener sees every message as it comes");
  }

  @Test
  void deadlock() throws Exception {
    TlcResult r = run("Deadlock");
    assertEquals(11, r.exitCode());
    assertEquals(Verdict.DEADLOCK, r.verdict());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(List.of("Initial predicate", "Step", "Step"), t.states().stream().map(TraceState::action).toList());
    assertEquals("2", t.states().get(2).variables().get("x").format());
  }

  @Test
  void invariantViolated() throws Exception {
    TlcResult r = run("Diverge");
    assertEquals(12, r.exitCode());
    assertEquals(Verdict.violates("Agreement"), r.verdict());
    assertEquals(3, r.distinct());
    ErrorTrace t = r.trace().orElseThrow();
    assertEquals(3, t.length());
    assertEquals("(0 :> {1, 2} @@ 1 :> {1, 2, 3})", t.states().get(2).variables().get("tree").format());
  }

  @Test
  void livenessViolatedRunsWithOneWorker() throws Exception {
    TlcResult r = run("Liveness", Duration.ofMinutes(2), 2);
    assertEquals(13, r.exitCode());
    assertEquals(Verdict.violates("ReachesTwo"), r.verdict());
    assertEquals(ErrorTrace.Ending.LOOP, r.trace().orElseThrow().ending());
    assertTrue(r.output().stream().anyMatch(l -> l.contains("with 1 worker")),
        "a cfg with PROPERTY must run with -workers 1");
  }

  @Test
  void parseError() throws Exception {
    TlcResult r = run("ParseError");
    assertEquals(150, r.exitCode());
    assertEquals(Verdict.Kind.ERROR, r.verdict().kind());
    assertTrue(r.message().startsWith("TLC exit 150: parse error"), r.message());
    assertTrue(r.trace().isEmpty());
  }

  @Test
  void falseAssumption() throws Exception {
    TlcResult r = run("Assumption");
    assertEquals(10, r.exitCode());
    assertEquals(Verdict.Kind.ERROR, r.verdict().kind());
    assertTrue(r.message().contains("Assumption line"), r.message());
  }

  @Test
  void timeLimitStopsTlc() throws Exception {
    TlcResult r = run("Forever", Duration.ofSeconds(4), 1);
    assertEquals(Verdict.TIMEOUT, r.verdict());
    assertEquals(-1, r.exitCode());
    assertTrue(r.seconds() < 60, "stopped at the limit, not at the test's end");
    assertFalse(r.message().isEmpty());
  }

  @Test
  void symmetryWithLivenessIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Workspace ws = TestSpecs.workspace();
    java.nio.file.Path cfg = dir.resolve("Sym.cfg");
    Files.writeString(cfg, "SPECIFICATION Spec\nSYMMETRY Perms\nPROPERTY ReachesTwo\n");
    TlcJob job = new TlcJob("runner-sym", "Liveness", cfg, List.of(ws.spec()), ws.work(), 1, Duration.ofMinutes(1), List.of());
    BadInputException e = assertThrows(BadInputException.class,
        () -> new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job));
    assertTrue(e.getMessage().contains("SYMMETRY with temporal properties"), e.getMessage());
  }

  @Test
  void viewWithLivenessIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Workspace ws = TestSpecs.workspace();
    java.nio.file.Path cfg = dir.resolve("View.cfg");
    Files.writeString(cfg, "SPECIFICATION Spec\nVIEW RankSymmetryView\nPROPERTY ReachesTwo\n");
    TlcJob job = new TlcJob("runner-view", "Liveness", cfg, List.of(ws.spec()), ws.work(), 1, Duration.ofMinutes(1), List.of());
    BadInputException e = assertThrows(BadInputException.class,
        () -> new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job));
    assertTrue(e.getMessage().contains("VIEW with temporal properties"), e.getMessage());
  }

  @Test
  void reducedSpecWithLivenessIsRefused(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    Workspace ws = TestSpecs.workspace();
    java.nio.file.Path cfg = dir.resolve("Reduced.cfg");
    Files.writeString(cfg, "SPECIFICATION ReducedSpec\nPROPERTY ReachesTwo\n");
    TlcJob job = new TlcJob("runner-reduced", "Liveness", cfg, List.of(ws.spec()), ws.work(), 1, Duration.ofMinutes(1), List.of());
    BadInputException e = assertThrows(BadInputException.class,
        () -> new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job));
    assertTrue(e.getMessage().contains("ReducedSpec with temporal properties"), e.getMessage());
  }

  @Test
  void missingModuleIsBadInput() {
    Workspace ws = TestSpecs.workspace();
    TlcJob job = new TlcJob("runner-missing", "NoSuchModule", ws.models().resolve("Ok.cfg"),
        List.of(ws.spec()), ws.work(), 1, Duration.ofMinutes(1), List.of());
    BadInputException e = assertThrows(BadInputException.class,
        () -> new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job));
    assertTrue(e.getMessage().contains("NoSuchModule.tla"));
  }
}
