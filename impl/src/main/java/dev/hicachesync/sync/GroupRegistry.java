package dev.hicachesync.sync;

import java.util.List;

/**
 * The names of the process groups a rank's HiCache threads synchronize on, one set per thread, in the order
 * every rank creates them (SGLang creates its gloo groups collectively, so every rank must create the same
 * groups in the same order; our fabrics match a group by name and members, and the order is kept so a
 * transport that matches by creation order works too).
 *
 * <p>One set per thread because a group handle belongs to one thread: two threads that share a set interleave
 * their calls differently on each rank (CollectiveMatching). SGLang's {@code HiCacheController}: the
 * scheduler's CPU groups; {@code prefetch_hits_sync_groups} (S7, {@code prefetch_thread_func}); {@code
 * prefetch_completion_sync_groups} (#27010, {@code prefetch_sync_thread_func}), each from its own call to
 * {@code _create_sync_groups()}, hits first.
 */
public final class GroupRegistry {
  /** The scheduler thread's groups (S1–S6, RECV): attn_tp, attn_cp, the stage's CP×TP group. */
  public static final String ATTN_TP = "attn_tp";
  public static final String ATTN_CP = "attn_cp";
  public static final String SCHED = "sched";
  /** The prefetch thread's groups (S7): attn_tp, attn_cp, CP×TP, and pp with more than one stage. */
  public static final String PF_ATTN_TP = "pf_attn_tp";
  public static final String PF_ATTN_CP = "pf_attn_cp";
  public static final String PF_CP_TP = "pf_cp_tp";
  public static final String PF_PP = "pf_pp";
  /** The completion-sync thread's groups (version unified's per-batch MIN, #27010), made after the prefetch ones. */
  public static final String PFC_ATTN_TP = "pfc_attn_tp";
  public static final String PFC_ATTN_CP = "pfc_attn_cp";
  public static final String PFC_CP_TP = "pfc_cp_tp";
  public static final String PFC_PP = "pfc_pp";

  /**
   * Version {@code pipelined}'s asynchronous S123 (proposal #39903: the all_reduce issued with {@code async_op=True},
   * the spec's channel "async"), on the CP×TP grid, made after the others.
   */
  public static final String ASYNC_CP_TP = "async_cp_tp";

  /** Every group name, in creation order. */
  public static final List<String> CREATION_ORDER = List.of(ATTN_TP, ATTN_CP, SCHED, PF_ATTN_TP, PF_ATTN_CP,
      PF_CP_TP, PF_PP, PFC_ATTN_TP, PFC_ATTN_CP, PFC_CP_TP, PFC_PP, ASYNC_CP_TP);

  private GroupRegistry() {}
}
