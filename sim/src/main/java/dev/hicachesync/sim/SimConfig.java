package dev.hicachesync.sim;

import dev.hicachesync.controller.ControllerConfig;
import dev.hicachesync.controller.ControllerFaults;
import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.monitor.ConsensusMonitor;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.FaultParts;
import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sim.workload.Workload;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * Everything a simulation depends on; one seed drives every random choice. Build with {@link #builder()};
 * the defaults are the knobs' reference values.
 *
 * @param topology the rank grid
 * @param steps scheduler steps to run
 * @param seed the one seed
 * @param version protocol version
 * @param storage L3 backend
 * @param storageDir folder of the file backend, null for a fresh temporary one
 * @param storagePages L3 capacity per rank in pages, each rank's own LRU shard ({@link #UNBOUNDED}: one
 *     store shared by every rank, never evicting)
 * @param prefetchPolicy prefetch stop policy
 * @param writePolicy write policy
 * @param faults injected bugs (none by default)
 * @param pageSize tokens per page
 * @param devicePages L1 pages per rank
 * @param hostPages L2 pages per rank
 * @param maxRunning requests running at once per replica
 * @param readFailure probability that a storage read batch fails (stage 0 only under PP)
 * @param collectiveTimeout how long a rank waits in a collective before the run fails
 * @param workload the request source; null for the synthetic multi-turn sessions
 * @param fullDigestEvery steps between canonical tree digest cross-checks
 * @param timing the per-rank environment schedule; null for {@link SeededTiming}
 * @param logFile where to write the readable event log (one line per reduction), or null for none
 * @param drainSteps steps run after {@code steps} without new requests, after which every rank must be
 *     quiet: no acks, prefetches or requests left, no page leaked (0: no drain)
 * @param data whether copies move real KV bytes and how (off by default: page counts only)
 * @param specShaped the spec-shaped request stream and scheduler ({@link SpecShaped}), or null for the
 *     simulator's own (the default)
 * @param storageDurable whether the file backend forces each page object, then its folder, to disk
 *     (fsync; off by default: the simulator's stores are scratch)
 * @param hostBufferOnly {@code unified} only: {@code --hicache-host-memory-mode buffer_only} (#34798), storage
 *     hits the host pool cannot serve at the hit drain are parked and retried instead of revoked (off: cache)
 * @param abortRunning probability that an admitted request is aborted while it runs, before its last decode step
 *     (a soak's {@code abort_running}; 0 by default): drawn from the seed and the request's id, the same on every
 *     rank
 * @param consensusMonitor the consensus checker the ranks' decorated calls report to (one sync domain: its ranks
 *     are the run's), or null for none
 */
public record SimConfig(
    Topology topology, long steps, long seed, ProtocolVersion version, StorageMode storage,
    Path storageDir, long storagePages, PrefetchPolicy prefetchPolicy, WritePolicy writePolicy, Set<Fault> faults,
    int pageSize, int devicePages, int hostPages, int maxRunning, double readFailure,
    Duration collectiveTimeout, Workload.Factory workload, int fullDigestEvery, long drainSteps,
    Timing.Factory timing, Path logFile, DataOptions data, SpecShaped specShaped,
    boolean storageDurable, boolean hostBufferOnly, double abortRunning, ConsensusMonitor consensusMonitor) {

  /** {@link #storagePages} of an L3 that never evicts. */
  public static final long UNBOUNDED = 0;

  /**
   * Most pages of one rank's device or host pool: 2^24 (a billion tokens at 64 per page, far past any GPU or
   * host memory). Every pool allocates its free list and slot ledger up front, so a larger count is refused
   * before anything is allocated, instead of exhausting the heap.
   */
  public static final int MAX_POOL_PAGES = 1 << 24;

  /** Most tokens per page: 2^16 (SGLang's pages are 1 to a few hundred tokens); a page's tokens are arrays. */
  public static final int MAX_PAGE_SIZE = 1 << 16;

  /** Returns whether the L3 has a capacity (then every rank has its own bounded shard). */
  public boolean storageBounded() {
    return storage != StorageMode.OFF && storagePages != UNBOUNDED;
  }

  /** Returns a builder with the reference defaults (dp=1, cp=2, tp=2, 20,000 steps, seed 7, merged, timeout). */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the controller configuration every rank uses. */
  public ControllerConfig controllerConfig() {
    // A spec-shaped unified run's prefetch timeout never fires: HiCacheUnified's clock (env.clk) fires at most
    // once per rank per run and is never reset, so a timeout that fired for one request and not for the next
    // would be no behaviour of the spec; S4 still runs, MAX of 0s, and the prefetch completes at its final ack.
    long timeoutBase = specShaped != null && version == ProtocolVersion.UNIFIED ? Long.MAX_VALUE / 4 : 12;
    return new ControllerConfig(pageSize, devicePages, hostPages, writePolicy, prefetchPolicy,
        storage != StorageMode.OFF, specShaped != null ? pageSize : 4 * pageSize, pageSize, specShaped != null ? 1 : 8,
        timeoutBase, 4, 64L * 1024); // spec-shaped: one-page keys need a one-page threshold to be prefetched at
    // all, and the I/O thread reads a key page by page (the spec's StorageReadsPage)
  }

  /** Returns the deliberate bugs the controller of every rank is built with (the simulator's seam). */
  ControllerFaults controllerFaults() {
    return FaultParts.controllerFaults(faults);
  }

  /** A mutable builder; every setter returns it. */
  public static final class Builder {
    private Topology topology = Topology.of(1, 2, 2, 1);
    private long steps = 20_000;
    private long seed = 7;
    private ProtocolVersion version = ProtocolVersion.DEFAULT;
    private StorageMode storage = StorageMode.MEMORY;
    private Path storageDir;
    private long storagePages = UNBOUNDED;
    // timeout, not SGLang's best_effort: the default run then exercises every sync point (S4 included) and L3.
    private PrefetchPolicy prefetchPolicy = PrefetchPolicy.TIMEOUT;
    private WritePolicy writePolicy = WritePolicy.WRITE_THROUGH;
    private Set<Fault> faults = EnumSet.noneOf(Fault.class);
    private int pageSize = 64;
    private int devicePages = 192;
    // Below the synthetic working set (~600 pages), so host eviction sends sessions back to L3.
    private int hostPages = 256;
    private int maxRunning = 8;
    private double readFailure = 0.01;
    private Duration collectiveTimeout = Duration.ofSeconds(10);
    private Workload.Factory workload;
    private int fullDigestEvery = 1024;
    private long drainSteps;
    private Path logFile;
    private Timing.Factory timing;
    private DataOptions data = DataOptions.OFF;
    private SpecShaped specShaped;
    private boolean storageDurable;
    private boolean hostBufferOnly;
    private double abortRunning;
    private ConsensusMonitor consensusMonitor;

    public Builder topology(Topology t) { this.topology = t; return this; }
    public Builder steps(long s) { this.steps = s; return this; }
    public Builder seed(long s) { this.seed = s; return this; }
    public Builder version(ProtocolVersion v) { this.version = v; return this; }
    public Builder storage(StorageMode s) { this.storage = s; return this; }
    public Builder storageDir(Path p) { this.storageDir = p; return this; }
    public Builder storagePages(long p) { this.storagePages = p; return this; }
    public Builder prefetchPolicy(PrefetchPolicy p) { this.prefetchPolicy = p; return this; }
    public Builder writePolicy(WritePolicy w) { this.writePolicy = w; return this; }
    public Builder faults(Set<Fault> f) { this.faults = f.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(f); return this; }
    public Builder pageSize(int p) { this.pageSize = p; return this; }
    public Builder devicePages(int p) { this.devicePages = p; return this; }
    public Builder hostPages(int p) { this.hostPages = p; return this; }
    public Builder maxRunning(int m) { this.maxRunning = m; return this; }
    public Builder readFailure(double p) { this.readFailure = p; return this; }
    public Builder collectiveTimeout(Duration d) { this.collectiveTimeout = d; return this; }
    public Builder workload(Workload.Factory w) { this.workload = w; return this; }
    public Builder fullDigestEvery(int n) { this.fullDigestEvery = n; return this; }
    public Builder drainSteps(long n) { this.drainSteps = n; return this; }
    public Builder logFile(Path p) { this.logFile = p; return this; }
    public Builder timing(Timing.Factory t) { this.timing = t; return this; }
    public Builder data(DataOptions d) { this.data = d; return this; }
    public Builder specShaped(SpecShaped s) { this.specShaped = s; return this; }
    public Builder storageDurable(boolean d) { this.storageDurable = d; return this; }
    public Builder hostBufferOnly(boolean b) { this.hostBufferOnly = b; return this; }
    public Builder abortRunning(double p) { this.abortRunning = p; return this; }
    public Builder consensusMonitor(ConsensusMonitor m) { this.consensusMonitor = m; return this; }

    /** Returns the configuration; throws {@link IllegalArgumentException} (one line) for bad values. */
    public SimConfig build() {
      if (steps < 0) {
        throw new IllegalArgumentException("steps must be >= 0, got " + steps);
      }
      if (pageSize < 1 || devicePages < 1 || hostPages < 0 || maxRunning < 1) {
        throw new IllegalArgumentException("page size, device pages and max running must be >= 1");
      }
      if (pageSize > MAX_PAGE_SIZE) {
        throw new IllegalArgumentException("a page of " + pageSize + " tokens is over the bound of " + MAX_PAGE_SIZE
            + " tokens per page");
      }
      if (devicePages > MAX_POOL_PAGES || hostPages > MAX_POOL_PAGES) {
        throw new IllegalArgumentException("a pool of " + Math.max(devicePages, hostPages) + " pages per rank ("
            + (devicePages > MAX_POOL_PAGES ? "L1 device" : "L2 host") + ") is over the bound of " + MAX_POOL_PAGES
            + " pages (2^24): every pool is allocated up front");
      }
      if (storagePages < 0) {
        throw new IllegalArgumentException("L3 capacity must be >= 1 page (or unbounded), got " + storagePages);
      }
      if (storagePages != UNBOUNDED && storage == StorageMode.OFF) {
        throw new IllegalArgumentException("an L3 capacity needs a storage backend, but storage is off");
      }
      if (storageDurable && storage != StorageMode.FILE) {
        throw new IllegalArgumentException("durable storage (fsync) needs the file backend, but storage is "
            + storage);
      }
      if (storagePages != UNBOUNDED && topology.pp() > 1) {
        // A later stage blocks on its own reads of what stage 0 decided (CheckPrefetchProgress); a page
        // its shard evicted after S7 would never arrive and the stage would wait forever.
        throw new IllegalArgumentException("an L3 capacity needs pp = 1: a later pipeline stage cannot "
            + "lose a page it must read, got pp " + topology.pp());
      }
      if (!(abortRunning >= 0 && abortRunning <= 1)) {
        throw new IllegalArgumentException("the probability of aborting a running request must be in [0, 1], got "
            + abortRunning);
      }
      if (consensusMonitor != null && consensusMonitor.ranks() != topology.worldSize()) {
        throw new IllegalArgumentException("a consensus monitor watches one sync domain: it has "
            + consensusMonitor.ranks() + " ranks, the run " + topology.worldSize());
      }
      FaultParts.checkVersion(faults, version);
      FaultParts.checkStages(faults, topology.pp());
      if (faults.contains(Fault.PD_DECODE_RESTORE) && data.on()) {
        throw new IllegalArgumentException("fault pd_decode_restore places prompts on the host tier without their"
            + " bytes (the restore source is not modelled): run it with --data off");
      }
      if (version == ProtocolVersion.PIPELINED && topology.pp() > 1) {
        throw new IllegalArgumentException("version pipelined (proposal #39903) is modelled with one stage"
            + " (HiCacheSync.tla): got pp " + topology.pp());
      }
      if (hostBufferOnly && version != ProtocolVersion.UNIFIED) {
        throw new IllegalArgumentException("host memory mode buffer_only is a path of version unified only"
            + " (#34798); got --version " + version);
      }
      SimConfig c = new SimConfig(topology, steps, seed, version, storage, storageDir, storagePages, prefetchPolicy,
          writePolicy, java.util.Collections.unmodifiableSet(EnumSet.copyOf(faults)), pageSize,
          devicePages, hostPages, maxRunning, readFailure, collectiveTimeout, workload, fullDigestEvery,
          drainSteps, timing, logFile, data, specShaped, storageDurable, hostBufferOnly, abortRunning,
          consensusMonitor);
      if (specShaped != null) {
        specShaped.check(c);
      }
      return c;
    }
  }
}
