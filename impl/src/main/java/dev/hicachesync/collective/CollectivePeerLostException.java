package dev.hicachesync.collective;

/**
 * A member of the group left while others waited for it: its process crashed, was killed, or was cut off
 * (a partition). Raised only by process groups that span processes, where a member can vanish; the message
 * names the lost rank, the group, and where the raising rank was waiting.
 */
public final class CollectivePeerLostException extends CollectiveException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the lost rank, its group and this rank's wait. */
  public CollectivePeerLostException(String message) {
    super(message);
  }

  @Override
  CollectivePeerLostException rethrownFor(String who) {
    return new CollectivePeerLostException(who + ": " + getMessage());
  }
}
