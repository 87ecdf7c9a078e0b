package dev.hicachesync.cli;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.trace.NdjsonTraceRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * {@code simulate --trace FILE}: a spec-shaped run ({@code sim.SpecShaped}) whose NDJSON trace {@code
 * validate-trace} checks against the spec. Off by default: without {@code --trace} nothing is wrapped or
 * recorded. With it, the capacities and step count the user did not set get small defaults in pages (TLC
 * checks every event), and storage must be off.
 */
public final class TraceOptions {

  @Option(names = "--trace", paramLabel = "FILE",
      description = "run spec-shaped (keys of --pages-per-key pages, one request per step; storage off unless"
          + " --storage is given, then 1 page per key; --pp > 1: post20460 or merged, storage off)"
          + " and write its NDJSON trace for validate-trace; with --version unified shaped as HiCacheUnified.tla"
          + " (keys 1..N, write_back, pools of N pages, --data off)")
  Path trace;

  @Option(names = "--trace-requests", defaultValue = "8",
      description = "with --trace: requests in the stream (default ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--trace-keys", defaultValue = "4",
      description = "with --trace: distinct keys the seed draws the requests from (default ${DEFAULT-VALUE})")
  int keys;

  @Option(names = "--pages-per-key", defaultValue = "1",
      description = "with --trace: pages of one key (default ${DEFAULT-VALUE})")
  int pagesPerKey;

  @Option(names = "--trace-loop", paramLabel = "spec|spec-in-step|simulator", defaultValue = "spec",
      description = "with --trace: the scheduler loop's configuration: spec (default) is the spec-shaped one"
          + " validate-trace checks; spec-in-step the same in SGLang's normal event loop (a request finishes at"
          + " the end of the step that admitted it, write-through at insert; features finish_in_step,"
          + " write_at_insert, which validate-trace also checks); simulator is the simulator's own (its workload, several running requests,"
          + " decode, aborts), traced the same way, whose header lists the features the spec cannot follow"
          + " (validate-trace refuses it, exit 2)")
  String loop;

  @Option(names = "--trace-aborts",
      description = "with a spec-shaped --trace: about a third of the requests, drawn by the seed, are aborted if"
          + " they still wait one step after arriving (feature aborts; with --storage, where requests wait for"
          + " their prefetch)")
  boolean aborts;

  /** Most requests of a spec-shaped stream: TLC validates traces of a few dozen; the stream is allocated up front. */
  static final int MAX_REQUESTS = 100_000;
  /** Most distinct keys, and most pages of one key (a key's tokens are one array). */
  static final int MAX_KEYS = 100_000;
  static final int MAX_PAGES_PER_KEY = 4_096;

  /**
   * Refuses the trace options without {@code --trace} (they would change nothing: the run records no trace)
   * and sizes over their bounds, before anything is allocated.
   */
  void checkGiven(ParseResult given) {
    if (trace == null) {
      for (String o : new String[] {"--trace-aborts", "--trace-requests", "--trace-keys", "--pages-per-key",
          "--trace-loop"}) {
        if (given.hasMatchedOption(o)) {
          throw new IllegalArgumentException(o + " shapes a traced run; it needs --trace FILE");
        }
      }
      return;
    }
    bound("--trace-requests", requests, MAX_REQUESTS);
    bound("--trace-keys", keys, MAX_KEYS);
    bound("--pages-per-key", pagesPerKey, MAX_PAGES_PER_KEY);
  }

  private static void bound(String flag, int value, int max) {
    if (value < 1 || value > max) {
      throw new IllegalArgumentException(flag + " must be in 1.." + max + ", got " + value);
    }
  }

  /** Whether a trace was asked for. */
  boolean on() {
    return trace != null;
  }

  /**
   * Makes {@code b} spec-shaped: its request stream, and the defaults of what the user did not set
   * (device 2 keys, host 3 keys, 3 steps per request, storage off unless --storage is given).
   */
  void apply(SimConfig.Builder b, ParseResult given, long seed, String storage) {
    apply(b, given, seed, storage, false);
  }

