package dev.hicachesync.storage;

/**
 * A store forgery: a page object that passed its checksum and names the key asked for, but whose payload is
 * not the bytes written for that key (changed, and its checksum recomputed, by something other than this
 * tool). Only a check of the bytes themselves sees it (the simulator's data check, which knows what every
 * page must hold). It is a failed read like any damaged page, counted on its own, and never a protocol
 * invariant: the store, not the protocol, delivered the wrong bytes.
 */
public final class ForgedPageException extends CorruptPageException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception naming the key and where the payload first differs. */
  public ForgedPageException(String message) {
    super(message);
  }
}
