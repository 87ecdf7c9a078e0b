package dev.hicachesync.controller;

import dev.hicachesync.tree.MatchResult;

/**
 * The prefetch steps of the versions of {@code spec/HiCacheSync.tla} ({@code pre20460}, {@code post20460},
 * {@code merged}): host slots allocated at issue ({@link IssuePrefetch}), S4/S5 ({@link CheckPrefetchProgress}),
 * S6 ({@link ReleaseAbortedRequest}), and the prefetch thread's S7 ({@link PrefetchThreadStep}), whose
 * revokes and releases S3 drains. Subclasses say how the event check runs.
 */
abstract class HiCacheSyncSteps implements ProtocolSteps {
  private final RankState s;
  private final IssuePrefetch issuePrefetch;
  private final CheckPrefetchProgress checkPrefetchProgress;
  private final ReleaseAbortedRequest releaseAbortedRequest;
  private final PrefetchThreadStep prefetchThreadStep;

  HiCacheSyncSteps(RankState s) {
    this.s = s;
    this.issuePrefetch = new IssuePrefetch(s);
    this.checkPrefetchProgress = new CheckPrefetchProgress(s);
    this.releaseAbortedRequest = new ReleaseAbortedRequest(s);
    this.prefetchThreadStep = new PrefetchThreadStep(s);
  }

  @Override
  public boolean issuePrefetch(String rid, MatchResult m, int[] tokens) {
    return issuePrefetch.run(rid, m, tokens);
  }

  @Override
  public boolean checkPrefetchProgress(String rid) {
    return checkPrefetchProgress.run(rid);
  }

  @Override
  public void releaseAborted(String rid) {
    releaseAbortedRequest.run(rid);
  }

  @Override
  public void prefetchPassInline() {
    prefetchThreadStep.run(Integer.MAX_VALUE);
  }

  /** The pass takes exactly what is queued now, on every rank alike, and nothing when that is nothing new. */
  @Override
  public void handPrefetchPass(ControllerThreads threads) {
    int bound = s.prefetches().handQueuedToS7();
    if (bound >= 0) {
      threads.onPrefetchThread(() -> prefetchThreadStep.run(bound));
    }
  }

  @Override
  public boolean prefetchesSettled() {
    return s.prefetches().idle();
  }
}
