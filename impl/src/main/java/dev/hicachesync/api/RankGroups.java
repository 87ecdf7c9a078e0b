package dev.hicachesync.api;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import java.util.Objects;

/**
 * The process groups one rank's HiCache synchronizes on, as the engine created them (SGLang: the gloo CPU
 * groups of {@code parallel_state.py}). The engine implements {@link ProcessGroup} over its own transport;
 * {@link InJvmCluster} builds them for ranks that are threads of one JVM.
 *
 * <p>One set of groups per thread, as in SGLang: the scheduler thread's ({@code attnTp}, {@code attnCp},
 * {@code cpTp}; S1–S6), the prefetch thread's ({@code prefetch*}; S7) and, version {@code unified}, the
 * completion-sync thread's ({@code completion*}; the per-batch MIN of #27010, SGLang's {@code
 * prefetch_completion_sync_groups}; names and creation order in {@code sync.GroupRegistry}). A group handle belongs to one
 * thread; sharing one between the two threads interleaves their rendezvous (model {@code knob_shared_group},
 * {@code CollectiveMatching}). Singleton groups are fine: calls on them are skipped.
 *
 * @param attnTp the scheduler's attn_tp group
 * @param attnCp the scheduler's attn_cp group (#20460)
 * @param cpTp the scheduler's CP×TP group of the stage (the {@code merged} version's one collective)
 * @param prefetchAttnTp the prefetch thread's attn_tp group
 * @param prefetchAttnCp the prefetch thread's attn_cp group
 * @param prefetchCpTp the prefetch thread's CP×TP group
 * @param prefetchPp the prefetch thread's pp group (S7 across stages, B7's fix), null with one stage
 * @param fromPrev the pipeline channel from the previous stage's rank, null on stage 0
 * @param toNext the pipeline channel to the next stage's rank, null on the last stage
 * @param completionAttnTp the completion-sync thread's attn_tp group; null (all four) when the engine made
 *     none: then only a {@link ThreadMode#STEPPED} rank of version {@code unified} may be built (it runs the
 *     completion sync after S7 on the prefetch groups)
 * @param completionAttnCp the completion-sync thread's attn_cp group
 * @param completionCpTp the completion-sync thread's CP×TP group
 * @param completionPp the completion-sync thread's pp group, null with one stage
 */
public record RankGroups(
    ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp, ProcessGroup prefetchAttnTp,
    ProcessGroup prefetchAttnCp, ProcessGroup prefetchCpTp, ProcessGroup prefetchPp, PipeChannel fromPrev,
    PipeChannel toNext, ProcessGroup completionAttnTp, ProcessGroup completionAttnCp, ProcessGroup completionCpTp,
    ProcessGroup completionPp) {

  /** The groups of an engine that made no completion-sync groups (the earlier nine-handle form). */
  public RankGroups(ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp, ProcessGroup prefetchAttnTp,
      ProcessGroup prefetchAttnCp, ProcessGroup prefetchCpTp, ProcessGroup prefetchPp, PipeChannel fromPrev,
      PipeChannel toNext) {
    this(attnTp, attnCp, cpTp, prefetchAttnTp, prefetchAttnCp, prefetchCpTp, prefetchPp, fromPrev, toNext,
        null, null, null, null);
  }

  /** Returns whether the engine made the completion-sync thread's groups. */
  public boolean hasCompletionGroups() {
    return completionCpTp != null;
  }

  /** Checks that the six CP/TP groups are there (pp group and channels may be null). */
  public RankGroups {
    Objects.requireNonNull(attnTp, "attnTp");
    Objects.requireNonNull(attnCp, "attnCp");
    Objects.requireNonNull(cpTp, "cpTp");
    Objects.requireNonNull(prefetchAttnTp, "prefetchAttnTp");
    Objects.requireNonNull(prefetchAttnCp, "prefetchAttnCp");
    Objects.requireNonNull(prefetchCpTp, "prefetchCpTp");
    if ((completionAttnTp == null) != (completionCpTp == null) || (completionAttnCp == null) != (completionCpTp == null)) {
      throw new IllegalArgumentException("the completion-sync groups come as a set: attn_tp, attn_cp and cp_tp, or none");
    }
  }
}
