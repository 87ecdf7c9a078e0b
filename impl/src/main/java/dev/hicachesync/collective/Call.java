package dev.hicachesync.collective;

/**
 * One member's k-th call on a group: what INV-1 compares ({@code kind}, {@code site}, {@code length}) and
 * the payload. {@code kind} folds in the op or root, e.g. {@code allReduce(MIN)}, {@code broadcast(root=2)};
 * {@code op} is null unless an all-reduce, {@code root} is -1 unless a broadcast.
 */
record Call(String kind, String site, long[] values, ReduceOp op, int root) {

  static Call allReduce(String site, ReduceOp op, long[] values) {
    return new Call("allReduce(" + op.name() + ")", site, values, op, -1);
  }

  static Call barrier(String site) {
    return new Call("barrier", site, new long[0], null, -1);
  }

  static Call broadcast(String site, int root, long[] values) {
    return new Call("broadcast(root=" + root + ")", site, values, null, root);
  }

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
