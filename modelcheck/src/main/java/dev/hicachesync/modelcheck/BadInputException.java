package dev.hicachesync.modelcheck;

/** Input the user or the catalogue got wrong; its message is one line meant for the user. */
public final class BadInputException extends Exception {

  /** Creates the exception with its one-line message. */
  public BadInputException(String message) {
    super(message);
  }
}
