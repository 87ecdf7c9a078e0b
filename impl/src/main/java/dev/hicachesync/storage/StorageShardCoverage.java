package dev.hicachesync.storage;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * INV-8 ({@link Invariant#StorageShardCoverage}, the TLA+ invariant of the same name in {@code
 * spec/HiCacheReplicas.tla}): the ranks that write a storage key are the ranks that will read it. Every
 * rank reads its own shard of a page (its stage's key space, its CP coordinate's part of the sequence);
 * the replica that backs the page up must therefore write every such shard. A shard nobody writes makes
 * that rank's S7 hit count 0, the MIN over the domain 0, and every prefetch of the key revoked: no hang,
 * L3 silently never hits (B13).
 *
 * <p>Checked per topology, not per step: the election is a function of the topology alone.
 */
public final class StorageShardCoverage {

  /** The part of a page that one replicated group of ranks holds: stage, replica and CP coordinate. */
  public record Shard(int pp, int dp, int cp) {
    static Shard of(RankCoord c) {
      return new Shard(c.pp(), c.dp(), c.cp());
    }

    @Override
    public String toString() {
      return "(pp=" + pp + ",dp=" + dp + ",cp=" + cp + ")";
    }
  }

  private StorageShardCoverage() {}

  /** Returns the shards some rank reads but no elected writer of its replica writes, in rank order. */
  public static List<Shard> unwrittenShards(Topology topology, WriterElection election) {
    Set<Shard> written = new LinkedHashSet<>();
    for (int w : election.writers(topology)) {
      written.add(Shard.of(topology.coords(w)));
    }
    Set<Shard> unwritten = new LinkedHashSet<>();
    for (int r = 0; r < topology.worldSize(); r++) {
      Shard read = Shard.of(topology.coords(r));
      if (!written.contains(read)) {
        unwritten.add(read);
      }
    }
    return new ArrayList<>(unwritten);
  }

  /**
   * Throws unless every shard that some rank reads is written by the election.
   *
   * @throws InvariantViolation of {@link Invariant#StorageShardCoverage}, naming the unwritten shards
   */
  public static void check(Topology topology, WriterElection election) {
    List<Shard> unwritten = unwrittenShards(topology, election);
    if (!unwritten.isEmpty()) {
      throw new InvariantViolation(Invariant.StorageShardCoverage, "writer election " + election.label()
          + " on " + topology + " never writes shards " + unwritten
          + ": their readers find 0 pages, the S7 MIN is 0, every prefetch is revoked");
    }
  }
}
