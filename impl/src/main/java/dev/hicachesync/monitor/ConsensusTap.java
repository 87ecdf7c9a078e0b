package dev.hicachesync.monitor;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.PrefixMatch;

/**
 * One rank's hook into a {@link ConsensusMonitor}: the decorated calls of {@link HiCacheRank}, each queueing its
 * {@code called} event before the call and its {@code returns} event after it, as SGLang's {@code
 * rank_consensus} decorator does. An engine calls these instead of the rank's own methods where it wants them
 * checked; {@link #UNMONITORED} calls straight through. Scheduler thread of the rank.
 *
 * <p>The payloads are the spec's ({@code ConsensusMonitor.tla}): {@code match_prefix} compares the request and its
 * hit lengths, {@code check_prefetch_progress} the request and its result, {@code release_aborted_request} the
 * request only.
 */
public final class ConsensusTap {

  /** A hook that observes nothing: every call goes straight to the rank. */
  public static final ConsensusTap UNMONITORED = new ConsensusTap(null, -1);

  private final ConsensusMonitor monitor;
  private final int rank;

  ConsensusTap(ConsensusMonitor monitor, int rank) {
    this.monitor = monitor;
    this.rank = rank;
  }

  /** Returns {@code monitor}'s hook of {@code rank}, or {@link #UNMONITORED} when {@code monitor} is null. */
  public static ConsensusTap of(ConsensusMonitor monitor, int rank) {
    return monitor == null ? UNMONITORED : monitor.rank(rank);
  }

  /** {@link HiCacheRank#matchPrefix}, checked: the request, then its device and host hit lengths. */
  public PrefixMatch matchPrefix(HiCacheRank cache, String rid, int[] tokens, long step) {
    called(step, ConsensusMonitor.MATCH_PREFIX, rid);
    PrefixMatch m = cache.matchPrefix(tokens);
    returned(step, ConsensusMonitor.MATCH_PREFIX, rid, "device " + m.deviceTokens() + " host " + m.hostTokens());
    return m;
  }

  /** {@link HiCacheRank#checkPrefetchProgress}, checked: the request, then its result. */
  public boolean checkPrefetchProgress(HiCacheRank cache, String rid, long step) {
    called(step, ConsensusMonitor.CHECK_PREFETCH_PROGRESS, rid);
    boolean done = cache.checkPrefetchProgress(rid);
    returned(step, ConsensusMonitor.CHECK_PREFETCH_PROGRESS, rid, done ? "True" : "False");
    return done;
  }

  /** {@link HiCacheRank#releaseAbortedRequest}, checked: the request, before and after its barrier (S6). */
  public void releaseAbortedRequest(HiCacheRank cache, String rid, long step) {
    called(step, ConsensusMonitor.RELEASE_ABORTED_REQUEST, rid);
    cache.releaseAbortedRequest(rid);
    returned(step, ConsensusMonitor.RELEASE_ABORTED_REQUEST, rid, ConsensusEvent.NO_CHECK);
  }

  /** Queues the {@code called} event of an engine's own decorated call {@code fn} about request {@code rid}. */
  public void called(long step, String fn, String rid) {
    if (monitor != null) {
      monitor.queue(rank, step, ConsensusEvent.called(fn, rid));
    }
  }

  /** Queues the {@code returns} event of an engine's own decorated call {@code fn}, with its compared result. */
  public void returned(long step, String fn, String rid, String value) {
    if (monitor != null) {
      monitor.queue(rank, step, ConsensusEvent.returns(fn, rid, value));
    }
  }
}
