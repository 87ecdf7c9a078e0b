package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.trace.TraceState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs in one resident TLC JVM ({@link TlcJvmPool}, {@link TlcMain#RESIDENT}) against runs in a JVM each: every run,
 * whatever ran before it in the JVM, gives the same exit code, verdict, counts and counterexample, state by state and
 * value by value as TLC printed it. The models are chosen to catch each piece of static state {@link
 * TlcMain#forgetEarlierRuns} resets: liveness violations back to back (TLC's "error found" flag), liveness checks after
 * other runs (the disk queue's buffer pool), counterexamples whose records and sets TLC orders by its intern table, and
 * a constraint on {@code TLCGet("level")} after other runs (TLC's last checker, in {@code TLCGlobals}).
 */
class ResidentTlcTest {

  private static final Pattern PID = Pattern.compile("\\[pid: (\\d+)]");

  @Test
  void handWrittenSpecsGiveTheSameResultsInOneJvm() throws Exception {
    Workspace ws = TestSpecs.workspace();
    List<String> modules = List.of("Liveness", "Diverge", "Liveness", "Deadlock", "ParseError", "Assumption", "Ok",
        "Stutter", "LevelBound", "LevelBound");
    Map<String, String> alone = new LinkedHashMap<>();
    List<String> pids = new ArrayList<>();
    try (TlcJvmPool pool = new TlcJvmPool(1)) {
      for (int i = 0; i < modules.size(); i++) {
        String module = modules.get(i);
        TlcJob job = new TlcJob("resident-" + i + "-" + module, module, ws.models().resolve(module + ".cfg"),
            List.of(ws.spec()), ws.work(), 1, Duration.ofMinutes(1), List.of("-Xmx256m"));
        TlcResult own = new TlcRunner(TlcJar.locate(), ProgressListener.NONE).run(job);
        TlcResult resident = new TlcRunner(TlcJar.locate(), ProgressListener.NONE, pool).run(job);
        assertEquals(describe(own), describe(resident), module + " (run " + (i + 1) + " in the resident JVM)");
        alone.put(module + i, pid(own));
        if (pid(resident) != null) {
          pids.add(pid(resident));
        }
      }
    }
    assertTrue(pids.size() >= 6, "TLC printed its pid for the runs that got past parsing: " + pids);
    assertEquals(1, pids.stream().distinct().count(), "one resident JVM ran them all: " + pids);
    assertTrue(alone.values().stream().noneMatch(pids::contains), "the runs of their own were other JVMs");
  }

  @Test
  void catalogueModelsGiveTheSameCounterexamplesInOneJvm() throws Exception {
    Workspace ws = Workspace.fromRoot();
    Catalogue catalogue = Catalogue.load(ws.catalogue());
    // Two liveness violations back to back, a liveness check that holds after them, safety counterexamples over
    // records and sets of strings, and a deadlock: each after runs of other modules.
    List<ModelEntry> models = catalogue.named(List.of("knob_async_rank_off", "knob_pf_thread_dies",
        "b13_writer_global_tp0", "merged_cp2_live", "unified_pf_thread_dies", "b16_group_creation_order",
        "pp_knob_pf_shared_group"));
    Map<String, String> own = new LinkedHashMap<>();
    for (ModelEntry m : models) {
      own.put(m.name(), describe(new ModelChecker(ws, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), 1, null,
          List.of()).check(m)));
    }
    List<String> pids = new ArrayList<>();
    try (TlcJvmPool pool = new TlcJvmPool(1)) {
      for (ModelEntry m : models) {
        TlcResult r = new ModelChecker(ws, new TlcRunner(TlcJar.locate(), ProgressListener.NONE, pool), 1, null,
            List.of()).check(m);
        assertEquals(own.get(m.name()), describe(r), m.name() + " in the resident JVM");
        assertTrue(r.verdict().matches(m.expectedVerdict()), m.name() + ": " + r.verdict());
        pids.add(pid(r));
      }
    }
    assertEquals(1, pids.stream().distinct().count(), "one resident JVM ran them all: " + pids);
  }

  @Test
  void aTimeLimitStopsTheResidentJvmAndTheNextRunStartsAnother() throws Exception {
    Workspace ws = TestSpecs.workspace();
    try (TlcJvmPool pool = new TlcJvmPool(1)) {
      TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE, pool);
      TlcResult first = runner.run(job(ws, "Ok", Duration.ofMinutes(2)));
      TlcResult stopped = runner.run(job(ws, "Forever", Duration.ofSeconds(4)));
      assertEquals(Verdict.TIMEOUT, stopped.verdict());
      assertEquals(-1, stopped.exitCode());
      assertTrue(stopped.seconds() < 60, "stopped at the limit, not at the test's end");
      assertEquals(pid(first), pid(stopped), "the run after the first went to the same JVM");
      TlcResult after = runner.run(job(ws, "Ok", Duration.ofMinutes(2)));
      assertEquals(Verdict.HOLDS, after.verdict());
      assertNotEquals(pid(first), pid(after), "the stopped JVM is not reused");
    }
  }

  @Test
  void thePoolReusesAJvmOnlyForTheSameOptionsAndKeepsItsCapacity() throws Exception {
    Workspace ws = TestSpecs.workspace();
    List<String> small = List.of("-Xmx256m");
    List<String> other = List.of("-Xmx320m");
    for (int capacity : new int[] {1, 2}) {
      try (TlcJvmPool pool = new TlcJvmPool(capacity)) {
        TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE, pool);
        String first = pid(runner.run(job(ws, "Ok", Duration.ofMinutes(2), small)));
        String second = pid(runner.run(job(ws, "Ok", Duration.ofMinutes(2), other)));
        String third = pid(runner.run(job(ws, "Ok", Duration.ofMinutes(2), small)));
        assertNotEquals(first, second, "other JVM options, another JVM");
        if (capacity == 1) {
          assertNotEquals(first, third, "one idle JVM at most: the first was closed when the second came back");
        } else {
          assertEquals(first, third, "two idle JVMs: the first one is reused");
        }
      }
    }
  }

  private static TlcJob job(Workspace ws, String module, Duration limit) {
    return job(ws, module, limit, List.of("-Xmx256m"));
  }

  private static TlcJob job(Workspace ws, String module, Duration limit, List<String> jvmOptions) {
    return new TlcJob("resident-" + module, module, ws.models().resolve(module + ".cfg"), List.of(ws.spec()), ws.work(),
        1, limit, jvmOptions);
  }

  /** What a user reads of a run: exit code, verdict, counts, message, and the counterexample as TLC printed it. */
  private static String describe(TlcResult r) {
    StringBuilder b = new StringBuilder();
    b.append(r.exitCode()).append(' ').append(r.verdict()).append(' ').append(r.distinct()).append(' ')
        .append(r.generated()).append(' ').append(r.depth()).append('\n').append(r.message().replace(r.log() == null
            ? "" : r.log().getParent().toString(), "DIR")).append('\n');
    r.trace().ifPresent(t -> {
      b.append(t.ending()).append(' ').append(t.loopTarget()).append(' ').append(t.loopAction()).append('\n');
      for (TraceState s : t.states()) {
        b.append(s.number()).append(' ').append(s.action()).append(' ').append(s.location()).append('\n');
        s.variables().forEach((name, value) -> b.append("  ").append(name).append(" = ").append(value.format())
            .append('\n'));
      }
    });
    return b.toString();
  }

  private static String pid(TlcResult r) {
    for (String line : r.output()) {
      Matcher m = PID.matcher(line);
      if (m.find()) {
        return m.group(1);
      }
    }
    return null;
  }
}
