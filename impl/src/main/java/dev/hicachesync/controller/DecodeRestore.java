package dev.hicachesync.controller;

/**
 * PD decode's local restore source (HiCacheUnified.tla Knob {@code pd_decode}): on a disaggregated decode
 * instance with its own hierarchical cache, a request's prefix is found on this rank's host tier when the
 * request arrives ({@code decode_hicache_mixin.py::_process_hicache_local_restores} @db570fe6 matches it there),
 * so its admission loads it back ({@code init_load_back}: a host→device copy whose event the scheduler polls,
 * {@code is_load_back_event_done}). The prefix is placed as a host-only node of the tree with host slots of
 * its own, the same on every rank (the restore source is replicated, like the KV it holds).
 *
 * <p>Scheduler thread only.
 */
final class DecodeRestore {
  private final RankState s;

  DecodeRestore(RankState s) {
    this.s = s;
  }

  /** Places {@code tokens}' whole pages on the host tier; returns the pages placed (0: present, or no slots). */
  int run(int[] tokens) {
    int pages = tokens.length / s.config().pageSize();
    if (pages == 0 || s.tree().matchPrefix(tokens).treeTokens() >= pages * s.config().pageSize()) {
      return 0;
    }
    int[] slots = s.pools().allocateHost(pages);
    if (slots == null) {
      return 0;
    }
    int present = s.tree().insertHost(s.tree().root(), java.util.Arrays.copyOf(tokens, pages * s.config().pageSize()),
        slots);
    if (present > 0) {
      s.pools().freeHost(java.util.Arrays.copyOf(slots, present), "a restored prefix already in the tree");
    }
    return pages - present;
  }
}
