package dev.hicachesync.sim;

import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.storage.LruStorageBackend;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.StorageBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The L3 stores of one simulation: opened for the ranks this process hosts, counted (pages found at the start,
 * pages evicted, files and folders forced) into the statistics, and the temporary folders of file stores the
 * run made itself removed at its end.
 */
final class RunStores {
  private final SimConfig cfg;
  /** A replay for a divergence report: starts from empty stores, whatever folder the run it repeats named. */
  private final boolean replay;
  private final IntPredicate hosts;
  /** Each rank's L3, set by {@link #open(int)}. */
  private StorageBackend[] stores = new StorageBackend[0];
  /** Temporary folders of file stores the run made itself (no --storage-dir): removed when it ends. */
  private final List<Path> tempStores = new ArrayList<>();
  /** Page objects the file stores held when opened (a reused --storage-dir); 0 for fresh stores. */
  private long pagesAtStart;
  /** This run's file stores (their fsync counts go into the statistics at the end). */
  private final List<FileStorageBackend> fileStores = Collections.synchronizedList(new ArrayList<>());

  RunStores(SimConfig cfg, boolean replay, IntPredicate hosts) {
    this.cfg = cfg;
    this.replay = replay;
    this.hosts = hosts;
  }

  /**
   * Returns each rank's L3 (nulls when storage is off).
   *
   * <p>Unbounded: one store shared by every rank, as a real L3 is; nothing is ever deleted, so whether a
   * rank sees a peer's object depends only on whether the peer wrote it, which for ranks of one sync
   * domain the lockstep collectives order (writes run before RECV).
   *
   * <p>Bounded ({@code storagePages}): every rank gets its own shard of that many pages, an {@link
   * LruStorageBackend} over its own memory map or its own folder {@code rank-N}. Why not one shared
   * bounded store: evictions would then happen in the order rank threads reach the store, so which pages
   * a rank finds (S7's local hit, a read that fails) would depend on thread timing, and a seed would not
   * replay. A shard is touched only by its rank's thread, in that rank's event order, and its LRU clock
   * is that call order, so eviction is a pure function of (seed, rank) like the rest of the rank's
   * environment. Agreement does not rest on the shards agreeing: S7 MIN-reduces the local hits and S5 the
   * pages read, so a page one rank evicted and another kept is read by neither (an evicted page that
   * was already counted in S7 is a failed read, which the protocol handles). The capacity is per rank,
   * as SGLang sizes its host tier ({@code --hicache-size} is per rank); peers no longer see each other's
   * objects, which matters only with {@code --dp > 1}, where replicas hit each other's pages in the
   * shared store (in an order the threads decide).
   */
  StorageBackend[] open(int world) {
    StorageBackend[] out = new StorageBackend[world];
    this.stores = out;
    if (cfg.storage() == StorageMode.OFF) {
      return out;
    }
    if (!cfg.storageBounded()) {
      Arrays.fill(out, open(cfg.storageDir() != null && !replay ? cfg.storageDir() : null));
      return out;
    }
    // A replay starts from empty shards in temporary folders, as the run it repeats did.
    Path root = cfg.storageDir() != null && !replay ? cfg.storageDir() : null;
    for (int r = 0; r < world; r++) {
      if (!hosts.test(r)) {
        continue;
      }
      out[r] = new LruStorageBackend(open(root == null ? null : root.resolve("rank-" + r)), cfg.storagePages());
    }
    return out;
  }


  /**
   * Returns a fresh memory store, or a file store under {@code dir} (null: a new temporary folder, removed
   * when the run ends; a folder the user named is kept, and the pages it already held are counted).
   */
  private StorageBackend open(Path dir) {
    if (cfg.storage() == StorageMode.MEMORY) {
      return new MemoryStorageBackend();
    }
    Path folder = dir;
    if (folder == null) {
      try {
        folder = Files.createTempDirectory("hicache-sim-");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      synchronized (tempStores) {
        tempStores.add(folder);
      }
    }
    FileStorageBackend store = new FileStorageBackend(folder, cfg.storageDurable());
    pagesAtStart += store.pagesAtOpen();
    fileStores.add(store);
    return store;
  }

  /** Page objects the stores held when opened. */
  long pagesAtStart() {
    return pagesAtStart;
  }

  /** Pages the bounded L3 shards have evicted (0 when unbounded). */
  long evictedPages() {
    long n = 0;
    if (cfg.storageBounded()) {
      for (StorageBackend b : stores) {
        n += b == null ? 0 : ((LruStorageBackend) b).evicted();
      }
    }
    return n;
  }

  /** Adds the stores' figures to {@code stats}. */
  void addTo(SimStats stats) {
    stats.addStoragePagesAtStart(pagesAtStart); // a fresh SimStats: 0 until here
    for (FileStorageBackend f : fileStores) {
      stats.addStorageForced(f.filesForced(), f.foldersForced());
    }
    if (cfg.storageBounded()) {
      stats.storageCapacityPages(cfg.storagePages());
      for (StorageBackend b : stores) {
        stats.addStorageEvictedPages(((LruStorageBackend) b).evicted());
      }
    }
  }

  /** Removes the temporary folders of this run's file stores (every rank thread has ended). */
  void deleteTemp() {
    synchronized (tempStores) {
      for (Path p : tempStores) {
        StoreFolders.deleteTree(p);
      }
      tempStores.clear();
    }
  }
}
