package dev.hicachesync.sim.datapath;

import dev.hicachesync.controller.KvData;
import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.storage.ForgedPageException;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.DeviceTiers;
import dev.hicachesync.tier.HostPool;
import dev.hicachesync.tier.PageContent;
import dev.hicachesync.tier.SimulatedDeviceTier;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One rank's KV bytes: a {@link DeviceTier} (JCuda or simulated), a {@link HostPool} in the chosen layout,
 * and the storage, with every arrival checked against the bytes computed for the page's tokens.
 *
 * <p>Why checks rather than trust: the controller's ledger says which slots are busy; this class looks at
 * the bytes. A slot freed and reused while a copy or read still uses it ends up holding another page's
 * bytes, and the next check of it fails with {@code HostSlotSafety}. The simulated device tier runs with
 * zero latency: when a copy completes is the rank's {@link Timing}'s decision (see {@link DataEvent}).
 * Rank thread, or the rank's stepped I/O and backup threads while it waits for them (storage reads and
 * writes run there; the hand-off orders every access).
 */
public final class DataPath implements KvData, AutoCloseable {
  private final DeviceTier device;
  private final HostPool host;
  private final String tierName;
  private final int pageBytes;
  /** One page, for layer_first storage I/O and device checks. */
  private final ByteBuffer scratch;
  /**
   * The host pool's memory for the checks' absolute reads (page_first), null for layer_first. Why not a view
   * per page: a replay checks every page that reaches the host or is written to or read from storage (18
   * million in the conversation replay at 4 ranks), and a view object each was a tenth of what it allocated.
   */
  private final ByteBuffer pool;
  private long movedBytes;
  private long checkedPages;
  /** Returns the KV bytes this rank's copies, stores and loads moved so far. */
  public long movedBytes() {
    return movedBytes;
  }

  /** Returns the pages checked on arrival so far. */
  public long checkedPages() {
    return checkedPages;
  }

  /** Prompt seeds shared with the other ranks' data paths of the run. */
  private final PromptSeeds promptSeeds;

  public DataPath(DataOptions o, int devicePages, int hostPages, Ticker clock, int rank) {
    this(o, devicePages, hostPages, clock, rank, new PromptSeeds());
  }

  /** @param promptSeeds the run's prompt seeds, shared by every rank's data path */
  public DataPath(DataOptions o, int devicePages, int hostPages, Ticker clock, int rank, PromptSeeds promptSeeds) {
    this.promptSeeds = promptSeeds;
    this.device = DeviceTiers.open(o.device(), devicePages, o.layers(), o.layerBytes(), clock,
        LatencyModel.zero(), rank);
    this.host = new HostPool(Math.max(1, hostPages), o.layers(), o.layerBytes(), o.hostLayout());
    this.pageBytes = o.pageBytes();
    this.scratch = ByteBuffer.allocateDirect(pageBytes);
    this.pool = host.isPageContiguous() ? host.poolView() : null;
    this.tierName = device instanceof SimulatedDeviceTier
        ? "simulated (" + (DeviceTiers.probe().available() ? "requested" : "CUDA unavailable: "
            + DeviceTiers.probe().detail()) + ")"
        : device.describe();
  }

  /** Returns the device tier in use, e.g. {@code simulated (CUDA unavailable: ...)}. */
  public String tierName() {
    return tierName;
  }

  /** Writes what prefill computes for pages {@code firstPage..} of {@code tokens} into {@code devicePages}. */
  public void compute(int[] devicePages, int[] tokens, int firstPage, int pageSize) {
    for (int j = 0; j < devicePages.length; j++) {
      write(devicePages[j], PageContent.seed(tokens, (firstPage + j) * pageSize, pageSize));
    }
  }

  /**
   * {@link #compute} for a prompt, whose array every rank of the run shares: its page seeds are computed
   * once for all ranks ({@link PromptSeeds}) and found again when the controller asks for the seeds of the
   * node the prompt's pages go into ({@link #pageSeeds}).
   */
  public void computePrompt(int[] devicePages, int[] prompt, int firstPage, int pageSize) {
    long[] seeds = promptSeeds.of(prompt, pageSize);
    for (int j = 0; j < devicePages.length; j++) {
      write(devicePages[j], seeds[firstPage + j]);
    }
  }

  private void write(int devicePage, long seed) {
    scratch.clear();
    PageContent.fill(seed, scratch, pageBytes);
    device.write(devicePage, scratch);
  }

