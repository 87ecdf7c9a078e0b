package dev.hicachesync.sim;

import dev.hicachesync.sim.workload.Workload;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a simulation measured: request and hit counts (summed over sync domains, counted once per domain),
 * data movement (summed over every rank), prefetch outcomes and collectives.
 *
 * <p>Why methods rather than fields: the simulator's classes in this package fill the figures in (the
 * package-private methods below, named by what they record), everything else only reads them (the public
 * getters), so no report or test outside this package can change one.
 */
public final class SimStats {
  private long steps;
  private int ranks;
  private long arrived;
  private long admitted;
  private long finished;
  private long aborted;
  /** Of {@link #aborted}, the requests aborted while they ran (shown only when there are any). */
  private long abortedRunning;
  private long promptTokens;
  private long deviceHitTokens;
  private long hostHitTokens;
  private long storageHitTokens;
  private long computedTokens;
  private long collectives;
  private long deviceToHostCopies;
  private long deviceToHostPages;
  private long hostToDeviceCopies;
  private long hostToDevicePages;
  private long storageReadPages;
  private long storageWritePages;
  private long storageReadFailures;
  /** Page objects reads found corrupt (every rank); each was a failed read, none was inserted. */
  private long storageCorruptPages;
  /** Of those, store forgeries: checksum and key right, payload not the page's (seen by the data check). */
  private long storageForgedPages;
  /** Page objects the file store held when the run opened it (a reused {@code --storage-dir}). */
  private long storagePagesAtStart;
  /** Whether the file store forced its writes to disk ({@code --storage-durable}). */
  private boolean storageDurable;
  /** Page objects, and then their folders, a durable file store forced to disk. */
  private long storageFilesForced;
  private long storageFoldersForced;
  /** L3 capacity per rank in pages; {@link SimConfig#UNBOUNDED} when the store never evicts. */
  private long storageCapacityPages = SimConfig.UNBOUNDED;
  /** Pages the bounded L3 shards evicted to make room (every rank). */
  private long storageEvictedPages;
  private long prefetchesIssued;
  private long prefetchesRevoked;
  private long prefetchesTerminated;
  private long prefetchesCompleted;
  private long prefetchesAborted;
  /** Buffer-only host memory (unified, #34798): hits parked, and parked hits granted later (every domain). */
  private long prefetchesParked;
  private long parkedHitsGranted;
  /** Whether the run used buffer-only host memory (the report then says how many hits parked). */
  private boolean hostBufferOnly;
  private long pageBytes;
  /** The device tier the data path used, or null when no bytes moved. */
  private String deviceTier;
  /** The host layout and page shape of the data path, or null when no bytes moved. */
  private String hostLayout;
  /** Bytes the data path really moved (copies and storage I/O, every rank). */
  private long dataBytes;
  /** Pages whose bytes were checked on arrival (every rank). */
  private long checkedPages;
  /**
   * The workload instance of each sync domain's first rank, in rank order: one per domain, so the
   * per-request figures a workload gathers through {@link Workload#admitted} count once per domain.
   */
  private final List<Workload> domainWorkloads = new ArrayList<>();

  // ---------------------------------------------------------------- recording (the simulator, this package)

  /** Records the run's length: {@code steps} completed over {@code ranks} ranks. */
  void ran(long steps, int ranks) {
    this.steps = steps;
    this.ranks = ranks;
  }

  /** Records the bytes of one page (nominal, or the data path's real page size). */
  void pageBytes(long bytes) {
    this.pageBytes = bytes;
  }

  /** Records the data path's device tier and host layout (real bytes moved). */
  void dataPath(String deviceTier, String hostLayout) {
    this.deviceTier = deviceTier;
    this.hostLayout = hostLayout;
  }

  /** Adds one rank's data path figures: bytes moved and pages checked on arrival. */
  void addData(long bytes, long checkedPages) {
    this.dataBytes += bytes;
    this.checkedPages += checkedPages;
  }

  /** Adds a sync domain's workload (its first rank's), in rank order. */
  void addDomainWorkload(Workload w) {
    domainWorkloads.add(w);
  }

  /** Adds page objects a file store held when the run opened it. */
  void addStoragePagesAtStart(long pages) {
    storagePagesAtStart += pages;
  }

  /** Records whether the file store forced its writes to disk. */
  void storageDurable(boolean durable) {
    this.storageDurable = durable;
  }

  /** Adds the page files, and then folders, a durable file store forced to disk. */
  void addStorageForced(long files, long folders) {
    storageFilesForced += files;
    storageFoldersForced += folders;
  }

  /** Records the L3 capacity per rank in pages (bounded stores only). */
  void storageCapacityPages(long pages) {
    this.storageCapacityPages = pages;
  }

  /** Adds pages a bounded L3 shard evicted. */
  void addStorageEvictedPages(long pages) {
    storageEvictedPages += pages;
  }

  /** Records whether the run used buffer-only host memory. */
  void hostBufferOnly(boolean bufferOnly) {
    this.hostBufferOnly = bufferOnly;
  }

