package dev.hicachesync.collective;

/** A collective failed (mismatch or timeout); the group that raised it is broken afterwards. */
public abstract class CollectiveException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CollectiveException(String message) {
    super(message);
  }

  /** Returns an exception of the same type for another thread, so that each stack trace is its own. */
  abstract CollectiveException rethrownFor(String who);
}
