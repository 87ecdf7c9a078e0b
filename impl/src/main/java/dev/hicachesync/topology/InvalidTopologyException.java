package dev.hicachesync.topology;

/** A topology size, coordinate, rank or spec string is out of range; the message is one line. */
public final class InvalidTopologyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a one-line message naming the bad value. */
  public InvalidTopologyException(String message) {
    super(message);
  }
}
