package dev.hicachesync.api;

/**
 * A rank's calls left the step order ({@link SchedulerCall}): the rank that made the call fails with it at
 * once, naming the call it expected; the other ranks of its sync domain fail with it at the sync point where
 * they meet that rank, naming the rank, its step and the call it skipped. The rank is unusable afterwards:
 * like SGLang, the engine restarts the replica.
 */
public final class CallOrderException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with its one-line message. */
  public CallOrderException(String message) {
    super(message);
  }
}
