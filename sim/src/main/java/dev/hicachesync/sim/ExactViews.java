package dev.hicachesync.sim;

import java.util.List;

/**
 * The readable part of a divergence report, taken exactly at the lockstep point where the digests first
 * differed: the run is replayed (one seed, one run) with both ranks recording their queues, pools and tree
 * at every point of that step.
 *
 * <p>Why replay rather than record always: a readable tree at every lockstep point of every step would
 * cost more than the run; the digests in the ring already say where to look, and determinism makes the
 * second run reach the same point in the same state. Returns null (the caller keeps the views after the
 * stop) when the replay ends otherwise or the divergence is not a digest disagreement.
 */
final class ExactViews {
  /** Label of the end-of-run tree comparison, whose views after the stop are exact already. */
  private static final String END_OF_RUN = "tree digest at the end";

  private ExactViews() {}

  static Divergence replay(SimConfig cfg, Divergence d) {
    if (d.rankB() < 0 || d.point().equals(END_OF_RUN)) {
      return null;
    }
    RankRecorder[] rec = Simulator.replayViews(cfg, d.step(), d.rankA(), d.rankB(), d);
    if (rec == null) {
      return null;
    }
    RankRecorder a = rec[d.rankA()];
    RankRecorder b = rec[d.rankB()];
    int entry = firstDifferentEntry(a.entries(d.step()), b.entries(d.step()));
    if (entry < 0 || entry >= a.views().size() || entry >= b.views().size()) {
      return null;
    }
    RankRecorder.View va = a.views().get(entry);
    RankRecorder.View vb = b.views().get(entry);
    String[] nodes = firstDifferentNode(va.tree(), vb.tree());
    return d.withViews(d.viewA() + "\n" + view(va, nodes[0]), d.viewB() + "\n" + view(vb, nodes[1]));
  }

  private static String view(RankRecorder.View v, String node) {
    return "at that point: " + v.state() + "\nfirst differing tree node: "
        + (node == null ? "none (the trees agree here; the difference is in acks, prefetches or pools)" : node);
  }

  /** Returns the index of the first entry whose code or digests differ, or -1 (null rings: -1). */
  static int firstDifferentEntry(long[] a, long[] b) {
    if (a == null || b == null) {
      return -1;
    }
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i += RankRecorder.WIDTH) {
      for (int k = 0; k < 5; k++) {
        if (a[i + k] != b[i + k]) {
          return i / RankRecorder.WIDTH;
        }
      }
    }
    return -1;
  }

  /** Returns the first line where two tree listings differ, one per side, or nulls when they agree. */
  static String[] firstDifferentNode(List<String> ta, List<String> tb) {
    for (int i = 0; i < Math.max(ta.size(), tb.size()); i++) {
      String x = i < ta.size() ? ta.get(i) : "(no node)";
      String y = i < tb.size() ? tb.get(i) : "(no node)";
      if (!x.equals(y)) {
        return new String[] {x, y};
      }
    }
    return new String[] {null, null};
  }
}
