package dev.hicachesync.collective;

/**
 * A member did not arrive within the fabric's timeout: the message names the missing ranks and where every
 * rank of the fabric is waiting (a group and call site, or "not in a collective").
 */
public final class CollectiveTimeoutException extends CollectiveException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the missing ranks and every rank's wait. */
  public CollectiveTimeoutException(String message) {
    super(message);
  }

  @Override
  CollectiveTimeoutException rethrownFor(String who) {
    return new CollectiveTimeoutException(who + ": " + getMessage());
  }
}
