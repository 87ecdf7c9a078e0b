package dev.hicachesync.cluster;

import java.util.Arrays;

/**
 * One member's k-th call on a group as it travels between processes: what INV-1 compares ({@code kind},
 * {@code site}, payload length) and the payload. {@code kind} folds in the op or root, as in the in-JVM
 * fabric: {@code allReduce(MIN)}, {@code barrier}, {@code broadcast(root=2)}.
 */
record WireCall(String kind, String site, long[] values) {

  /** Returns whether two calls match under INV-1 (payload contents may differ). */
  boolean matches(WireCall other) {
    return kind.equals(other.kind) && site.equals(other.site) && values.length == other.values.length;
  }

  /** Returns e.g. {@code allReduce(MIN) at S1 len 3}, the in-JVM fabric's wording. */
  String describe() {
    return kind + " at " + site + " len " + values.length;
  }

  @Override
  public String toString() {
    return describe() + " " + Arrays.toString(values);
  }
}
