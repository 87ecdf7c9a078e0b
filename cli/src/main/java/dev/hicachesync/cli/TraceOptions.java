package dev.hicachesync.cli;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * {@code simulate --trace FILE}: records the run's NDJSON trace for {@code validate-trace}. Off by default:
 * without {@code --trace} nothing is wrapped or recorded. By default ({@code --trace-loop simulator}) the run
 * is the very run {@code simulate} makes without {@code --trace} (same configuration, same report but for the
 * trace's own line): its trace is checked by {@code spec/TraceHiCacheRun.tla}. {@code --trace-loop spec} or
 * {@code spec-in-step} shape the run instead as {@code spec/HiCacheSync.tla}'s models ({@code sim.SpecShaped}),
 * with small capacities in pages, a fixed request stream and storage off unless asked for.
 */
public final class TraceOptions {

  @Option(names = "--trace", paramLabel = "FILE",
      description = "write the run's NDJSON trace for validate-trace; the run is the same as without --trace"
          + " (--trace-loop simulator, the default); --trace-loop spec shapes it as the spec's models instead")
  Path trace;

  @Option(names = "--trace-requests", defaultValue = "8",
      description = "with --trace-loop spec: requests in the stream (default ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--trace-keys", defaultValue = "4",
      description = "with --trace-loop spec: distinct keys the seed draws the requests from (default ${DEFAULT-VALUE})")
  int keys;

  @Option(names = "--pages-per-key", defaultValue = "1",
      description = "with --trace-loop spec: pages of one key (default ${DEFAULT-VALUE})")
  int pagesPerKey;

  @Option(names = "--trace-loop", paramLabel = "simulator|spec|spec-in-step", defaultValue = "simulator",
      description = "with --trace: which run is traced: simulator (default) the simulator's own, the same run as"
          + " without --trace (its workload, several running requests, decode, aborts; checked by"
          + " TraceHiCacheRun.tla); spec a run shaped as HiCacheSync.tla's models (one request per step, keys of"
          + " --pages-per-key pages, storage off unless --storage is given; --version defaults to merged; with"
          + " --version unified shaped as HiCacheUnified.tla); spec-in-step the same in SGLang's normal event"
          + " loop (features finish_in_step, write_at_insert)")
  String loop;

  @Option(names = "--trace-aborts",
      description = "with a spec-shaped --trace: about a third of the requests, drawn by the seed, are aborted if"
          + " they still wait one step after arriving (feature aborts; with --storage, where requests wait for"
          + " their prefetch)")
  boolean aborts;

  /** The options that shape a spec-shaped run only (refused with the simulator's own loop). */
  static final java.util.List<String> SPEC_SHAPE_OPTIONS = java.util.List.of("--trace-requests", "--trace-keys",
      "--pages-per-key", "--trace-aborts");

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
      for (String o : SPEC_SHAPE_OPTIONS) {
        if (given.hasMatchedOption(o)) {
          throw new IllegalArgumentException(o + " shapes a spec-shaped trace: add --trace-loop spec (or"
              + " spec-in-step); --trace alone records the simulator's own run, unchanged");
        }
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
    if (given.hasMatchedOption("--pp") && given.<Integer>matchedOptionValue("--pp", 1) > 1) {
      throw new IllegalArgumentException("a spec-shaped unified run (--trace) needs --pp 1: TraceHiCacheUnified.tla"
          + " follows HiCacheUnified.tla, whose stages run in lockstep (HiCacheUnifiedPipeline.tla has no trace module)");
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
      b.data(dev.hicachesync.sim.datapath.DataOptions.OFF);
    }
    if (!given.hasMatchedOption("--steps")) {
      b.steps(5L * requests + 4);
    }
  }

  /** Whether the traced run is spec-shaped ({@code --trace-loop spec} or {@code spec-in-step}). */
  boolean specShaped() {
    return !"simulator".equals(loop);
  }

  /** Runs {@code cfg}, recording its trace into the file. */
  SimResult run(SimConfig cfg) {
    return run(cfg, s -> s);
  }

  /**
   * Runs {@code cfg} as {@code configure} sets the simulator up (its environment faults and digest logs: the
   * same calls as the untraced run), recording its trace into the file.
   */
  SimResult run(SimConfig cfg, java.util.function.UnaryOperator<Simulator> configure) {
    try (NdjsonTraceRecorder rec = NdjsonTraceRecorder.toFile(trace)) {
      return configure.apply(new Simulator(cfg, rec)).run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
