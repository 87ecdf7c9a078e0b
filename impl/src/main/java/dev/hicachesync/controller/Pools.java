package dev.hicachesync.controller;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.tier.PageAllocator;
import dev.hicachesync.tree.DeviceEvictionSink;
import dev.hicachesync.tree.Mix64;
import dev.hicachesync.tree.RadixTree;
import dev.hicachesync.tree.TreeNode;
import java.util.function.Predicate;

/**
 * One rank's device pages and host slots: allocation with eviction when short, frees, and the tree's view
 * of both during a device eviction ({@link DeviceEvictionSink}). Every allocation and free is mixed into
 * the allocation hash, so ranks whose pools diverge are named ({@code AllocAgreement}). Scheduler thread,
 * except the host ledger's busy marks ({@link HostSlotLedger}).
 */
final class Pools implements DeviceEvictionSink {
  private final PageAllocator device;
  private final HostSlotLedger host;
  private final RadixTree tree;
  private final ControllerStats stats;
  private final DecisionHashes hashes;
  /** Write-back's synchronous copy of a device-only node before its device pages go ({@link HostWrites}). */
  private final Predicate<TreeNode> backupBeforeEviction;
  /** Whether a queued load-back (its ack not popped by S2) writes into any of the pages ({@link LoadLocks}). */
  private final Predicate<int[]> loadQueuedInto;

  Pools(ControllerConfig config, ControllerFaults faults, RadixTree tree, ControllerStats stats,
      DecisionHashes hashes, Predicate<TreeNode> backupBeforeEviction, Predicate<int[]> loadQueuedInto) {
    this.device = new PageAllocator(config.devicePages());
    this.host = new HostSlotLedger(config.hostPages(), !faults.untrackedSlots());
    this.tree = tree;
    this.stats = stats;
    this.hashes = hashes;
    this.backupBeforeEviction = backupBeforeEviction;
    this.loadQueuedInto = loadQueuedInto;
  }

  /** The host slots and which of them a transfer still uses. */
  HostSlotLedger host() {
    return host;
  }

  int freeDevicePages() {
    return device.freeCount();
  }

  int freeHostPages() {
    return host.pool().freeCount();
  }

  /**
   * The allocation hash with both pools' used counts: the digest's {@code alloc} part. Used, not free: {@code
   * AllocAgreement} is about what the ranks allocated (the spec's {@code Cap - Free}), so a pool one rank sizes
   * larger shows only once an allocation succeeds there and fails on a peer.
   */
  long allocDigest() {
    return Mix64.mix(Mix64.mix(hashes.alloc(), device.capacity() - device.freeCount()),
        host.pool().capacity() - host.pool().freeCount());
  }

  /** Returns {@code pages} device pages, evicting LRU leaves if needed, or null. */
  int[] allocateDevice(int pages) {
    int[] r = device.allocate(pages);
    if (r == null) {
      int want = pages - device.freeCount();
      stats.deviceEvicted(tree.evictDevice(want, this));
      r = device.allocate(pages);
    }
    hashes.mixAlloc(1, pages, r == null ? -1 : r.length == 0 ? -2 : r[0]);
    return r;
  }

  /** Evicts unlocked device leaves for {@code pages} pages; returns the pages freed. */
  int evictDevice(int pages) {
    int n = tree.evictDevice(pages, this);
    stats.deviceEvicted(n);
    return n;
  }

  /** Returns {@code pages} host slots, evicting host-only leaves if needed, or null. */
  int[] allocateHost(int pages) {
    int[] r = host.allocate(pages);
    if (r == null) {
      int want = pages - host.pool().freeCount();
      stats.hostEvicted(tree.evictHost(want, s -> freeHost(s, "host eviction")));
      r = host.allocate(pages);
    }
    hashes.mixAlloc(2, pages, r == null ? -1 : r.length == 0 ? -2 : r[0]);
    return r;
  }

  /** Returns host slots to the pool; {@code why} names the caller in a leak or double-free report. */
  void freeHost(int[] slots, String why) {
    hashes.mixAlloc(3, slots.length);
    host.free(slots, why);
  }

  @Override
  public void freeDevice(int[] pages) {
    if (loadQueuedInto.test(pages)) { // the spec's HP6: a load-back in flight writes pages its node owns
      throw new InvariantViolation(Invariant.HostSlotSafety, "device pages " + java.util.Arrays.toString(pages)
          + " freed while a load-back whose ack S2 has not popped still writes into them");
    }
    hashes.mixAlloc(4, pages.length);
    device.free(pages);
  }

  @Override
  public void freeHost(int[] pages) {
    stats.hostEvicted(pages.length);
    freeHost(pages, "device eviction of a device-only parent");
  }

  @Override
  public boolean backupBeforeEviction(TreeNode node) {
    return backupBeforeEviction.test(node);
  }
}