  /**
   * Adds another run's request, hit, copy and prefetch counts, and its steps: the totals a battery of runs
   * reports (the other figures stay this run's).
   */
  void addRun(SimStats s) {
    steps += s.steps;
    arrived += s.arrived;
    admitted += s.admitted;
    finished += s.finished;
    aborted += s.aborted;
    abortedRunning += s.abortedRunning; // part of aborted: summed with it, or the total reads wrong
    hostHitTokens += s.hostHitTokens;
    storageHitTokens += s.storageHitTokens;
    deviceToHostCopies += s.deviceToHostCopies;
    prefetchesIssued += s.prefetchesIssued;
    prefetchesTerminated += s.prefetchesTerminated;
    storageReadFailures += s.storageReadFailures;
  }

  void addDomain(EngineStats e, ControllerCounts c) {
    arrived += e.arrived();
    admitted += e.admitted();
    finished += e.finished();
    aborted += e.aborted();
    abortedRunning += e.abortedRunning();
    promptTokens += e.promptTokens();
    deviceHitTokens += e.deviceHitTokens();
    hostHitTokens += e.hostHitTokens();
    storageHitTokens += e.storageHitTokens();
    computedTokens += e.computedTokens();
    prefetchesIssued += c.prefetchesIssued();
    prefetchesRevoked += c.prefetchesRevoked();
    prefetchesTerminated += c.prefetchesTerminated();
    prefetchesCompleted += c.prefetchesCompleted();
    prefetchesAborted += c.prefetchesAborted();
    prefetchesParked += c.prefetchesParked();
    parkedHitsGranted += c.parkedHitsGranted();
  }

  void addRank(EngineStats e, ControllerCounts c, long controllerCollectives) {
    collectives += e.recvCollectives() + controllerCollectives;
    deviceToHostCopies += c.deviceToHostCopies();
    deviceToHostPages += c.deviceToHostPages();
    hostToDeviceCopies += c.hostToDeviceCopies();
    hostToDevicePages += c.hostToDevicePages();
    storageReadPages += c.storageReadPages();
    storageWritePages += c.storageWritePages();
    storageReadFailures += c.storageReadFailures();
    storageCorruptPages += c.storageCorruptPages();
    storageForgedPages += c.storageForgedPages();
  }

  /** Returns the fraction of prompt tokens served from {@code tokens}. */
  public double rate(long tokens) {
    return promptTokens == 0 ? 0 : (double) tokens / promptTokens;
  }

  /** Returns the collectives one rank issued per step, on average. */
  public double collectivesPerRankStep() {
    return steps == 0 || ranks == 0 ? 0 : (double) collectives / ranks / steps;
  }

  /** Returns the report lines (no seed, no divergence). */
  public String describe() {
    double mib = 1024.0 * 1024.0;
    return String.format(Locale.ROOT,
        "requests: arrived %d, admitted %d, finished %d, aborted %d%s, prompt tokens %d%n"
            + "hit rate (tokens): L1 device %.1f%%, L2 host %.1f%%, L3 storage %.1f%%, miss %.1f%%%n"
            + "collectives per step: %.2f per rank (%d in all)%n"
            + "copies: device->host %d (%d pages, %.1f MiB), host->device %d (%d pages, %.1f MiB)%n"
            + "storage: read %d pages (%.1f MiB, %d failed batches), written %d pages (%.1f MiB)%n"
            + "prefetches: issued %d, revoked %d, terminated %d, completed %d, aborted %d",
        arrived, admitted, finished, aborted, abortedRunning > 0 ? " (" + abortedRunning + " while running)" : "",
        promptTokens,
        100 * rate(deviceHitTokens), 100 * rate(hostHitTokens), 100 * rate(storageHitTokens),
        100 * rate(computedTokens), collectivesPerRankStep(), collectives,
        deviceToHostCopies, deviceToHostPages, deviceToHostPages * pageBytes / mib,
        hostToDeviceCopies, hostToDevicePages, hostToDevicePages * pageBytes / mib,
        storageReadPages, storageReadPages * pageBytes / mib, storageReadFailures,
        storageWritePages, storageWritePages * pageBytes / mib,
        prefetchesIssued, prefetchesRevoked, prefetchesTerminated, prefetchesCompleted, prefetchesAborted)
        + System.lineSeparator() + describeStorageHealth() + describeStorageCapacity() + describeData();
  }

  /**
   * Returns the store's health lines: corrupt pages read (failed reads), and pages found at start (a
   * reused folder explains a result that differs from the same seed's first run); nothing if neither.
   */
  private String describeStorageHealth() {
    String out = "";
    if (storageCorruptPages > 0) {
      out += String.format(Locale.ROOT, "corrupt pages: %d (failed reads: never inserted)%n", storageCorruptPages);
    }
    if (storageForgedPages > 0) {
      out += String.format(Locale.ROOT, "store forgery: %d of the corrupt pages passed their checksum and named"
          + " their key but held other bytes than were written for it (the data check saw it; failed reads)%n",
          storageForgedPages);
    }
    if (hostBufferOnly) {
      out += String.format(Locale.ROOT, "host memory: buffer_only, %d storage hits parked, %d granted later%n",
          prefetchesParked, parkedHitsGranted);
    }
    if (storageDurable) {
      out += String.format(Locale.ROOT, "storage durability: fsync, %d page files then %d folders forced%n",
          storageFilesForced, storageFoldersForced);
    }
    if (storagePagesAtStart > 0) {
      out += String.format(Locale.ROOT, "storage not empty at start: %d pages found (--fresh-storage starts "
          + "from an empty store)%n", storagePagesAtStart);
    }
    return out;
  }

