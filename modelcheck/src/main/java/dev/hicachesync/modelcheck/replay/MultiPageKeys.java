package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.sim.spec.SpecShaped;
import java.util.ArrayList;
import java.util.List;

/**
 * Keys of several pages in a {@link JavaReplay}: the spec-shaped run it builds, and the schedules it cannot
 * run with storage on. The implementation's I/O thread reads such a key page by page in a spec-shaped run, as the
 * spec's {@code StorageReadsPage} does; what differs is a prefetch that inserts part of a key.
 */
final class MultiPageKeys {

  private MultiPageKeys() {}

  /**
   * The spec-shaped run of {@code k}: its requests, pages per key and waiting queue; with storage and several
   * pages per key, under a schedule that inserts no part of a key ({@link #partialPrefetches} refuses the rest).
   */
  static SpecShaped specShaped(ModelConstants k) {
    SpecShaped shaped = new SpecShaped(k.requests(), k.pagesPerKey()).withWaitingCap(k.waitingCap());
    return k.storageOn() && k.pagesPerKey() > 1 ? shaped.withWholeKeyHits() : shaped;
  }

  /**
   * Why a schedule with storage and several pages per key cannot run: a prefetch that inserts part of a key (an
   * S7 hit of some of its pages, or a read that fails after some landed) is one node in the spec, a host node
   * and a computed child in the implementation. Reads go page by page on both sides ({@code StorageReadsPage}).
   * None matters when no prefetch can insert before the trace's last step ({@link #insertsFrom}): the last RECV
   * compared is before it, and the verdict is judged at that step.
   */
  static List<String> partialPrefetches(ModelConstants k, SpecSchedule s) {
    List<String> why = new ArrayList<>();
    if (!k.storageOn() || k.pagesPerKey() == 1 || insertsFrom(s) >= s.lastStep()) {
      return why;
    }
    for (int r = 0; r < s.ranks(); r++) {
      for (int h : s.hits(r)) {
        if (h > 0 && h < k.pagesPerKey()) {
          why.add("rank " + r + "'s S7 finds " + h + " of a key's " + k.pagesPerKey() + " pages: a partial prefetch"
              + " is one node in the spec, a host node and a computed child in the implementation");
          break;
        }
      }
      if (s.reads(r).stream().anyMatch(SpecSchedule.Read::fails)) {
        why.add("rank " + r + "'s read of a key of " + k.pagesPerKey() + " pages fails (StorageReadsPage): what it"
            + " read before is one node in the spec, a host node and a computed child in the implementation");
      }
    }
    return why;
  }

  /**
   * The first step at which S5 can insert prefetched pages: every rank must have read a page by then (S5 takes the
   * MIN over the ranks), so the latest of the ranks' first successful reads; {@code Integer.MAX_VALUE} when some
   * rank reads none.
   */
  static int insertsFrom(SpecSchedule s) {
    int from = 0;
    for (int r = 0; r < s.ranks(); r++) {
      int first = s.reads(r).stream().filter(x -> !x.fails()).mapToInt(SpecSchedule.Read::lands).min()
          .orElse(Integer.MAX_VALUE);
      from = Math.max(from, first);
    }
    return from;
  }
}
