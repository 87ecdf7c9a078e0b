package dev.hicachesync.sync;

/**
 * The safety invariants of PROTOCOL.md §5; the constant names are the TLA+ operator names. The simulator
 * checks the agreement invariants at every lockstep point; {@link #StorageShardCoverage} is a property of
 * the storage writer election, checked per topology ({@code storage.StorageShardCoverage}).
 */
public enum Invariant {
  /** INV-1: the k-th collective of every member of a group has the same kind, call site and size. */
  CollectiveMatching,
  /** INV-4: each ack queue is consumed by the same count on every rank at each lockstep point. */
  AckAgreement,
  /** INV-5: every prefetch gets the same decisions on every rank (issued, hit, revoked, terminated, inserted). */
  PrefetchAgreement,
  /** INV-6: host and device allocations succeed or fail identically, with the same pages, on every rank. */
  AllocAgreement,
  /** INV-3: identical trees: keys, node ids, residency, locks, host protection, hash values, LRU order. */
  TreeAgreement,
  /**
   * INV-7: a host slot that a transfer still reads or writes is never freed; no slot is owned twice or leaked; no
   * device page is freed while a load-back whose ack S2 has not popped writes into it (the spec's HP6).
   */
  HostSlotSafety,
  /** INV-8: the ranks that write a storage key are the ranks that will read it (every CP shard is written). */
  StorageShardCoverage,
  /**
   * Every host page a prefetch inserted has its sidecar page read on that rank (ranks with a sidecar pool only,
   * {@code controller.SidecarPool}): else the page is paired with stale sidecar data (#31443).
   */
  SidecarCoverage,
  /**
   * {@code unified}'s runtime attach: at a step boundary no rank's controller is half attached (attached, its
   * threads and groups up, while {@code enable_storage} is off after a failed attach that was not rolled back).
   */
  AttachStateConsistent,
  /**
   * INV-1's pipe face (PP): a message a later stage receives from the stage before it has the length of the
   * tensor it receives it into (its own vector of the same sync point); else {@code recv} fails or hangs.
   */
  PipeMatching
}
