package dev.hicachesync.sim.environment;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.workload.ForwardingWorkload;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sim.workload.Workload;
import dev.hicachesync.storage.FaultyStorageBackend;
import dev.hicachesync.storage.StorageBackend;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Faults of the environment for a soak ({@code simulate --faults SPEC}), as opposed to the protocol bugs
 * of {@link Fault}: the protocol must keep every rank in agreement through all of them.
 *
 * <p>Grammar: {@code KIND=P[,KIND=P]...}, each P a probability in [0, 1]:
 * <ul>
 *   <li>{@code read_fail}: a storage read batch fails (per batch; replaces the default 0.01);
 *   <li>{@code corrupt}: a page read finds its object corrupt (per page read);
 *   <li>{@code missing}: a page read finds its object gone, although S7's hit query saw it (per read);
 *   <li>{@code slow}: a background storage operation of a rank takes 1..32 extra ticks (per operation);
 *   <li>{@code abort}: an arriving request is aborted a few steps later (per request);
 *   <li>{@code abort_running}: an admitted request is aborted while it runs, after 1 to (decode steps − 1) of
 *       its decode steps (per admitted request with at least two decode steps): SGLang's abort of a running
 *       request, which finishes it with what it computed so far ({@code cache_finished_req}, no sync point);
 *   <li>{@code backend_error}: the storage backend throws on a read or write (per operation): the rank
 *       fails with {@code StorageBackendException}, its peers with the collective error, nothing hangs;
 *   <li>{@code oversized}: before a page read, its object file is grown to 3 GiB (sparse), as a runaway
 *       writer would leave it (per read; {@code --storage file}): a corrupt page, read no further than its
 *       header's size;
 *   <li>{@code forged}: before a page read, its object is rewritten with one payload byte changed, through
 *       the store (valid checksum, right key): a store forgery, which only the data check sees (per read;
 *       {@code --data on}).
 * </ul>
 * Each kind at most once. The storage kinds need a storage tier ({@link #check}).
 * Storage faults hit pipeline stage 0 only, as {@code read_fail} does: a later stage waits for the reads
 * of what stage 0 decided (see {@code Simulator}). Every draw comes from a source seeded by (run seed,
 * rank), so a seed replays its faults.
 */
public final class EnvironmentFaults {
  /** The kinds, in the order the report lists them. */
  static final String[] KINDS = {"read_fail", "corrupt", "missing", "slow", "abort", "backend_error", "oversized",
      "forged", "abort_running"};
  /** The kinds that act on the storage tier: meaningless with {@code --storage off}. */
  private static final java.util.Set<String> STORAGE_KINDS =
      java.util.Set.of("read_fail", "corrupt", "missing", "backend_error", "oversized", "forged");

  private final Map<String, Double> p;
  /** Storage faults injected, every rank of every run with these faults. */
  private final FaultyStorageBackend.Tally storage = new FaultyStorageBackend.Tally();
  /** Slow operations and aborted requests injected. */
  private final AtomicLong slow = new AtomicLong();
  private final AtomicLong aborts = new AtomicLong();

  /** The kinds the spec named, in its order. */
  private final java.util.Set<String> given;

  private EnvironmentFaults(Map<String, Double> p, java.util.Set<String> given) {
    this.p = p;
    this.given = java.util.Set.copyOf(given);
  }

  /**
   * Parses {@code spec}.
   *
   * @throws IllegalArgumentException one line naming the bad entry and the grammar
   */
  public static EnvironmentFaults parse(String spec) {
    String grammar = "; expected KIND=P[,KIND=P]... with KIND one of " + String.join(", ", KINDS)
        + " and P a probability in [0, 1]";
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("--faults is empty" + grammar);
    }
    Map<String, Double> p = new LinkedHashMap<>();
    for (String kind : KINDS) {
      p.put(kind, 0.0);
    }
    p.put("read_fail", -1.0); // not given: the configuration's own read failure rate
    java.util.Set<String> given = new java.util.LinkedHashSet<>();
    for (String part : spec.split(",", -1)) {
      String[] kv = part.trim().split("=", -1);
      String kind = kv[0].trim().toLowerCase(Locale.ROOT);
      if (kv.length != 2 || !p.containsKey(kind)) {
        throw new IllegalArgumentException("--faults: bad entry '" + part.trim() + "'" + grammar);
      }
      if (!given.add(kind)) {
        throw new IllegalArgumentException("--faults: " + kind + " is given twice; give each kind once");
      }
      double v;
      try {
        v = Double.parseDouble(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--faults: " + kind + " = '" + kv[1].trim() + "' is not a number" + grammar);
      }
      if (!(v >= 0 && v <= 1)) {
        throw new IllegalArgumentException("--faults: " + kind + " = " + kv[1].trim() + " is not in [0, 1]");
      }
      p.put(kind, v);
    }
    return new EnvironmentFaults(p, given);
  }

  /**
   * Refuses faults that {@code cfg} could never inject, so a soak cannot report zero faults of a kind the user
   * asked for: a storage kind with storage off, {@code oversized} without a file store (it grows the object's
   * file), {@code forged} without the data path (nothing else can see a forgery).
   *
   * @throws IllegalArgumentException one line naming the kind and the conflicting setting
   */
  public void check(SimConfig cfg) {
    for (String kind : given) {
      if (STORAGE_KINDS.contains(kind) && cfg.storage() == StorageMode.OFF) {
        throw new IllegalArgumentException("--faults " + kind + " acts on the storage tier, but --storage is off");
      }
    }
    if (given.contains("oversized") && cfg.storage() != StorageMode.FILE) {
      throw new IllegalArgumentException("--faults oversized grows page object files: it needs --storage file, got "
          + cfg.storage().name().toLowerCase(Locale.ROOT));
    }
    if (given.contains("forged") && !cfg.data().on()) {
      throw new IllegalArgumentException("--faults forged: only the data check can see a forged page (its checksum"
          + " and key are right); it needs --data on");
    }
  }

  /**
   * The faults as one canonical word, the kinds given in {@link #KINDS} order with their probabilities (e.g.
   * {@code corrupt=0.01,slow=0.2}): equal for two specs that inject the same faults however they were written,
   * which is what rank processes compare at their handshake.
   */
  public String canonical() {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String kind : KINDS) {
      if (given.contains(kind)) {
        out.add(kind + "=" + p.get(kind));
      }
    }
    return String.join(",", out);
  }

  /** Returns the probability of {@code kind} (read_fail: -1 when not given). */
  public double probability(String kind) {
    return p.get(kind);
  }

  /** Puts the timing and workload faults into {@code b}: read failures, slow operations, aborts. */
  public SimConfig.Builder apply(SimConfig.Builder b, Timing.Factory timing, Workload.Factory workload) {
    if (given.contains("abort_running")) {
      b.abortRunning(p.get("abort_running"));
    }
    if (p.get("read_fail") >= 0) {
      b.readFailure(p.get("read_fail"));
    }
    double slowP = p.get("slow");
    if (slowP > 0) {
      Timing.Factory base = timing != null ? timing : SeededTiming.factory();
      b.timing((seed, rank, readFailure) -> slowed(base.create(seed, rank, readFailure),
          new SplittableRandom(seed * 31 + rank * 7919L + 1), slowP));
    }
    double abortP = p.get("abort");
    if (abortP > 0 && workload != null) {
      b.workload((seed, dp) -> aborting(workload.create(seed, dp), new SplittableRandom(seed * 131 + dp), abortP));
    }
    return b;
  }

  /** Returns each rank's store wrapped with the storage faults (stage 0 only), or {@code stores} itself. */
  public StorageBackend[] wrapStores(SimConfig cfg, StorageBackend[] stores) {
    double c = p.get("corrupt");
    double m = p.get("missing");
    double e = p.get("backend_error");
    double o = p.get("oversized");
    double f = p.get("forged");
    if (c + m + e + o + f == 0) {
      return stores;
    }
    StorageBackend[] out = stores.clone();
    for (int r = 0; r < out.length; r++) {
      if (out[r] != null && cfg.topology().coords(r).pp() == 0) {
        out[r] = new FaultyStorageBackend(out[r], r, cfg.seed(), c, m, e, o, f, o > 0 ? objectFiles(out[r]) : null,
            storage);
      }
    }
    return out;
  }

  /** The object files of a file store (bounded or not), for the oversized fault. */
  private static java.util.function.Function<dev.hicachesync.storage.PageKey, java.nio.file.Path> objectFiles(
      StorageBackend s) {
    StorageBackend inner = s instanceof dev.hicachesync.storage.LruStorageBackend lru ? lru.delegate() : s;
    if (inner instanceof dev.hicachesync.storage.FileStorageBackend file) {
      return file::pathOf;
    }
    throw new IllegalArgumentException("--faults oversized needs --storage file");
  }

  /**
   * One line: the faults injected by kind (read failures are the report's failed batches); oversized and forged
   * only when asked for, so the line of a soak without them reads as it always did.
   */
  public String describe() {
    String extra = (given.contains("oversized") ? ", oversized " + storage.oversized() : "")
        + (given.contains("forged") ? ", forged " + storage.forged() : "");
    return String.format(Locale.ROOT, "faults injected: corrupt %d, missing %d, slow %d, abort %d, backend_error %d%s",
        storage.corrupt(), storage.missing(), slow.get(), aborts.get(), storage.backendErrors(), extra);
  }

  private Timing slowed(Timing t, SplittableRandom rnd, double prob) {
    return new ForwardingTiming(t) {
      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        long ticks = super.backgroundTicks(kind, pages);
        if (rnd.nextDouble() < prob) {
          slow.incrementAndGet();
          ticks += 1 + rnd.nextInt(32);
        }
        return ticks;
      }
    };
  }

  private Workload aborting(Workload w, SplittableRandom rnd, double prob) {
    // Forwarding: the replay report finds the trace's per-request tiers in the workload underneath.
    return new ForwardingWorkload(w) {
      @Override
      public java.util.List<Request> arrivals(long step) {
        java.util.List<Request> in = super.arrivals(step);
        if (in.isEmpty()) {
          return in;
        }
        java.util.List<Request> out = new java.util.ArrayList<>(in.size());
        for (Request r : in) {
          if (r.abortStep() < 0 && rnd.nextDouble() < prob) {
            aborts.incrementAndGet();
            r = new Request(r.rid(), r.prompt(), r.output(), r.decodeSteps(), r.eligibleStep(),
                r.eligibleStep() + 1 + rnd.nextInt(3));
          }
          out.add(r);
        }
        return out;
      }
    };
  }

  /** Storage faults injected, every rank of every run with these faults (read-only counts). */
  public FaultyStorageBackend.Tally storage() {
    return storage;
  }

  /** Slow operations injected. */
  public long slow() {
    return slow.get();
  }

  /** Aborted requests injected. */
  public long aborts() {
    return aborts.get();
  }
}
