package dev.hicachesync.controller;

/** The lifecycle of a storage prefetch (PROTOCOL.md §4). */
public enum PrefetchState {
  /** Host slots allocated for the whole key, anchor protected, waiting for the prefetch thread (S7). */
  ISSUED,
  /** S7 reduced the storage hit; the decision is the same on every rank. */
  HIT_SYNCED,
  /** Below the threshold: the revoke goes through the revoke queue (S3). */
  REVOKED,
  /** Pages are landing in host slots on this rank's I/O thread. */
  READING,
  /** S4 (or admission under {@code best_effort}) stopped it; S5 decides how much to insert. */
  TERMINATED,
  /** S5 inserted the synced prefix into the host tree. */
  INSERTED,
  /** The request was aborted (S6). */
  ABORTED
}
