package dev.hicachesync.collective;

/**
 * INV-1 (CollectiveMatching) violated: the k-th calls of a group's members differ in kind, call site or
 * payload length. The message names each rank with its call.
 */
public final class CollectiveMismatchException extends CollectiveException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming every rank and its call. */
  public CollectiveMismatchException(String message) {
    super(message);
  }

  @Override
  CollectiveMismatchException rethrownFor(String who) {
    return new CollectiveMismatchException(who + ": " + getMessage());
  }
}
