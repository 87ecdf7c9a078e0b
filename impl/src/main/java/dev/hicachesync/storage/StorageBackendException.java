package dev.hicachesync.storage;

/**
 * A storage backend failed an operation outright (a connection lost, a server error), as opposed to a
 * page that is absent or corrupt. The rank's storage or backup thread cannot go on: it fails with this
 * named error instead of dying silently, so that its peers are told (SGLang #38428, where they waited
 * forever).
 */
public final class StorageBackendException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} names the rank, the operation and the page. */
  public StorageBackendException(String message) {
    super(message);
  }
}
