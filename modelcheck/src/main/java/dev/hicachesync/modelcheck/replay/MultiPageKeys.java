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
   */
  static List<String> partialPrefetches(ModelConstants k, SpecSchedule s) {
    List<String> why = new ArrayList<>();
    if (!k.storageOn() || k.pagesPerKey() == 1) {
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
}
