package dev.hicachesync.tree;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The two key hashes of recently created tree nodes ({@link TreeNode#mixKeyInto}), shared by every tree of
 * this JVM: the replicas of a simulation create the same nodes with the same keys after the same mutations,
 * so one of them runs the two hash chains over the key and the others take its result.
 *
 * <p>Why: the chains are serial (each token's mix waits for the previous one's), and with four ranks every
 * new node's key was hashed four times; in the whole Mooncake replay at CP 2 x TP 2 that was the largest
 * single frame of the profile. The hash values are unchanged: the digest logs and reports are
 * the same with or without this table.
 *
 * <p>Correctness does not rest on the ranks agreeing: an entry is a pure function of the running hash it
 * started from and the key's tokens, and it is taken only when both are equal (the tokens compared one by
 * one), so a rank whose tree differs computes its own and its digests still tell. Any thread: entries are
 * immutable (their key arrays are never written, as a tree node's key never is) and published through an
 * {@link AtomicReferenceArray}; two ranks that race for a slot both compute, and either entry is right.
 */
final class SharedKeyMixes {
  /** Entries kept; ranks drift at most a few steps, a few hundred node creations, apart. */
  private static final int SLOTS = 4096;

  /** {@code mixed} = {@code Mix64.mix(from, key)}, {@code fingerprint} = {@code Mix64.mix(0, key)}. */
  record Entry(long from, int[] key, long mixed, long fingerprint) {}

  private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);

  private SharedKeyMixes() {}

  /** Returns the entry for {@code key} mixed into the running hash {@code from}, or null. */
  static Entry find(long from, int[] key) {
    Entry e = TABLE.get(slot(from, key.length));
    if (e != null && e.from == from && (e.key == key || Arrays.equals(e.key, key))) {
      return e;
    }
    return null;
  }

  /** Remembers {@code e} for the other trees (replacing whatever held its slot). */
  static void remember(Entry e) {
    TABLE.set(slot(e.from, e.key.length), e);
  }

  private static int slot(long from, int length) {
    return (int) Mix64.fmix(from + length) & (SLOTS - 1);
  }
}