  @Override
  public long[] pageSeeds(int[] tokens, int firstPage, int pages, int pageSize) {
    long[] known = promptSeeds.peek(tokens, pageSize);
    if (known != null && firstPage + pages <= known.length) {
      return Arrays.copyOfRange(known, firstPage, firstPage + pages);
    }
    return KvData.super.pageSeeds(tokens, firstPage, pages, pageSize);
  }

  @Override
  public boolean moves() {
    return true;
  }

  @Override
  public TransferEvent toHost(TransferEvent timing, int[] devicePages, int[] hostPages, long[] seeds) {
    TransferEvent copy = device.copyToHost(devicePages, host, hostPages);
    movedBytes += (long) hostPages.length * pageBytes;
    return new DataEvent(timing, copy,
        () -> checkHost(hostPages, 0, hostPages.length, seeds, "device->host copy"));
  }

  @Override
  public TransferEvent fromHost(TransferEvent timing, int[] hostPages, int[] devicePages, long[] seeds) {
    TransferEvent copy = device.copyFromHost(host, hostPages, devicePages);
    movedBytes += (long) hostPages.length * pageBytes;
    return new DataEvent(timing, copy, () -> {
      for (int i = 0; i < devicePages.length; i++) {
        scratch.clear();
        device.read(devicePages[i], scratch);
        scratch.flip();
        int bad = PageContent.firstMismatch(seeds[i], scratch, pageBytes);
        checkedPages++;
        if (bad >= 0) {
          throw corrupt("load-back", "device page " + devicePages[i] + " loaded from host slot " + hostPages[i], bad);
        }
      }
    });
  }

  @Override
  public void store(StorageBackend storage, PageKey key, int hostPage, long seed) {
    int bad = mismatch(hostPage, seed);
    checkedPages++;
    if (bad >= 0) {
      throw corrupt("storage backup", "host slot " + hostPage, bad);
    }
    storage.put(key, page(hostPage));
    movedBytes += pageBytes;
  }

  @Override
  public boolean load(StorageBackend storage, PageKey key, int hostPage, long seed) {
    boolean found;
    if (host.isPageContiguous()) {
      found = storage.get(key, host.pageView(hostPage)); // page_first: zero-copy into the slot
    } else {
      scratch.clear();
      found = storage.get(key, scratch);
      if (found) {
        scratch.flip();
        host.writePage(hostPage, scratch);
      }
    }
    if (found) {
      movedBytes += pageBytes;
      // Checked at once, before any other access to the slot (the hand-off orders them): wrong bytes here were
      // delivered by the store, with a valid checksum and key. A store forgery: a failed read, not HostSlotSafety.
      int bad = mismatch(hostPage, seed);
      checkedPages++;
      if (bad >= 0) {
        throw new ForgedPageException("page " + key + ": store forgery: the object passed its checksum and names"
            + " its key, but its payload is not the bytes written for the key's tokens (first wrong byte at "
            + bad + ")");
      }
    }
    return found;
  }

  @Override
  public void checkHost(int[] hostPages, int from, int to, long[] seeds, String what) {
    for (int i = from; i < to; i++) {
      int bad = mismatch(hostPages[i], seeds[i]);
      checkedPages++;
      if (bad >= 0) {
        throw corrupt(what, "host slot " + hostPages[i], bad);
      }
    }
  }

  /** Returns the first byte of host page {@code slot} that is not page {@code seed}'s, or -1. */
  private int mismatch(int slot, long seed) {
    if (pool != null) {
      return PageContent.firstMismatch(seed, pool, host.pageOffset(slot), pageBytes);
    }
    return PageContent.firstMismatch(seed, page(slot), pageBytes);
  }

  /** Returns host page {@code slot} in canonical order: a view (page_first) or a copy in the scratch buffer. */
  private ByteBuffer page(int slot) {
    if (host.isPageContiguous()) {
      return host.pageView(slot);
    }
    scratch.clear();
    host.readPage(slot, scratch);
    return scratch.flip();
  }

  private static InvariantViolation corrupt(String what, String where, int offset) {
    return new InvariantViolation(Invariant.HostSlotSafety, "data check after " + what + ": " + where
        + " does not hold the bytes computed for its tokens (first wrong byte at " + offset
        + "): a transfer used a slot that was freed or reused");
  }

  @Override
  public void close() {
    device.close();
  }
}