  /** Returns the L3 capacity line, or nothing when the store is unbounded (the line would say only that). */
  private String describeStorageCapacity() {
    if (storageCapacityPages == SimConfig.UNBOUNDED) {
      return "";
    }
    return String.format(Locale.ROOT, "storage capacity: %d pages per rank (LRU), evicted %d pages%n",
        storageCapacityPages, storageEvictedPages);
  }

  /** Returns the data path lines: the device tier and host layout, or that only page counts moved. */
  private String describeData() {
    if (deviceTier == null) {
      return String.format(Locale.ROOT, "data path: off (MiB above are pages x %d KiB nominal)", pageBytes / 1024);
    }
    return String.format(Locale.ROOT, "device tier: %s%nhost layout: %s%ndata path: moved %.1f MiB, checked %d pages on arrival", deviceTier, hostLayout, dataBytes / (1024.0 * 1024.0), checkedPages);
  }

  /** The statistics of an in-JVM run of {@code cfg} over its {@code engines}, {@code completed} steps in. */
  static SimStats of(SimConfig cfg, Topology t, RankEngine[] engines, long completed) {
    SimStats s = new SimStats();
    s.ran(completed, engines.length);
    s.pageBytes(cfg.controllerConfig().pageBytes());
    if (cfg.data().on()) {
      // Real bytes: the page counts are multiplied by the data path's page size.
      s.pageBytes(cfg.data().pageBytes());
      s.dataPath(engines[0].data().tierName(), String.format("%s, page %d B (%d layers x %d B)",
          cfg.data().hostLayout().label(), cfg.data().pageBytes(), cfg.data().layers(), cfg.data().layerBytes()));
    }
    for (RankEngine e : engines) {
      if (e.data() != null) {
        s.addData(e.data().movedBytes(), e.data().checkedPages());
      }
      if (t.syncDomain(e.rank()).get(0) == e.rank()) {
        s.addDomain(e.stats(), ControllerCounts.of(e.controller().view().stats()));
        s.addDomainWorkload(e.workload());
      }
      s.addRank(e.stats(), ControllerCounts.of(e.controller().view().stats()), e.controller().view().collectives());
    }
    return s;
  }

  // ---------------------------------------------------------------- reading

  public long steps() { return steps; }
  public int ranks() { return ranks; }
  public long arrived() { return arrived; }
  public long admitted() { return admitted; }
  public long finished() { return finished; }
  public long aborted() { return aborted; }
  public long abortedRunning() { return abortedRunning; }
  public long promptTokens() { return promptTokens; }
  public long deviceHitTokens() { return deviceHitTokens; }
  public long hostHitTokens() { return hostHitTokens; }
  public long storageHitTokens() { return storageHitTokens; }
  public long computedTokens() { return computedTokens; }
  public long collectives() { return collectives; }
  public long deviceToHostCopies() { return deviceToHostCopies; }
  public long deviceToHostPages() { return deviceToHostPages; }
  public long hostToDeviceCopies() { return hostToDeviceCopies; }
  public long hostToDevicePages() { return hostToDevicePages; }
  public long storageReadPages() { return storageReadPages; }
  public long storageWritePages() { return storageWritePages; }
  public long storageReadFailures() { return storageReadFailures; }
  public long storageCorruptPages() { return storageCorruptPages; }
  public long storageForgedPages() { return storageForgedPages; }
  public long storagePagesAtStart() { return storagePagesAtStart; }
  public boolean storageDurable() { return storageDurable; }
  public long storageFilesForced() { return storageFilesForced; }
  public long storageFoldersForced() { return storageFoldersForced; }
  public long storageCapacityPages() { return storageCapacityPages; }
  public long storageEvictedPages() { return storageEvictedPages; }
  public long prefetchesIssued() { return prefetchesIssued; }
  public long prefetchesRevoked() { return prefetchesRevoked; }
  public long prefetchesTerminated() { return prefetchesTerminated; }
  public long prefetchesCompleted() { return prefetchesCompleted; }
  public long prefetchesAborted() { return prefetchesAborted; }
  public long prefetchesParked() { return prefetchesParked; }
  public long parkedHitsGranted() { return parkedHitsGranted; }
  public boolean hostBufferOnly() { return hostBufferOnly; }
  public long pageBytes() { return pageBytes; }
  public String deviceTier() { return deviceTier; }
  public String hostLayout() { return hostLayout; }
  public long dataBytes() { return dataBytes; }
  public long checkedPages() { return checkedPages; }
  /** Returns the workload of each sync domain's first rank, in rank order (read-only). */
  public List<Workload> domainWorkloads() {
    return java.util.Collections.unmodifiableList(domainWorkloads);
  }
}
