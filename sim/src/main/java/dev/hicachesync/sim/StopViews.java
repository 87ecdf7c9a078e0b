package dev.hicachesync.sim;

import dev.hicachesync.controller.CacheController;
import java.util.List;

/**
 * The readable state of the two ranks a divergence names, taken after the run stopped (every rank thread
 * joined), when no replay could take it at the exact lockstep point ({@link ExactViews}): their queues and
 * pools, and the first tree node where they differ.
 */
final class StopViews {
  private StopViews() {}

  /** Adds both ranks' state after the stop (every thread has been joined): queues, pools and the first tree node where they differ. */
  static Divergence withViews(Divergence d, RankEngine[] engines) {
    if (d.rankB() < 0) {
      return d;
    }
    CacheController a = engines[d.rankA()].controller();
    CacheController b = engines[d.rankB()].controller();
    List<String> ta = a.view().tree().describe();
    List<String> tb = b.view().tree().describe();
    String na = "(same)";
    String nb = "(same)";
    for (int i = 0; i < Math.max(ta.size(), tb.size()); i++) {
      String x = i < ta.size() ? ta.get(i) : "(no node)";
      String y = i < tb.size() ? tb.get(i) : "(no node)";
      if (!x.equals(y)) {
        na = x;
        nb = y;
        break;
      }
    }
    return d.withViews(d.viewA() + "\n" + state(a, na), d.viewB() + "\n" + state(b, nb));
  }

  private static String state(CacheController c, String node) {
    return String.format("after the stop: %s%nfirst differing tree node: %s", queues(c),
        node.equals("(same)") ? "none now (the difference was transient)" : node);
  }

  /** Returns a rank's tree digest, queue lengths, free pages and ongoing prefetches, on one line. */
  static String queues(CacheController c) {
    int[] q = c.view().queueSizes();
    return String.format("%s; queues write=%d load=%d revoke=%d backup=%d release=%d; "
            + "free device=%d host=%d; ongoing prefetches=%d",
        c.view().tree().digest(), q[0], q[1], q[2], q[3], q[4], c.view().freeDevicePages(), c.view().freeHostPages(),
        c.view().ongoingPrefetches().size());
  }
}
