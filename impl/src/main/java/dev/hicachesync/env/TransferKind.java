package dev.hicachesync.env;

/** The kinds of asynchronous data movement between the tiers (PROTOCOL.md §1). */
public enum TransferKind {
  /** L1 → L2: write-through / backup of device pages into host slots. */
  DEVICE_TO_HOST,
  /** L2 → L1: load-back of host pages into device pages. */
  HOST_TO_DEVICE,
  /** L3 → L2: a storage read (prefetch). */
  STORAGE_READ,
  /** L2 → L3: a storage write (storage backup). */
  STORAGE_WRITE,
  /** L3 → L2 beside a prefetch's KV pages: one page of the sidecar pool (a second per-page pool, e.g. the DSA indexer). */
  SIDECAR_READ
}
