package dev.hicachesync.controller;

import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.tree.RadixTree;
import java.util.Collection;
import java.util.List;

/**
 * <b>Internal</b>: the read-only views of one rank's controller ({@link CacheController#view()}): its tree,
 * counters, digest, queue lengths, free pages, ongoing prefetches and quiescence. What the simulator's checks
 * compare across ranks and the API's figures report; nothing here changes the rank. Scheduler thread (or
 * after the run), except where a method says otherwise.
 */
public final class ControllerView {
  private final RankState s;
  private final ProtocolSteps steps;

  ControllerView(RankState s, ProtocolSteps steps) {
    this.s = s;
    this.steps = steps;
  }

  /** Returns the tree. */
  public RadixTree tree() {
    return s.tree();
  }

  /** Returns the counters. */
  public ControllerStats stats() {
    return s.stats();
  }

  /** Returns the protocol version. */
  public ProtocolVersion version() {
    return s.sync().version();
  }

  /** Returns the collectives the sync layers (scheduler, prefetch, completion sync) issued so far. */
  public long collectives() {
    return s.collectives();
  }

  /** Returns this rank's digest, one running hash per invariant. */
  public ControllerDigest digest() {
    DecisionHashes h = s.hashes();
    return new ControllerDigest(s.tree().mutationHash(), h.ack(), h.prefetch(), s.pools().allocDigest());
  }

  /** Returns whether nodes are backed up to storage ({@code enable_storage}: a backend attached and enabled). */
  public boolean storageEnabled() {
    return s.storage().active();
  }

  /** Returns the acks popped so far: [write, load, revoke, backup, release] (readable AckAgreement view). */
  public long[] poppedCounts() {
    return s.stats().poppedCounts();
  }

  /** Returns the ongoing prefetches, in issue order. */
  public Collection<PrefetchOperation> ongoingPrefetches() {
    return s.prefetches().ongoing();
  }

  /** Returns the free device pages. */
  public int freeDevicePages() {
    return s.pools().freeDevicePages();
  }

  /** Returns the free host pages. */
  public int freeHostPages() {
    return s.pools().freeHostPages();
  }

  /** Returns the host slots some transfer still uses (0 once quiet). */
  public int busyHostSlots() {
    return s.pools().host().busySlots();
  }

  /** Returns [write acks, load acks, revokes, backup acks, host releases, prefetch queue] still queued. */
  public int[] queueSizes() {
    return s.queueSizes();
  }

  /**
   * Returns what is still in flight or unaccounted once the rank should be quiet; empty when all is well
   * (see {@link QuiescenceCheck}). Scheduler thread only.
   */
  public List<String> quiescenceErrors() {
    return new QuiescenceCheck(s, steps).run();
  }

  /**
   * Whether every S7 outcome has reached this rank's scheduler side and every revoke and host-release entry
   * queued so far is ready (no read still writes a released slot). A spec-shaped run waits for it where the
   * spec makes those entries poppable at once (the spec has no storage-query latency and lands a page read
   * atomically). Scheduler thread.
   */
  public boolean storageQueuesSettled() {
    return s.prefetches().allDeposited() && s.queues().revokesAndReleasesReady();
  }

  /**
   * Whether no prefetch of this rank is in flight anywhere: none ongoing, none queued for S7 and, in {@code
   * unified}, no hit or batch ack waiting for the scheduler's drain, no read whose acks are not all synced and
   * none holding host slots until its final ack. A spec-shaped {@code unified} run delivers the next request
   * only then (the spec's {@code RecvComplete}). Scheduler thread (the storage threads stepped).
   */
  public boolean prefetchesSettled() {
    return steps.prefetchesSettled();
  }

}
