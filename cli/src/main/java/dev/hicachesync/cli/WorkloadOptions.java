package dev.hicachesync.cli;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.workload.MooncakeReplay;
import dev.hicachesync.workload.MooncakeRequest;
import dev.hicachesync.workload.MooncakeTrace;
import dev.hicachesync.workload.ReplayTiming;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Trace replay and SGLang-named capacity options, shared by {@code simulate} and {@code sweep}.
 *
 * <p>Names follow SGLang's {@code server_args.py} where it has one: {@code --page-size},
 * {@code --max-total-tokens} (L1 in tokens), {@code --hicache-ratio} (L2 as a multiple of L1) and
 * {@code --hicache-size} (L2 in GB per rank). SGLang has no flag for the storage tier's size (its
 * backends are sized in their own configuration), so L3 borrows the L2 flag's form:
 * {@code --hicache-storage-size} (GB per rank, 1 GB = 10^9 bytes as for {@code --hicache-size}) or
 * {@code --storage-pages}; neither given, L3 is unbounded, and {@code --storage off} turns it off.
 * Capacities are per rank, in pages, because that is what the pools allocate. The L1 page count
 * itself is the command's {@code --device-pages}; with {@code --workload} and neither flag given, it
 * defaults to {@link #DEFAULT_DEVICE_TOKENS} tokens, as the synthetic workload's default (192 pages)
 * cannot hold a single long Mooncake request.
 */
public final class WorkloadOptions {

  /** Default L1 capacity of a replay: 2^20 = 1,048,576 tokens per rank (16,384 pages of 64). */
  static final int DEFAULT_DEVICE_TOKENS = 1 << 20;

  /** SGLang's default {@code --hicache-ratio}. */
  static final double DEFAULT_HICACHE_RATIO = 2.0;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--workload", paramLabel = "PATH.jsonl",
      description = "Replay a Mooncake NDJSON trace (timestamp, input_length, output_length, hash_ids) "
          + "in arrival order instead of the synthetic sessions.")
  Path workload;

  @Option(names = "--requests", paramLabel = "N", defaultValue = "0",
      description = "Replay only the first N requests of the trace (default: all).")
  int requests;

  @Option(names = "--page-size", paramLabel = "TOKENS", defaultValue = "64",
      description = "Tokens per page, the cache's unit (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(names = "--max-total-tokens", paramLabel = "TOKENS",
      description = "L1 (device) capacity per rank in tokens (SGLang's name); sets --device-pages to "
          + "TOKENS / --page-size.")
  Integer maxTotalTokens;

  @Option(names = "--hicache-ratio", paramLabel = "R",
      description = "L2 (host) capacity as a multiple of L1 (SGLang's name; with --workload the default "
          + "is 2.0; 0: no host tier).")
  Double hicacheRatio;

  @Option(names = "--hicache-size", paramLabel = "GB",
      description = "L2 capacity per rank in GB (SGLang's name); overrides --hicache-ratio.")
  Double hicacheSizeGb;

  @Option(names = "--hicache-storage-size", paramLabel = "GB",
      description = "L3 (storage) capacity per rank in GB, each rank's own LRU shard (default: "
          + "unbounded, one store shared by all ranks; --storage off: no L3).")
  Double storageSizeGb;

  @Option(names = "--storage-pages", paramLabel = "PAGES",
      description = "L3 capacity per rank in pages; the same as --hicache-storage-size in pages.")
  Long storagePagesFlag;

  @Option(names = "--kv-bytes-per-token", paramLabel = "BYTES", defaultValue = "131072",
      description = "KV bytes per token per rank, for --hicache-size and bytes moved (default: "
          + "${DEFAULT-VALUE}: Llama-3-8B in bf16, 2 x 32 layers x 8 heads x 128 x 2 B).")
  long kvBytesPerToken;

  @Option(names = "--ms-per-step", paramLabel = "MS", defaultValue = "50",
      description = "Trace milliseconds per scheduler step, the simulated clock's tick (default: "
          + "${DEFAULT-VALUE}).")
  double msPerStep;

  @Option(names = "--ms-per-output-token", paramLabel = "MS", defaultValue = "20",
      description = "Decode time per output token (default: ${DEFAULT-VALUE}).")
  double msPerOutputToken;

  @Option(names = "--max-running", paramLabel = "N",
      description = "Requests running at once per replica (default: 8, with --workload 64).")
  Integer maxRunning;

  /** Whether the user gave option {@code name} on the command line (not just its default). */
  boolean given(String name) {
    return spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(name);
  }

  /** Checks the values; the message is one line. */
  void validate() {
    if (pageSize < 1) {
      throw new IllegalArgumentException("--page-size must be >= 1, got " + pageSize);
    }
    if (requests < 0 || (maxRunning != null && maxRunning < 1)) {
      throw new IllegalArgumentException("--requests must be >= 0 and --max-running >= 1");
    }
    if ((hicacheRatio != null && hicacheRatio < 0) || (hicacheSizeGb != null && hicacheSizeGb < 0)) {
      throw new IllegalArgumentException("--hicache-ratio and --hicache-size must be >= 0");
    }
    if ((storageSizeGb != null && !(storageSizeGb > 0)) || (storagePagesFlag != null && storagePagesFlag < 1)) {
      throw new IllegalArgumentException("--hicache-storage-size must be > 0 and --storage-pages >= 1 "
          + "(no L3 at all is --storage off)");
    }
    if (kvBytesPerToken < 1) {
      throw new IllegalArgumentException("--kv-bytes-per-token must be >= 1, got " + kvBytesPerToken);
    }
    timing();
  }

  /** L1 pages per rank: {@code --max-total-tokens}, else {@code --device-pages}, else the default. */
  int devicePages(int devicePagesFlag, boolean devicePagesGiven) {
    if (maxTotalTokens != null && devicePagesGiven) {
      throw new IllegalArgumentException("--device-pages and --max-total-tokens both set L1: give one");
    }
    long pages = maxTotalTokens != null ? maxTotalTokens / pageSize
        : devicePagesGiven || workload == null ? devicePagesFlag : DEFAULT_DEVICE_TOKENS / pageSize;
    if (pages < 1) {
      throw new IllegalArgumentException("L1 must hold at least one page of " + pageSize + " tokens");
    }
    return (int) pages;
  }

  /**
   * L2 pages per rank: {@code --hicache-size} GB, else {@code --hicache-ratio} × L1, else
   * {@code --host-pages}; with {@code --workload} the ratio defaults to SGLang's 2.0.
   */
  int hostPages(int devicePages, int hostPagesFlag, boolean hostPagesGiven) {
    boolean ratioOrSize = hicacheRatio != null || hicacheSizeGb != null;
    if (ratioOrSize && hostPagesGiven) {
      throw new IllegalArgumentException("--host-pages and --hicache-ratio/--hicache-size both set L2: "
          + "give one");
    }
    double pages;
    if (hicacheSizeGb != null) {
      pages = hicacheSizeGb * 1e9 / pageBytes();
    } else if (hicacheRatio != null) {
      pages = hicacheRatio * devicePages;
    } else if (hostPagesGiven || workload == null) {
      pages = hostPagesFlag;
    } else {
      pages = DEFAULT_HICACHE_RATIO * devicePages;
    }
    if (pages > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("L2 of " + (long) pages + " pages is too large");
    }
    return (int) pages;
  }

  /**
   * L3 pages per rank: {@code --hicache-storage-size} GB or {@code --storage-pages}, else
   * {@link SimConfig#UNBOUNDED}. One-line error when both are given, when the size holds no whole page,
   * or when {@code storage} is off.
   */
  long storagePages(StorageMode storage) {
    if (storageSizeGb == null && storagePagesFlag == null) {
      return SimConfig.UNBOUNDED;
    }
    if (storageSizeGb != null && storagePagesFlag != null) {
      throw new IllegalArgumentException("--hicache-storage-size and --storage-pages both set L3: give one");
    }
    if (storage == StorageMode.OFF) {
      throw new IllegalArgumentException("an L3 capacity needs a storage backend, but --storage is off");
    }
    if (storagePagesFlag != null) {
      return storagePagesFlag;
    }
    double pages = Math.floor(storageSizeGb * 1e9 / pageBytes());
    if (pages < 1) {
      throw new IllegalArgumentException("--hicache-storage-size " + storageSizeGb + " GB holds no page of "
          + pageBytes() + " bytes");
    }
    return pages >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) pages;
  }

  /** Requests running at once per replica. */
  int maxRunning() {
    return maxRunning != null ? maxRunning : workload != null ? 64 : 8;
  }

  /** KV bytes of one page per rank. */
  long pageBytes() {
    return kvBytesPerToken * pageSize;
  }

  /** How trace time maps to steps. */
  ReplayTiming timing() {
    return new ReplayTiming(msPerStep, msPerOutputToken);
  }

  /** Reads and validates the trace (its first {@code --requests} requests). */
  List<MooncakeRequest> load() throws IOException {
    if (Files.isDirectory(workload)) {
      throw new IllegalArgumentException("--workload " + workload + " is a folder, not a trace file");
    }
    if (!Files.isRegularFile(workload) || !Files.isReadable(workload)) {
      throw new IllegalArgumentException("--workload " + workload + ": no such readable file");
    }
    List<MooncakeRequest> trace;
    try {
      trace = MooncakeTrace.readAll(workload, requests);
    } catch (UncheckedIOException | java.nio.charset.CharacterCodingException e) {
      throw new IllegalArgumentException("--workload " + workload + ": not a text trace (" + e.getMessage() + ")");
    }
    if (trace.isEmpty()) {
      throw new IllegalArgumentException("--workload " + workload + " holds no request: nothing to replay");
    }
    return trace;
  }

  /**
   * Sets page size, running limit and capacities on {@code b} (from this mixin and the command's own
   * {@code --device-pages}/{@code --host-pages}), and with {@code --workload} the trace and its drain
   * (the command's {@code --steps}/{@code --drain} win when given); returns the
   * replay to report on, or null for the synthetic workload. Bad values: one-line
   * {@link IllegalArgumentException}; a bad trace line: {@code MalformedTraceException}.
   */
  Replay apply(SimConfig.Builder b, StorageMode storage, int dp, int devicePagesFlag, int hostPagesFlag,
      long stepsFlag, long drainFlag) throws IOException {
    validate();
    int device = devicePages(devicePagesFlag, given("--device-pages"));
    int host = hostPages(device, hostPagesFlag, given("--host-pages"));
    long l3 = storagePages(storage);
    b.pageSize(pageSize).maxRunning(maxRunning()).devicePages(device).hostPages(host).storagePages(l3);
    if (workload == null) {
      return null;
    }
    List<MooncakeRequest> trace = load();
    configure(b, trace, dp, device, given("--steps") ? stepsFlag : null);
    if (given("--drain")) {
      b.drainSteps(drainFlag);
    }
    return new Replay(this, trace, device, host, storage, l3);
  }

  /**
   * Points {@code b} at the trace; {@code steps}, when not null, replaces the trace's own step count.
   * Fails (one line) when a request could never fit on the device: admission would stall behind it.
   */
  void configure(SimConfig.Builder b, List<MooncakeRequest> trace, int dp, int devicePages,
      Long steps) {
    long need = 0;
    for (MooncakeRequest r : trace) {
      need = Math.max(need, ((long) r.inputLength() + r.outputLength()) / pageSize + 1);
    }
    if (need > devicePages) {
      throw new IllegalArgumentException("the longest request needs " + need + " device pages, L1 has "
          + devicePages + ": raise --device-pages or --max-total-tokens");
    }
    MooncakeReplay.configure(b, trace, dp, timing(), String.valueOf(workload.getFileName()));
    if (steps != null) {
      b.steps(steps);
    }
  }
}
