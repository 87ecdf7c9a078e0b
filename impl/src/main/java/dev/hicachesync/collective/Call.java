package dev.hicachesync.collective;

/**
 * One member's k-th call on a group: what INV-1 compares ({@code kind}, {@code site}, {@code length}) and
 * the payload. {@code kind} folds in the op or root, e.g. {@code allReduce(MIN)}, {@code broadcast(root=2)}.
 */
record Call(String kind, String site, long[] values) {

  /** Returns the payload length compared by INV-1. */
  int length() {
    return values.length;
  }

  /** Returns whether two calls match under INV-1 (payload contents may differ). */
  boolean matches(Call other) {
    return kind.equals(other.kind) && site.equals(other.site) && length() == other.length();
  }

  /** Returns e.g. {@code allReduce(MIN) at S1 len 3}. */
  String describe() {
    return kind + " at " + site + " len " + length();
  }
}
