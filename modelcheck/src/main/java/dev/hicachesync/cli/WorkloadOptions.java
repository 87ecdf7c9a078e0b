package dev.hicachesync.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Trace-replay options shared by {@code simulate --workload} and {@code sweep}, named as SGLang's
 * {@code server_args.py} names them where it has a name.
 *
 * <p>Capacities are per rank, in pages of {@code --page-size} tokens, because that is what the pools
 * allocate: L1 from {@code --max-total-tokens} (SGLang's name) or {@code --device-pages}; L2 from
 * {@code --hicache-ratio} × L1 (SGLang's default 2.0) or {@code --hicache-size} GB of host memory at
 * {@code --kv-bytes-per-token}; L3 from {@code --storage-pages} (0: unbounded, as a real backend).
 */
public final class WorkloadOptions {

  /** Write policies (ARCHITECTURE.md vocabulary, SGLang's values). */
  static final String WRITE_POLICIES = "write_through, write_through_selective, write_back";

  /** Prefetch policies (ARCHITECTURE.md vocabulary, SGLang's values). */
  static final String PREFETCH_POLICIES = "best_effort, wait_complete, timeout";

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--workload", paramLabel = "PATH.jsonl",
      description = "Replay a Mooncake NDJSON trace (timestamp, input_length, output_length, hash_ids).")
  Path workload;

  @Option(names = "--requests", paramLabel = "N",
      description = "Replay only the first N requests of the trace (default: all).")
  int requests;

  @Option(names = "--page-size", paramLabel = "TOKENS", defaultValue = "64",
      description = "Tokens per page, the cache's unit (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(names = "--device-pages", paramLabel = "PAGES",
      description = "L1 (device) capacity per rank in pages (default: 16384 = 1M tokens of 64).")
  Integer devicePages;

  @Option(names = "--max-total-tokens", paramLabel = "TOKENS",
      description = "L1 capacity per rank in tokens (SGLang's name; rounded down to whole pages).")
  Integer maxTotalTokens;

  @Option(names = "--hicache-ratio", paramLabel = "R", defaultValue = "2.0",
      description = "L2 (host) capacity as a multiple of L1 (default: ${DEFAULT-VALUE}; 0: no host tier).")
  double hicacheRatio;

  @Option(names = "--hicache-size", paramLabel = "GB", defaultValue = "0",
      description = "L2 capacity per rank in GB; overrides --hicache-ratio when > 0.")
  double hicacheSizeGb;

  @Option(names = "--kv-bytes-per-token", paramLabel = "BYTES", defaultValue = "131072",
      description = "KV bytes per token per rank, to turn GB into pages and pages into bytes moved "
          + "(default: ${DEFAULT-VALUE}, Llama-3-8B in bf16: 2 x 32 layers x 8 heads x 128 x 2 B).")
  long kvBytesPerToken;

  @Option(names = "--hicache-write-policy", paramLabel = "POLICY", defaultValue = "write_through",
      description = "L1 to L2 backup: " + WRITE_POLICIES + " (default: ${DEFAULT-VALUE}).")
  String writePolicy;

  @Option(names = "--hicache-storage-prefetch-policy", paramLabel = "POLICY", defaultValue = "best_effort",
      description = "L3 to L2 prefetch: " + PREFETCH_POLICIES + " (default: ${DEFAULT-VALUE}).")
  String prefetchPolicy;

  @Option(names = "--storage-pages", paramLabel = "PAGES", defaultValue = "0",
      description = "L3 capacity in pages (default: 0 = unbounded); the backend is chosen by --storage.")
  long storagePages;

  /** Default L1 capacity: 2^14 pages of 64 tokens = 1,048,576 tokens per rank. */
  static final int DEFAULT_DEVICE_TOKENS = 1 << 20;

  /** L1 pages per rank after validation. */
  int devicePages() {
    if (devicePages != null && maxTotalTokens != null) {
      throw bad("--device-pages and --max-total-tokens both set the L1 capacity: give one");
    }
    long pages = devicePages != null ? devicePages
        : (maxTotalTokens != null ? maxTotalTokens : DEFAULT_DEVICE_TOKENS) / pageSize;
    if (pages < 1) {
      throw bad("L1 capacity must be at least one page of " + pageSize + " tokens");
    }
    return (int) pages;
  }

  /** L2 pages per rank for host ratio {@code ratio} (or {@code --hicache-size} when set). */
  long hostPages(double ratio) {
    if (hicacheSizeGb > 0) {
      return (long) (hicacheSizeGb * 1e9 / (kvBytesPerToken * pageSize));
    }
    return (long) Math.floor(ratio * devicePages());
  }

  /** Bytes of one page of KV cache per rank. */
  long pageBytes() {
    return kvBytesPerToken * pageSize;
  }

  /** Checks the values a replay needs; picocli reports a failure as exit 2 with one line. */
  void validate() {
    if (pageSize < 1) {
      throw bad("--page-size must be >= 1, got " + pageSize);
    }
    devicePages();
    if (hicacheRatio < 0 || hicacheSizeGb < 0 || storagePages < 0 || requests < 0) {
      throw bad("--hicache-ratio, --hicache-size, --storage-pages and --requests must be >= 0");
    }
    if (kvBytesPerToken < 1) {
      throw bad("--kv-bytes-per-token must be >= 1, got " + kvBytesPerToken);
    }
    checkOneOf("--hicache-write-policy", writePolicy, WRITE_POLICIES);
    checkOneOf("--hicache-storage-prefetch-policy", prefetchPolicy, PREFETCH_POLICIES);
  }

  void checkOneOf(String flag, String value, String allowed) {
    for (String a : allowed.split(", ")) {
      if (a.equals(value)) {
        return;
      }
    }
    throw bad(flag + " must be one of " + allowed + ", got '" + value + "'");
  }

  ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
