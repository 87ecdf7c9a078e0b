package dev.hicachesync.collective;

import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * A member's claim word ({@link MemberSlot#state()}), on a cache line of its own.
 *
 * <p>Why apart from the slot: the owner writes its claim twice per call (claimed, released) while the
 * other members poll the slot's arrival counter; on the slot's line every such write sent the line to
 * the owner and back to each poller. Padded on both sides (64 bytes before from {@link CacheLinePadding},
 * 64 after from this class's own fields, which the JVM lays out after its superclass's), so that no
 * neighbouring object, wherever the GC puts it, shares the line.
 */
@SuppressWarnings("unused")
final class MemberClaim extends MemberClaimWord {
  private long after0;
  private long after1;
  private long after2;
  private long after3;
  private long after4;
  private long after5;
  private long after6;
  private long after7;
}

/** The claim word itself: {@code 2k} between calls (k calls made), {@code 2k+1} inside call k. */
abstract class MemberClaimWord extends CacheLinePadding {
  private static final AtomicLongFieldUpdater<MemberClaimWord> STATE =
      AtomicLongFieldUpdater.newUpdater(MemberClaimWord.class, "state");

  private volatile long state;

  long get() {
    return state;
  }

  boolean compareAndSet(long expected, long next) {
    return STATE.compareAndSet(this, expected, next);
  }

  /** A release store, no fence: only the owner writes between its claims. */
  void lazySet(long next) {
    STATE.lazySet(this, next);
  }
}
