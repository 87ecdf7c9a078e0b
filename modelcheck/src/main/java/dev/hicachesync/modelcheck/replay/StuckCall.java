package dev.hicachesync.modelcheck.replay;

/**
 * A collective call a thread of a {@code HiCacheSync.tla} counterexample waits in for ever (the lasso of a
 * liveness property such as {@code PrefetchThreadNeverStuck} or {@code AsyncNeverStuck}): its rank, and the
 * implementation's step at which the wait shows, where the implementation's collective times out instead ({@link
 * StuckThreadJudgement}).
 */
interface StuckCall {

  /** The rank whose thread waits for ever, -1 if none. */
  int stuckRank();

  /** The implementation's step at which that wait shows, -1 if none. */
  int stuckStep();
}
