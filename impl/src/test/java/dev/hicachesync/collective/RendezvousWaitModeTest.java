package dev.hicachesync.collective;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every group that waits actively, spinning ones included, times active waiting against parking
 * with its {@link WaitModeChooser} (a spinning pair once fell into parking every call with nothing to
 * bring it back). A one-member group completes each call at once, so one thread drives its chooser.
 */
class RendezvousWaitModeTest {
  @Test
  void aGroupThatFitsTheCoresMeasuresParkingAfterOneActiveEpoch() {
    if (!WaitPolicy.SPIN.equals("auto")) {
      return;
    }
    Rendezvous r = new Rendezvous("solo[0]", List.of(0), TimeUnit.MINUTES.toNanos(1), new WaitBoard());
    WaitModeChooser chooser = r.chooser();
    assertNotNull(chooser, "a spinning group has a chooser");
    long[] values = new long[8];
    long[] out = new long[8];
    r.allReduceInto(0, "S123", ReduceOp.MIN, values, out); // starts the chooser's clock
    for (int i = 0; i < WaitModeChooser.EPOCH - 1; i++) {
      r.allReduceInto(0, "S123", ReduceOp.MIN, values, out);
      assertFalse(chooser.parking(), "the first epoch waits actively");
    }
    r.allReduceInto(0, "S123", ReduceOp.MIN, values, out);
    assertTrue(chooser.parking(), "the second epoch measures parking");
  }
}
