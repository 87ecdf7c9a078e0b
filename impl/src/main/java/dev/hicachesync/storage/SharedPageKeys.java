package dev.hicachesync.storage;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Recently chained page keys ({@link PageKey#chain(PageKey, int[], int, int)}), shared by every thread of
 * this JVM: the replicas of a simulation hash the same pages after the same previous keys (each rank's tree
 * when it creates a node, each rank's prefetch when it issues one), so one of them runs SHA-256 and the
 * others take its key.
 *
 * <p>Why: SHA-256 per page per rank was, after the tree's key hash, the largest cost of the Mooncake replay
 * at CP 2 x TP 2. No key changes: an entry is taken only when the previous key's hash and every
 * token of the page are equal to what it was computed from (the tokens are copied into the entry, so a
 * caller that reuses its array later cannot change it), and a key is a pure function of those. Any thread:
 * entries are immutable and published through an {@link AtomicReferenceArray}; threads that race for a
 * slot both hash, and either entry is right.
 */
final class SharedPageKeys {
  /** Entries kept: the ranks drift a few steps, some thousands of pages, apart. */
  private static final int SLOTS = 1 << 14;

  /** The key of the page {@code tokens} chained after the key whose hash words are {@code prev} (null: none). */
  private record Entry(long[] prev, int[] tokens, PageKey key) {}

  private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);

  private SharedPageKeys() {}

  /** Returns the unsuffixed key of {@code tokens[from, from + len)} after {@code prev}, or null if not known. */
  static PageKey find(PageKey prev, int[] tokens, int from, int len) {
    long[] p = prev == null ? null : prev.hashWords();
    Entry e = TABLE.get(slot(p, tokens, from, len));
    if (e == null || e.tokens.length != len || !Arrays.equals(e.prev, p)
        || !Arrays.equals(e.tokens, 0, len, tokens, from, from + len)) {
      return null;
    }
    return e.key;
  }

  /** Remembers {@code key} (unsuffixed) as the key of {@code tokens[from, from + len)} after {@code prev}. */
  static void remember(PageKey prev, int[] tokens, int from, int len, PageKey key) {
    long[] p = prev == null ? null : prev.hashWords();
    TABLE.set(slot(p, tokens, from, len), new Entry(p, Arrays.copyOfRange(tokens, from, from + len), key));
  }

  private static int slot(long[] prev, int[] tokens, int from, int len) {
    return TokenSample.slot(prev == null ? 0 : prev[0], tokens, from, len, SLOTS);
  }
}
