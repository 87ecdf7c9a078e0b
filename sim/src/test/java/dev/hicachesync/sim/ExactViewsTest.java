package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The divergence report's readable views are taken at the diverging lockstep point, not after the stop. */
class ExactViewsTest {

  /**
   * B1 (#20460) on seed 7: at S1 of the diverging step rank 0 still holds the write ack that rank 1
   * popped alone; the replayed views show exactly that (one queued write ack against none), and the
   * first tree node that differs, rather than the state two steps later.
   */
  @Test
  void viewsAreTakenAtTheDivergingPoint() {
    SimResult r = new Simulator(SimConfig.builder().topology(Topology.of(1, 2, 1, 1))
        .version(ProtocolVersion.PRE20460).steps(2000).collectiveTimeout(Duration.ofSeconds(5)).build()).run();
    Divergence d = r.divergence();
    assertNotNull(d);
    assertEquals(Invariant.AckAgreement, d.invariant(), d::describe);
    String a = line(d.viewA(), "at that point: ");
    String b = line(d.viewB(), "at that point: ");
    assertTrue(a.contains("queues write=1 "), d::describe);
    assertTrue(b.contains("queues write=0 "), d::describe);
    assertNotEquals(line(d.viewA(), "first differing tree node: "), line(d.viewB(), "first differing tree node: "));
    assertFalse(d.describe().contains("transient"), d::describe);
  }

  private static String line(String view, String prefix) {
    return view.lines().filter(l -> l.startsWith(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no '" + prefix + "' line in\n" + view));
  }
}
