package dev.hicachesync.collective;

import java.util.List;

/**
 * One rank's handle on a CPU process group (a gloo group in SGLang): a rendezvous where the k-th call of
 * every member pairs with the k-th call of every other member.
 *
 * <p>A handle belongs to one thread of one rank at a time: two threads of a rank that both synchronize
 * (scheduler and prefetch thread) need two groups, as in SGLang. Every call blocks until all members have
 * made their matching call, then returns the same result on every member.
 */
public interface ProcessGroup {

  /** Returns the number of members. */
  int size();

  /** Returns the sorted global ranks of the members. */
  List<Integer> members();

  /** Returns the global rank of this handle's owner. */
  int rank();

  /** Returns the group's name (for messages); unnamed groups are named after their members. */
  String name();

  /**
   * Reduces {@code values} element-wise with {@code op} over all members and returns a fresh array with the
   * result. Caller: the owning thread.
   *
   * @throws CollectiveMismatchException if a member's matching call differs in kind, site or length
   * @throws CollectiveTimeoutException if a member does not arrive in time
   */
  long[] allReduce(String callSite, ReduceOp op, long[] values);

  /**
   * Like {@link #allReduce(String, ReduceOp, long[])}, but writes the result into {@code out} (at least as
   * long as {@code values}; may be {@code values} itself) and returns {@code out}, so that a caller that
   * reduces every step allocates nothing per call on the in-JVM fabric. Caller: the owning thread.
   */
  default long[] allReduce(String callSite, ReduceOp op, long[] values, long[] out) {
    if (out.length < values.length) {
      throw new IllegalArgumentException("result array of length " + out.length + " for " + values.length + " values");
    }
    long[] result = allReduce(callSite, op, values);
    System.arraycopy(result, 0, out, 0, result.length);
    return out;
  }

  /**
   * Returns once every member has called it. Caller: the owning thread.
   *
   * @throws CollectiveMismatchException if a member's matching call differs
   * @throws CollectiveTimeoutException if a member does not arrive in time
   */
  void barrier(String callSite);

  /**
   * Returns a fresh copy of {@code rootRank}'s {@code values} on every member; every member passes an array
   * of the same length (its content is ignored except on the root). Caller: the owning thread.
   *
   * @throws CollectiveMismatchException if a member's matching call differs (kind, root, site or length)
   * @throws CollectiveTimeoutException if a member does not arrive in time
   */
  long[] broadcast(String callSite, int rootRank, long[] values);
}
