package dev.hicachesync.sim;

import dev.hicachesync.sync.Invariant;
import java.util.List;

/**
 * The first point at which two ranks of a sync domain disagreed, or a rank failed a collective or a local
 * invariant check.
 *
 * @param step the scheduler step
 * @param point the lockstep point (a sync point name, {@code end of step}, or {@code tree digest})
 * @param invariants the invariants violated there, the root cause first
 * @param rankA the reference rank (the domain's first), or the rank that failed
 * @param rankB the rank that disagrees with it, or -1
 * @param viewA what rank A saw
 * @param viewB what rank B saw
 */
public record Divergence(
    long step, String point, List<Invariant> invariants, int rankA, int rankB, String viewA, String viewB) {

  /** Returns the root-cause invariant. */
  public Invariant invariant() {
    return invariants.get(0);
  }

  /** Returns this divergence with other views. */
  Divergence withViews(String a, String b) {
    return new Divergence(step, point, invariants, rankA, rankB, a, b);
  }

  /** Returns the multi-line report printed by {@code simulate}. */
  public String describe() {
    StringBuilder sb = new StringBuilder("divergence: ").append(invariant());
    if (invariants.size() > 1) {
      sb.append(" (also ").append(String.join(", ", invariants.subList(1, invariants.size()).stream()
          .map(Enum::name).toList())).append(')');
    }
    sb.append(" at step ").append(step).append(", ").append(point);
    sb.append(rankB >= 0 ? ", ranks " + rankA + " and " + rankB : ", rank " + rankA);
    if (rankB >= 0) {
      sb.append("\n  rank ").append(rankA).append(": ").append(viewA.replace("\n", "\n    "));
    } else {
      sb.append("\n  ").append(viewA.replace("\n", "\n    "));
    }
    if (rankB >= 0) {
      sb.append("\n  rank ").append(rankB).append(": ").append(viewB.replace("\n", "\n    "));
    }
    return sb.toString();
  }
}
