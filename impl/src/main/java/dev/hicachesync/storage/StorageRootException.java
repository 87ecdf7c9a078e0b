package dev.hicachesync.storage;

/**
 * A file store cannot use its folder: it cannot be created or written, or a page folder under it leads
 * outside it (a symlink). Bad input, not a storage failure: the message is one line naming the folder
 * and the reason, and the run has not started (or stops before a page lands outside the root).
 */
public final class StorageRootException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} names the folder and the reason. */
  public StorageRootException(String message) {
    super(message);
  }
}
