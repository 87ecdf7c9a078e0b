package dev.hicachesync.cluster;

/**
 * A rank process could not join its world: a peer runs another protocol version or topology (the handshake),
 * two processes claim one rank, the world did not assemble in time, or the channel could not open. The
 * message is one line naming both sides where there are two.
 */
public final class ClusterStartException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with its one-line message. */
  public ClusterStartException(String message) {
    super(message);
  }

  /** Creates the exception with its one-line message and the cause. */
  public ClusterStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
