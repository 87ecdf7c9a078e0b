package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcOutput;
import dev.hicachesync.modelcheck.TlcOutputParser;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.trace.TraceHeader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Regenerates the trace fixtures in {@code src/test/resources/trace/} from behaviours of the spec: TLC runs
 * {@code TraceGenHiCacheSync} (random simulation with a fixed seed, or breadth-first for the shortest
 * divergence) and the counterexample's {@code hist} becomes an NDJSON trace ({@link SpecTraces}).
 *
 * <p>Off by default (the fixtures are committed); run with {@code mvn -pl modelcheck -am test
 * -Dtest=GenerateTraceFixturesTest -Dsurefire.failIfNoSpecifiedTests=false -Dhicache.trace.generate=true}.
 * TLC is started here directly, not through {@code TlcRunner}, because simulation mode needs TLC flags
 * ({@code -simulate -seed}) that a {@code TlcJob} does not carry.
 */
@EnabledIfSystemProperty(named = "hicache.trace.generate", matches = "true")
class GenerateTraceFixturesTest {

  /** One fixture: its constants, how long, and how TLC finds it (seed &gt; 0: simulation; 0: BFS). */
  record Fixture(String name, TraceHeader header, String requestsDef, int events, long seed, String invariant) {}

  static TraceHeader header(String version, int cp, int tp, String policy, List<Integer> requests, int pages,
      int dev, int host) {
    return new TraceHeader(1, cp, tp, 1, version, policy, "write_through", true, requests, pages, dev, host, 1);
  }

  static final List<Integer> R3 = List.of(1, 2, 1);
  static final List<Integer> R4 = List.of(1, 2, 1, 2);

  /** CI fixtures (short) and long ones (validated only with -Dhicache.trace.long=true). */
  static final List<Fixture> FIXTURES = List.of(
      new Fixture("merged-cp2-seed1", header("merged", 2, 1, "timeout", R3, 1, 1, 2), "GenRequests3", 25, 1, ""),
      new Fixture("merged-cp2-seed2", header("merged", 2, 1, "wait_complete", R3, 1, 1, 2), "GenRequests3", 25, 2, ""),
      new Fixture("merged-cp2-seed3", header("merged", 2, 1, "best_effort", R4, 2, 2, 4), "GenRequests4", 25, 3, ""),
      new Fixture("post20460-cp2-seed4", header("post20460", 2, 1, "timeout", R3, 1, 1, 2), "GenRequests3", 30, 4, ""),
      new Fixture("merged-cp2tp2-seed5", header("merged", 2, 2, "timeout", R3, 1, 1, 2), "GenRequests3", 20, 5, ""),
      new Fixture("pre20460-cp2-diverge", header("pre20460", 2, 1, "timeout", R3, 1, 1, 2), "GenRequests3", 40, 0,
          "GenSnapsAgree"),
      new Fixture("long-merged-cp2-seed6", header("merged", 2, 1, "timeout", R4, 1, 1, 2), "GenRequests4", 120, 6, ""),
      new Fixture("long-post20460-cp2tp2-seed7", header("post20460", 2, 2, "timeout", R4, 1, 1, 2), "GenRequests4",
          100, 7, ""));

  @Test
  void regenerate() throws Exception {
    Path spec = TraceSpecDir.get();
    Path out = TestSpecs.root().resolve("modelcheck/src/test/resources/trace");
    for (Fixture f : FIXTURES) {
      Path dir = TestSpecs.root().resolve("modelcheck/target/trace-gen/" + f.name());
      Files.createDirectories(dir.resolve("tmp"));
      try (Stream<Path> files = Files.list(spec)) {
        for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".tla"))::iterator) {
          Files.copy(p, dir.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      Files.copy(out.resolve("TraceGenHiCacheSync.tla"), dir.resolve("TraceGenHiCacheSync.tla"),
          StandardCopyOption.REPLACE_EXISTING);
      Files.writeString(dir.resolve("Gen.cfg"), cfg(f));
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Djava.io.tmpdir=" + dir.resolve("tmp"), "-cp", TlcJar.locate().toString(), "tlc2.TLC",
          "-tool", "-workers", "1", "-metadir", dir.resolve("states").toString()));
      if (f.seed() > 0) {
        cmd.addAll(List.of("-simulate", "-depth", Integer.toString(f.events() * 6), "-seed", Long.toString(f.seed())));
      }
      cmd.addAll(List.of("-config", "Gen.cfg", "TraceGenHiCacheSync"));
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
      List<String> lines = new ArrayList<>();
      try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String l = in.readLine(); l != null; l = in.readLine()) {
          lines.add(l);
        }
      }
      int exit = p.waitFor();
      Files.write(dir.resolve("tlc.log"), lines);
      TlcResult r = TlcOutputParser.parse(exit, false, TlcOutput.of(lines), List.of(), 0, dir.resolve("tlc.log"));
      assertEquals(12, exit, f.name() + ": TLC did not produce a behaviour; see " + dir.resolve("tlc.log"));
      assertTrue(r.trace().isPresent(), f.name() + ": no trace printed");
      List<TraceState> states = r.trace().get().states();
      List<String> nd = SpecTraces.ndjson(f.header(), states.get(states.size() - 1).variables().get("hist"),
          f.seed() + 100);
      Files.write(out.resolve(f.name() + ".ndjson"), nd);
    }
  }

  private static String cfg(Fixture f) {
    TraceHeader h = f.header();
    return String.join("\n",
        "CONSTANTS",
        "    DP = 1", "    CP = " + h.cp(), "    TP = " + h.tp(), "    PP = 1",
        "    Version = \"" + h.version() + "\"", "    Policy = \"" + h.policy() + "\"",
        "    WritePolicy = \"write_through\"", "    StorageOn = TRUE",
        "    Requests <- " + f.requestsDef(), "    PagesPerKey = " + h.pagesPerKey(),
        "    DeviceCap = " + h.deviceCap(), "    HostCap = " + h.hostCap(), "    PoolSizes <- GenEqualPools",
        "    PrefetchThreshold = " + h.prefetchThreshold(), "    Bugs = {}", "    Knobs = {}", "    WaitingCap = 1",
        "    GenEvents = " + f.events(),
        "INIT GenInit", "NEXT GenNext", "CONSTRAINT GenBound", "CHECK_DEADLOCK FALSE",
        "INVARIANTS " + (f.invariant().isEmpty() ? "GenLongEnough" : f.invariant() + " GenLongEnough"), "");
  }
}
