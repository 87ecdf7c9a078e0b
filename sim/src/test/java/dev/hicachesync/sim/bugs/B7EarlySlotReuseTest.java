package dev.hicachesync.sim.bugs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.tier.HostLayout;
import java.util.EnumSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * B7's host-slot half (sgl-project/sglang#27010) seen through the bytes: with the slot ledger's check off,
 * only the data path can tell that a slot was reused while a storage read still landed in it.
 */
class B7EarlySlotReuseTest {

  /**
   * A prefetch times out while a read batch is in flight; its unread slots go back to the pool at once and
   * are handed to a write-through; the late read then overwrites the new owner's bytes, and the next check
   * of that slot (its storage backup, a load-back) finds bytes that are not its tokens' — HostSlotSafety.
   * Without the data path the same run passes: the check is what catches it.
   */
  @ParameterizedTest
  @ValueSource(longs = {7, 1, 2})
  void reusedSlotShowsAsCorruptedData(long seed) {
    EnumSet<Fault> f = EnumSet.of(Fault.EARLY_SLOT_REUSE);
    SimResult on = BugRuns.run(BugRuns.base(seed).faults(f).data(DataOptions.on(HostLayout.LAYER_FIRST, 2, 64)));
    assertNotNull(on.divergence(), "Failed on seed " + seed);
    assertEquals(Invariant.HostSlotSafety, on.divergence().invariant(), on.divergence()::describe);
    assertTrue(on.divergence().describe().contains("data check after"), on.divergence()::describe);
    SimResult off = BugRuns.run(BugRuns.base(seed).faults(f));
    assertNull(off.divergence(), () -> "without the data path nothing sees the reuse: " + off.divergence());
  }
}