  /**
   * As {@link #apply(SimConfig.Builder, ParseResult, long, String)}; for version {@code unified} ({@code
   * unified} true) shaped as {@code HiCacheUnified.tla} instead: keys 1..N, one page each, device and host
   * pools of one page per request, write_back, {@code --data off} (SpecShaped.check refuses the rest).
   */
  void apply(SimConfig.Builder b, ParseResult given, long seed, String storage, boolean unified) {
    if (!loop.equals("spec") && !loop.equals("spec-in-step") && !loop.equals("simulator")) {
      throw new IllegalArgumentException("--trace-loop must be spec, spec-in-step or simulator, got '" + loop
          + "'");
    }
    if (!specShaped()) {
      if (aborts) {
        throw new IllegalArgumentException("--trace-aborts needs a spec-shaped --trace-loop (spec or spec-in-step)");
      }
      return; // the simulator's own configuration, as without --trace
    }
    if (unified) {
      if (aborts || loop.equals("spec-in-step")) { // knobs of HiCacheSync.tla; TraceHiCacheUnified has neither
        throw new IllegalArgumentException("--version unified --trace takes neither --trace-loop spec-in-step nor"
            + " --trace-aborts: those are knobs of HiCacheSync.tla, not of HiCacheUnified.tla");
      }
      applyUnified(b, given, storage);
      return;
    }
    // Storage stays off unless asked for: with it on, one page per key (SpecShaped.check says why).
    StorageMode mode = given.hasMatchedOption("--storage") ? StorageMode.parse(storage) : StorageMode.OFF;
    SpecShaped seeded = SpecShaped.seeded(seed, requests, keys, pagesPerKey);
    SpecShaped looped = loop.equals("spec-in-step") ? seeded.inStep() : seeded;
    SpecShaped s = aborts ? looped.withAborts(seed) : looped;
    b.specShaped(s).storage(mode);
    if (!given.hasMatchedOption("--device-pages")) {
      b.devicePages(2 * pagesPerKey);
    }
    if (!given.hasMatchedOption("--host-pages")) {
      b.hostPages(3 * pagesPerKey);
    }
    if (!given.hasMatchedOption("--steps")) {
      b.steps(3L * requests);
    }
  }

  private void applyUnified(SimConfig.Builder b, ParseResult given, String storage) {
    if (given.hasMatchedOption("--trace-keys")) {
      throw new IllegalArgumentException("--trace-keys does not apply to a spec-shaped unified run: its requests are"
          + " keys 1..N (--trace-requests), each its own node in HiCacheUnified");
    }
    StorageMode mode = given.hasMatchedOption("--storage") ? StorageMode.parse(storage) : StorageMode.OFF;
    b.specShaped(SpecShaped.distinct(requests)).storage(mode);
    if (pagesPerKey != 1) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --pages-per-key 1:"
          + " HiCacheUnified has one page per key");
    }
    if (!given.hasMatchedOption("--device-pages")) {
      b.devicePages(requests);
    }
    if (!given.hasMatchedOption("--host-pages")) {
      b.hostPages(requests);
    }
    if (!given.hasMatchedOption("--write-policy")) {
      b.writePolicy(dev.hicachesync.controller.WritePolicy.WRITE_BACK);
    }
    if (!given.hasMatchedOption("--data")) {
      b.data(dev.hicachesync.sim.DataOptions.OFF);
    }
    if (!given.hasMatchedOption("--steps")) {
      b.steps(5L * requests + 4);
    }
  }

  /** Whether the traced run is spec-shaped (the default {@code --trace-loop spec}). */
  boolean specShaped() {
    return !"simulator".equals(loop);
  }

  /** Runs {@code cfg}, recording its trace into the file. */
  SimResult run(SimConfig cfg) {
    try (NdjsonTraceRecorder rec = NdjsonTraceRecorder.toFile(trace)) {
      return new Simulator(cfg, rec).run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
