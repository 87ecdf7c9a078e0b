package dev.hicachesync.api;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.sync.GroupRegistry;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.List;

/**
 * The process groups of every rank of one grid, for ranks that run as threads of one JVM (tests, the worked
 * example, the simulator's in-JVM fabric). A collective whose members do not all arrive fails after
 * {@code timeout} with a {@code CollectiveTimeoutException} naming where every rank waits; one whose members
 * disagree (kind, site, length) fails at once with a {@code CollectiveMismatchException}.
 *
 * <p>Thread-safe: each rank's thread asks for its own groups.
 */
public final class InJvmCluster {
  private final LocalFabric fabric;
  private final Topology topology;

  /** A cluster of {@code dp × attnCp × attnTp × pp} ranks whose collectives time out after {@code timeout}. */
  public InJvmCluster(int dp, int attnCp, int attnTp, int pp, Duration timeout) {
    try {
      this.topology = Topology.of(dp, attnCp, attnTp, pp);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    this.fabric = new LocalFabric(timeout);
  }

  /** The cluster of {@code config}'s grid. */
  public static InJvmCluster of(HiCacheConfig config, Duration timeout) {
    return new InJvmCluster(config.dpSize(), config.attnCpSize(), config.attnTpSize(), config.ppSize(), timeout);
  }

  /** Returns the number of ranks. */
  public int worldSize() {
    return topology.worldSize();
  }

  /** Returns rank {@code r}'s groups; call once per rank (each call makes fresh handles). */
  public RankGroups groups(int r) {
    if (r < 0 || r >= topology.worldSize()) {
      throw new IllegalArgumentException("rank must be in [0, " + topology.worldSize() + "), got " + r);
    }
    Topology t = topology;
    RankCoord c = t.coords(r);
    PipeChannel fromPrev = c.pp() == 0 ? null
        : fabric.channel("pp", t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() - 1)), r);
    PipeChannel toNext = c.pp() == t.pp() - 1 ? null
        : fabric.channel("pp", r, t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() + 1)));
    // Every rank creates its groups in GroupRegistry's order: scheduler, prefetch (S7), completion sync.
    List<Integer> tp = t.attnTpGroup(r);
    List<Integer> cp = t.attnCpGroup(r);
    List<Integer> cpTp = t.cpTpGroup(r);
    boolean pp = t.pp() > 1;
    return new RankGroups(fabric.group(GroupRegistry.ATTN_TP, tp, r), fabric.group(GroupRegistry.ATTN_CP, cp, r),
        fabric.group(GroupRegistry.SCHED, cpTp, r), fabric.group(GroupRegistry.PF_ATTN_TP, tp, r),
        fabric.group(GroupRegistry.PF_ATTN_CP, cp, r), fabric.group(GroupRegistry.PF_CP_TP, cpTp, r),
        pp ? fabric.group(GroupRegistry.PF_PP, t.ppGroup(r), r) : null, fromPrev, toNext,
        fabric.group(GroupRegistry.PFC_ATTN_TP, tp, r), fabric.group(GroupRegistry.PFC_ATTN_CP, cp, r),
        fabric.group(GroupRegistry.PFC_CP_TP, cpTp, r), pp ? fabric.group(GroupRegistry.PFC_PP, t.ppGroup(r), r) : null);
  }

  /** Returns where every rank waits in a collective right now (for a hang report). */
  public String describeWaits() {
    return fabric.describeWaits();
  }
}
