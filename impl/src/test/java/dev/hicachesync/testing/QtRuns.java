package dev.hicachesync.testing;

import org.quicktheories.QuickTheory;

/**
 * The QuickTheories settings of every property test, in one place. Deterministic by default: a fixed
 * seed, so a red build is reproducible; failures also print the scenario's own replay string.
 *
 * <p>Flags (system properties): {@code -Dhicache.qt.examples=N} examples per property (default 20);
 * {@code -Dhicache.qt.seed=N} the generation seed (default 20260520); {@code -Dhicache.qt.shrinkCycles=N}
 * shrink attempts after a failure (default 40). Longer exploration: {@code mvn -pl impl test
 * -Dtest='*PropertyTest' -Dhicache.qt.examples=500 -Dhicache.qt.maxWorld=8 -Dhicache.qt.seed=$RANDOM}.
 */
public final class QtRuns {
  /** Examples per property. */
  public static final int EXAMPLES = Integer.getInteger("hicache.qt.examples", 20);
  /** Generation seed. */
  public static final long SEED = Long.getLong("hicache.qt.seed", 20_260_520L);
  /** Shrink attempts after a failure. */
  public static final int SHRINK_CYCLES = Integer.getInteger("hicache.qt.shrinkCycles", 40);

  private QtRuns() {}

  /** Returns a theory with the configured seed, examples and shrink cycles. */
  public static QuickTheory qt() {
    return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES).withShrinkCycles(SHRINK_CYCLES);
  }
}
