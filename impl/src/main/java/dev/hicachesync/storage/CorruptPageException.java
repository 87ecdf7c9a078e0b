package dev.hicachesync.storage;

/**
 * A stored page object is unreadable: bad header, wrong length or checksum mismatch, or (its subclass {@link
 * ForgedPageException}) bytes that pass every check but are not the page's. The controller treats it as a
 * read failure of that page (the leading run of successes ends there, B14).
 */
public class CorruptPageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception naming the key and what is wrong. */
  public CorruptPageException(String message) {
    super(message);
  }
}
