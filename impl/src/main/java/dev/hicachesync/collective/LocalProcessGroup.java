package dev.hicachesync.collective;

import java.util.List;

/** One rank's {@link ProcessGroup} handle on a {@link Rendezvous} of a {@link LocalFabric}. */
final class LocalProcessGroup implements ProcessGroup {
  private final Rendezvous rendezvous;
  private final int rank;
  private final int index;

  LocalProcessGroup(Rendezvous rendezvous, int rank) {
    this.rendezvous = rendezvous;
    this.rank = rank;
    this.index = rendezvous.members().indexOf(rank);
  }

  @Override
  public int size() {
    return rendezvous.members().size();
  }

  @Override
  public List<Integer> members() {
    return rendezvous.members();
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public String name() {
    return rendezvous.name();
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    // The rendezvous copies the payload in before it counts the arrival, so a caller reusing its array
    // cannot change what others reduce.
    return rendezvous.allReduce(index, site(callSite), op, values);
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values, long[] out) {
    if (out.length < values.length) {
      throw new IllegalArgumentException("result array of length " + out.length + " for " + values.length + " values");
    }
    return rendezvous.allReduceInto(index, site(callSite), op, values, out);
  }

  @Override
  public void barrier(String callSite) {
    rendezvous.barrier(index, site(callSite));
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    if (!rendezvous.members().contains(rootRank)) {
      throw new IllegalArgumentException("broadcast root " + rootRank + " is not a member of " + name());
    }
    return rendezvous.broadcast(index, site(callSite), rootRank, values);
  }

  private static String site(String callSite) {
    if (callSite == null || callSite.isEmpty()) {
      throw new IllegalArgumentException("a collective needs a call site");
    }
    return callSite;
  }

  @Override
  public String toString() {
    return name() + "@rank" + rank;
  }
}
