package dev.hicachesync.sync;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;

/**
 * One thread's handles for the sync points: its attn_tp, attn_cp and CP×TP groups, the pp group (the
 * prefetch thread's S7 with PP), and the pipeline channels to the stages around it.
 *
 * @param attnTp the attn_tp group (the legacy {@code tp_cache_group} under DP attention)
 * @param attnCp the attn_cp group (#20460)
 * @param cpTp the CP×TP group of the stage ("G" in one collective; also the RECV group)
 * @param pp the pp group, or null when there is one stage or the thread does not use it
 * @param fromPrev channel from the previous stage's rank, null on stage 0
 * @param toNext channel to the next stage's rank, null on the last stage
 */
public record SyncGroups(
    ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp, ProcessGroup pp,
    PipeChannel fromPrev, PipeChannel toNext) {

  /** Returns whether this rank decides (stage 0) rather than copies its upstream stage's decisions. */
  public boolean decides() {
    return fromPrev == null;
  }
}
