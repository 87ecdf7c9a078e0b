package dev.hicachesync.controller;

import dev.hicachesync.storage.TokenSample;
import dev.hicachesync.tier.PageContent;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Content seeds ({@link PageContent#seed}) of recently seeded pages, shared by the controllers of this JVM:
 * the replicas of a simulation seed the same prefetched pages (each rank's storage reads, and each rank's
 * settle of the same prefetch), so one of them runs the serial per-token mix and the others take its seed.
 *
 * <p>Why: after the prompts' seeds were shared ({@code sim.PromptSeeds}), the prefetched pages' seeds, four
 * times over at CP 2 x TP 2, were the largest remaining share of seeding in the Mooncake replay.
 * No seed changes: an entry is taken only when every token of the page equals the tokens it was computed
 * from (copied into the entry), and a seed is a pure function of them. Any thread: entries are immutable
 * and published through an {@link AtomicReferenceArray}; threads that race for a slot both compute.
 */
final class SharedPageSeeds {
  /** Entries kept: the ranks drift a few steps, some thousands of pages, apart. */
  private static final int SLOTS = 1 << 13;

  private record Entry(int[] tokens, long seed) {}

  private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);

  private SharedPageSeeds() {}

  /** Returns {@code PageContent.seed(tokens, from, len)}, from another caller's entry when one matches. */
  static long seed(int[] tokens, int from, int len) {
    int slot = slot(tokens, from, len);
    Entry e = TABLE.get(slot);
    if (e != null && e.tokens.length == len && Arrays.equals(e.tokens, 0, len, tokens, from, from + len)) {
      return e.seed;
    }
    long seed = PageContent.seed(tokens, from, len);
    TABLE.set(slot, new Entry(Arrays.copyOfRange(tokens, from, from + len), seed));
    return seed;
  }

  private static int slot(int[] tokens, int from, int len) {
    return TokenSample.slot(0, tokens, from, len, SLOTS);
  }
}
