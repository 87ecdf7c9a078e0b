package dev.hicachesync.sim;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.topology.GroupKind;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle: compares the recorded digests of every member of one sync domain, lockstep point by lockstep
 * point, and names the invariant of the first disagreement.
 *
 * <p>Nomenclature: an <em>entry</em> is one rank's (point, tree, acks, prefetch, alloc) at one lockstep
 * point; the <em>reference</em> is the domain's first rank. Components map to invariants: acks →
 * {@code AckAgreement}, prefetch → {@code PrefetchAgreement}, alloc → {@code AllocAgreement}, tree →
 * {@code TreeAgreement}; a different sequence of points → {@code CollectiveMatching}. Root causes are
 * listed before their consequences (a different ack count is why the trees differ).
 *
 * <p>With PP &gt; 1 the stages are not in lockstep on their storage threads: a rank's S7 (over its stage's
 * grid and the pp group) and, in version {@code unified}, its completion sync's S5 (over the pp group too,
 * #27010) fall in whichever step its
 * thread passes, so another stage's S7 or S5 of the same round may fall in another step. A member of a later
 * stage is therefore compared with the reference without its S7 and S5 entries, and in full with its own
 * stage's first rank (in lockstep with it); their matching across the stages is the collective's own, per
 * group and round ({@code Rendezvous} fails a call whose site or shape differs from the round's), not the step
 * it falls in.
 */
final class DomainChecker {
  private final int[] ranks;
  private final RankRecorder[] recorders;
  /** Each member's PP stage. */
  private final int[] stages;

  DomainChecker(Topology t, int[] ranks, RankRecorder[] recorders) {
    this.ranks = ranks;
    this.recorders = recorders;
    this.stages = java.util.Arrays.stream(ranks).map(r -> t.coords(r).pp()).toArray();
  }

  /** Returns the first disagreement at {@code step}, or null; null too if a ring lost the step. */
  Divergence check(long step) {
    long[] all = recorders[0].entries(step);
    if (all == null) {
      return null;
    }
    for (int m = 1; m < recorders.length; m++) {
      long[] other = recorders[m].entries(step);
      if (other == null) {
        continue;
      }
      long[] ref = all;
      if (stages[m] != stages[0]) { // another stage: its stage leader in full, the reference without S7
        int a = leader(m);
        if (a != m) {
          long[] lead = recorders[a].entries(step);
          Divergence d = lead == null ? null : compare(step, a, lead, m, other);
          if (d != null) {
            return d;
          }
        }
        boolean s5 = recorders[0].s5OnThread();
        ref = withoutThreadPoints(all, s5);
        other = withoutThreadPoints(other, s5);
      }
      Divergence d = compare(step, 0, ref, m, other);
      if (d != null) {
        return d;
      }
    }
    return null;
  }

  /** The first member of member {@code m}'s stage. */
  private int leader(int m) {
    int a = 0;
    while (stages[a] != stages[m]) {
      a++;
    }
    return a;
  }

  /**
   * {@code e} without its S7 entries and, where S5 is the completion-sync thread's ({@code s5}: version {@code
   * unified}), its S5 entries: the storage threads', not in lockstep across the stages.
   */
  private static long[] withoutThreadPoints(long[] e, boolean s5) {
    long[] out = new long[e.length];
    int n = 0;
    for (int i = 0; i < e.length; i += RankRecorder.WIDTH) {
      if (e[i] != SyncPoint.S7.ordinal() && !(s5 && e[i] == SyncPoint.S5.ordinal())) {
        System.arraycopy(e, i, out, n, RankRecorder.WIDTH);
        n += RankRecorder.WIDTH;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** The first disagreement of member {@code m}'s entries with member {@code a}'s at {@code step}, or null. */
  private Divergence compare(long step, int a, long[] ref, int m, long[] other) {
    int n = Math.min(ref.length, other.length);
    for (int i = 0; i < n; i += RankRecorder.WIDTH) {
      List<Invariant> bad = violated(ref, other, i);
      if (!bad.isEmpty()) {
        return new Divergence(step, RankRecorder.label(ref[i]), bad, ranks[a], ranks[m],
            entry(ref, i), entry(other, i));
      }
    }
    if (ref.length != other.length) {
      int i = n;
      long[] longer = ref.length > n ? ref : other;
      return new Divergence(step, RankRecorder.label(longer[i]), List.of(Invariant.CollectiveMatching),
          ranks[a], ranks[m], ref.length > n ? entry(ref, i) : "(no further lockstep point)",
          other.length > n ? entry(other, i) : "(no further lockstep point)");
    }
    return null;
  }

  /**
   * Returns the invariants two entries at offset {@code i} violate (code, tree, acks, prefetch, alloc), root
   * cause first; empty when they agree.
   */
  static List<Invariant> violated(long[] ref, long[] other, int i) {
    List<Invariant> bad = new ArrayList<>();
    if (ref[i] != other[i]) {
      bad.add(Invariant.CollectiveMatching);
    } else {
      if (ref[i + 2] != other[i + 2]) {
        bad.add(Invariant.AckAgreement);
      }
      if (ref[i + 3] != other[i + 3]) {
        bad.add(Invariant.PrefetchAgreement);
      }
      if (ref[i + 4] != other[i + 4]) {
        bad.add(Invariant.AllocAgreement);
      }
      if (ref[i + 1] != other[i + 1]) {
        bad.add(Invariant.TreeAgreement);
      }
    }
    return bad;
  }

  private static String entry(long[] e, int i) {
    return String.format("%s: tree=%016x acks=%016x prefetch=%016x alloc=%016x; acks popped so far: "
            + "write %d, load %d, revoke %d, backup %d, release %d",
        RankRecorder.label(e[i]), e[i + 1], e[i + 2], e[i + 3], e[i + 4], e[i + 5], e[i + 6], e[i + 7],
        e[i + 8], e[i + 9]);
  }

  /**
   * The checks at the end of an in-JVM run: every sync domain's digests of the last two steps, then its final
   * tree digests; returns the first divergence, else null with each domain's tree digest added to {@code
   * digests}.
   */
  static Divergence endOfRun(Topology t, RankEngine[] engines, RankRecorder[] recorders, long completed,
      List<Long> digests) {
    for (List<Integer> domain : t.groups(GroupKind.SYNC_DOMAIN)) {
      int[] ranks = domain.stream().mapToInt(Integer::intValue).toArray();
      RankRecorder[] members = new RankRecorder[ranks.length];
      for (int i = 0; i < ranks.length; i++) {
        members[i] = recorders[ranks[i]];
      }
      DomainChecker checker = new DomainChecker(t, ranks, members);
      for (long s = Math.max(0, completed - 2); s < completed; s++) {
        Divergence d = checker.check(s);
        if (d != null) {
          return d;
        }
      }
      long ref = engines[ranks[0]].controller().view().tree().digest().hash();
      for (int i = 1; i < ranks.length; i++) {
        long other = engines[ranks[i]].controller().view().tree().digest().hash();
        if (other != ref) {
          return new Divergence(completed, "tree digest at the end", List.of(Invariant.TreeAgreement),
              ranks[0], ranks[i], Long.toHexString(ref), Long.toHexString(other));
        }
      }
      digests.add(ref);
    }
    return null;
  }
}
