package dev.hicachesync.sim;

import dev.hicachesync.topology.GroupKind;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The sync domains of a step-by-step run ({@link SimulationRun}), compared after every advance over the
 * steps their members recorded since the last complete one. A class of its own because it keeps a
 * watermark per domain (the first step not yet complete on every member), which is what makes each check
 * cost the steps since the last one rather than the whole run.
 *
 * <p>Driving thread only, while every rank is parked or ended.
 */
final class LockstepChecks {
  private final RankRecorder[] recorders;
  private final List<DomainChecker> checkers = new ArrayList<>();
  private final List<int[]> domains = new ArrayList<>();
  private final long[] checkedFrom;

  LockstepChecks(Topology topology, RankRecorder[] recorders) {
    this.recorders = recorders;
    for (List<Integer> domain : topology.groups(GroupKind.SYNC_DOMAIN)) {
      int[] ranks = domain.stream().mapToInt(Integer::intValue).toArray();
      RankRecorder[] members = new RankRecorder[ranks.length];
      for (int i = 0; i < ranks.length; i++) {
        members[i] = recorders[ranks[i]];
      }
      domains.add(ranks);
      checkers.add(new DomainChecker(topology, ranks, members));
    }
    this.checkedFrom = new long[domains.size()];
  }

  /** Compares every domain over the steps its members have recorded since the last complete one; returns the first divergence, or null. */
  Divergence check() {
    for (int d = 0; d < domains.size(); d++) {
      int[] ranks = domains.get(d);
      if (ranks.length < 2) {
        continue;
      }
      long lo = Long.MAX_VALUE;
      long hi = -1;
      for (int r : ranks) {
        lo = Math.min(lo, recorders[r].step());
        hi = Math.max(hi, recorders[r].step());
      }
      for (long s = Math.max(0, checkedFrom[d]); s <= hi; s++) {
        Divergence x = checkers.get(d).check(s);
        if (x != null) {
          return x;
        }
      }
      checkedFrom[d] = Math.max(checkedFrom[d], lo); // steps before every member's current one are complete
    }
    return null;
  }
}
