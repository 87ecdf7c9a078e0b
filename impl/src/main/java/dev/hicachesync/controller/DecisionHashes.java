package dev.hicachesync.controller;

import dev.hicachesync.tree.Mix64;

/**
 * The running hashes of one rank's decisions, one per agreement invariant the simulator compares across
 * ranks ({@link ControllerDigest}): the acks popped ({@code AckAgreement}), the pool allocations and frees
 * ({@code AllocAgreement}) and the prefetch decisions ({@code PrefetchAgreement}). Each decision mixes its
 * kind and its synced values, in the order the rank made it.
 *
 * <p>Threads: the ack and allocation hashes are the scheduler thread's. The prefetch hash is mixed by the
 * scheduler (issue, S4–S6, S3's revokes) and by the prefetch thread (S7), so it is guarded by a lock.
 * Stepped, the two threads alternate in a seeded order and equal ranks hash alike; free-running, the
 * interleaving of S7 with the scheduler's decisions is rank-local, so this one digest is then not
 * comparable across ranks (the simulator, which compares it, always runs stepped).
 */
final class DecisionHashes {
  private long ack;
  private long alloc;
  private long prefetch;
  private final Object prefetchLock = new Object();

  /** Mixes {@code parts} into the ack hash, in order. Scheduler thread. */
  void mixAck(long... parts) {
    ack = mix(ack, parts);
  }

  /** Mixes {@code parts} into the allocation hash, in order. Scheduler thread. */
  void mixAlloc(long... parts) {
    alloc = mix(alloc, parts);
  }

  /** Mixes {@code parts} into the prefetch hash, in order. Scheduler or prefetch thread. */
  void mixPrefetch(long... parts) {
    synchronized (prefetchLock) {
      prefetch = mix(prefetch, parts);
    }
  }

  long ack() {
    return ack;
  }

  long alloc() {
    return alloc;
  }

  long prefetch() {
    synchronized (prefetchLock) {
      return prefetch;
    }
  }

  private static long mix(long h, long[] parts) {
    for (long p : parts) {
      h = Mix64.mix(h, p);
    }
    return h;
  }
}
