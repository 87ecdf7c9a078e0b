package dev.hicachesync.sync;

/**
 * The lockstep points of the protocol (PROTOCOL.md §4); the names are the TLA+ call-site strings.
 *
 * <p>"G" below is the CP×TP reduction of §3 (attn_cp, then attn_tp; in {@code merged} one collective).
 */
public enum SyncPoint {
  /** Request broadcast at the top of a scheduler step; scheduler thread; root's payload to every rank. */
  RECV,
  /**
   * Write acks, {@code writing_check}, scheduler: number of leading write acks whose GPU event is done, MIN
   * over G; every rank pops exactly N: drop the ongoing write, {@code lock_ref--}, start a storage backup.
   */
  S1,
  /** Load acks, {@code loading_check}, scheduler: leading load acks done, MIN over G; pop N, {@code lock_ref--}. */
  S2,
  /**
   * Storage queues, {@code drain_storage_control_queues}, scheduler: sizes of the revoke, backup-ack and
   * host-release queues, MIN (vector); pop that many of each: revoke releases the anchor and host slots,
   * backup ack releases host protection, release frees host pages.
   */
  S3,
  /** S1–S3 fused into one vector all-reduce per step (#30511, version {@code merged}). */
  S123,
  /**
   * May terminate?, {@code can_terminate_prefetch}, scheduler ({@code wait_complete}, {@code timeout}):
   * {@code [!canTerminateLocal, isTerminatedLocal]}, MAX; terminate iff every rank may or one already did.
   */
  S4,
  /**
   * Completed, {@code check_prefetch_progress}, scheduler: tokens this rank's storage read completed, MIN;
   * insert exactly MIN tokens into the host tree, release the other host slots.
   */
  S5,
  /** Abort, {@code release_aborted_request}, scheduler: barrier; release the prefetch's slots and anchor. */
  S6,
  /**
   * Storage hits, {@code prefetch_thread} on its own group: leading pages in storage for this rank, MIN over
   * G (and the pp group with PP); below {@code prefetch_threshold} revoke, else read MIN pages.
   */
  S7,
  /**
   * Runtime storage attach ({@code unified}, the fix of F1 in docs/explanation/findings/F1-attach-outcome-per-rank.md): the ranks' attach outcomes,
   * MIN over G, before {@code enable_storage} flips; no such collective in SGLang @db570fe6.
   */
  ATTACH,
  /**
   * Runtime storage attach step by step ({@code unified}): {@code _create_prefetch_sync_groups}'s group
   * creation, {@code create_custom_parallel_group}'s {@code all_gather_object} over the world before
   * {@code new_group}, a collective every rank must join; scheduler thread, no payload. Reduced over G, which
   * is the world with one data-parallel replica and one stage (the only shape that runs it).
   */
  GROUPS
}
