package dev.hicachesync.sim;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.SyncPoint;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Fault {@link Fault#S7_STAGE_MASK} (knob {@code s7_stage_mask}, HiCacheUnifiedPipeline.tla's {@code PfQuery}): on
 * stage 0 the prefetch thread's pp group posts S7 with one element more (a per-page hit mask as long as the
 * stage's own matched key, one page longer on stage 0, the spec's {@code S7Extra}), a zero the MIN leaves alone;
 * the later stages post the one-element payload, so the sizes differ on the pp-spanning group.
 */
final class PfQueryStageMask implements ProcessGroup {
  private final ProcessGroup pp;

  private PfQueryStageMask(ProcessGroup pp) {
    this.pp = pp;
  }

  /** The prefetch thread's pp group of a rank on {@code stage}: wrapped on stage 0 under the fault, else itself. */
  static ProcessGroup wrap(Set<Fault> faults, int stage, ProcessGroup pp) {
    return stage == 0 && faults.contains(Fault.S7_STAGE_MASK) ? new PfQueryStageMask(pp) : pp;
  }

  @Override
  public int size() {
    return pp.size();
  }

  @Override
  public List<Integer> members() {
    return pp.members();
  }

  @Override
  public String name() {
    return pp.name();
  }

  @Override
  public int rank() {
    return pp.rank();
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    if (!callSite.equals(SyncPoint.S7.name())) {
      return pp.allReduce(callSite, op, values);
    }
    long[] r = pp.allReduce(callSite, op, Arrays.copyOf(values, values.length + 1));
    return Arrays.copyOf(r, values.length);
  }

  @Override
  public void barrier(String callSite) {
    pp.barrier(callSite);
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    return pp.broadcast(callSite, rootRank, values);
  }
}
