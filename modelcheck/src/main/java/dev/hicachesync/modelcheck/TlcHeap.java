package dev.hicachesync.modelcheck;

import java.util.List;

/**
 * The garbage collector and young-generation size of every TLC JVM this project starts.
 *
 * <p>TLC's interpreter allocates short-lived values at a high rate (hundreds of megabytes a
 * second on the catalogue's 8-rank models) and keeps little: the states go to its disk queue and
 * their fingerprints to the fingerprint set. Left to itself, the parallel collector grows the young
 * generation to gigabytes, so every allocation lands on memory that is not in any cache and the
 * kernel spends seconds mapping it; a young generation of a few tens of megabytes per worker thread
 * is collected far more often but stays in the caches, and TLC's wall and CPU time per state drop by
 * about a third (docs/reference/measurements.md, "TLC's young generation"). The old generation, where
 * TLC's long-lived tables live, keeps the JVM's default limit. The caller's options come after these,
 * so a {@code -Xmn} of its own wins (HotSpot takes the last occurrence).
 */
public final class TlcHeap {

  /** The parallel collector: one short stop per young collection, on every core. */
  static final String COLLECTOR = "-XX:+UseParallelGC";
  /** Megabytes of young generation per TLC worker thread. */
  static final int YOUNG_MB_PER_WORKER = 32;

  private TlcHeap() {}

  /** The collector and young-generation options for a TLC JVM with {@code workers} worker threads. */
  public static List<String> optionsFor(int workers) {
    return List.of(COLLECTOR, "-Xmn" + YOUNG_MB_PER_WORKER * Math.max(1, workers) + "m");
  }
}
