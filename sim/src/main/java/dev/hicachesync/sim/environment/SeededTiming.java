package dev.hicachesync.sim.environment;

import dev.hicachesync.env.TransferKind;
import java.util.SplittableRandom;

/**
 * The default schedule: per-rank random latencies with a per-rank skew (1..3) that makes some ranks
 * systematically slower, and independent random read failures.
 *
 * <p>Each component draws from its own {@link SplittableRandom} split off the run's seed and the rank, so
 * adding draws to one component never shifts another's. Rank thread only.
 */
public final class SeededTiming implements Timing {
  private final SplittableRandom copies;
  private final SplittableRandom io;
  private final SplittableRandom failures;
  private final SplittableRandom local;
  private final int skew;
  private final double readFailure;
  private final int rank;
  private boolean queried;

  /** Creates rank {@code rank}'s schedule for {@code seed}. */
  public SeededTiming(long seed, int rank, double readFailure) {
    SplittableRandom root = new SplittableRandom(seed ^ 0x5DEECE66DL);
    SplittableRandom mine = root.split();
    for (int r = 0; r < rank; r++) {
      mine = root.split(); // the r-th split is rank r's: independent of the world size
    }
    this.copies = mine.split();
    this.io = mine.split();
    this.failures = mine.split();
    this.local = mine.split();
    this.skew = 1 + mine.nextInt(3);
    this.readFailure = readFailure;
    this.rank = rank;
  }

  /** Returns the factory of this schedule. */
  public static Timing.Factory factory() {
    return SeededTiming::new;
  }

  @Override
  public long copyTicks(TransferKind kind, int pages) {
    return copies.nextInt(1 + 2 * skew);
  }

  @Override
  public long backgroundTicks(TransferKind kind, int pages) {
    return pages == 0 ? io.nextInt(1 + 2 * skew) : 1 + io.nextInt(2 + 3 * skew);
  }

  @Override
  public boolean readFails() {
    return failures.nextDouble() < readFailure;
  }

  /** A sidecar page read fails as often as a KV read (drawn only on ranks with a sidecar pool). */
  @Override
  public boolean sidecarReadFails() {
    return readFails();
  }

  @Override
  public boolean localBatchFull() {
    return local.nextInt(3) == 0;
  }

  /** The odd ranks' clocks order LRU timestamps the other way (what {@link Fault#LOCAL_LRU_CLOCK} makes bite). */
  @Override
  public boolean lruClockSkewed() {
    return rank % 2 == 1;
  }

  /** Rank 0's prefetch thread dies before its first pass (what {@link Fault#PREFETCH_THREAD_DIES} makes bite). */
  @Override
  public boolean prefetchThreadDies() {
    return rank == 0;
  }

  /** Rank 0's first storage hit query raises (what {@link Fault#PF_RAISE} and {@link Fault#PF_RAISE_THREAD_DIES} make bite). */
  @Override
  public boolean storageHitQueryRaises() {
    boolean first = !queried;
    queried = true;
    return rank == 0 && first;
  }

  /** The odd ranks' schedule policies order the waiting queue newest first (what {@link Fault#LOCAL_QUEUE_ORDER} makes bite). */
  @Override
  public boolean queueOrderSkewed() {
    return rank % 2 == 1;
  }
}
