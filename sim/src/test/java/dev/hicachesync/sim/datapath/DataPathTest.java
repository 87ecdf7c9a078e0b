package dev.hicachesync.sim.datapath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.storage.ForgedPageException;
import dev.hicachesync.storage.MemoryStorageBackend;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.tier.DeviceChoice;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.PageContent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One rank's data path on the simulated device: bytes arrive intact, and a slot reused in flight shows. */
class DataPathTest {
  private static final int PS = 4;
  private static final int[] TOKENS = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

  /** A copy's timing event that the test completes by hand. */
  private static final class Gate implements TransferEvent {
    boolean open;

    @Override
    public boolean isDone() {
      return open;
    }

    @Override
    public void await() {
      open = true;
    }
  }

  private static DataPath path(HostLayout layout) {
    DataOptions o = DataOptions.on(layout, 2, 64).withDevice(DeviceChoice.SIMULATED);
    return new DataPath(o, 8, 8, new ManualTicker(), 0);
  }

  private static long seed(int page) {
    return PageContent.seed(TOKENS, page * PS, PS);
  }

  /** Compute, write-through, storage round trip and load-back: every page arrives as computed. */
  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void bytesArriveIntact(HostLayout layout) {
    DataPath d = path(layout);
    d.compute(new int[] {0, 1}, TOKENS, 1, PS); // pages 1 and 2 of the sequence
    long[] seeds = {seed(1), seed(2)};
    Gate g = new Gate();
    TransferEvent toHost = d.toHost(g, new int[] {0, 1}, new int[] {5, 6}, seeds);
    assertFalse(toHost.isDone());
    g.open = true;
    assertTrue(toHost.isDone());
    MemoryStorageBackend l3 = new MemoryStorageBackend();
    PageKey k = PageKey.first(new int[] {1, 2, 3, 4});
    d.store(l3, k, 6, seeds[1]);
    assertTrue(d.load(l3, k, 3, seeds[1]));
    assertFalse(d.load(l3, PageKey.first(new int[] {9}), 4, seeds[1]), "absent object: a failed read");
    TransferEvent back = d.fromHost(TransferEvent.completed(), new int[] {5, 3}, new int[] {7, 2}, seeds);
    back.await();
    assertEquals(6 * 64, d.movedBytes(), "two copies of 2 pages, one write, one read");
    assertTrue(d.checkedPages() >= 6);
  }

  /** The device source of a write-through is recomputed before the copy lands: the host slot is corrupt. */
  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void sourceReusedInFlightIsCaught(HostLayout layout) {
    DataPath d = path(layout);
    d.compute(new int[] {0}, TOKENS, 0, PS);
    Gate g = new Gate();
    TransferEvent ev = d.toHost(g, new int[] {0}, new int[] {1}, new long[] {seed(0)});
    d.compute(new int[] {0}, TOKENS, 2, PS); // the page is reused by another request while the copy runs
    g.open = true;
    InvariantViolation v = assertThrows(InvariantViolation.class, ev::isDone);
    assertEquals(Invariant.HostSlotSafety, v.invariant());
    assertTrue(v.getMessage().contains("host slot 1"), v.getMessage());
  }

  /** A host slot overwritten by a late storage read while a load-back reads it: the device page is corrupt. */
  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void hostSlotOverwrittenDuringLoadBackIsCaught(HostLayout layout) {
    DataPath d = path(layout);
    d.compute(new int[] {0, 1}, TOKENS, 0, PS);
    d.toHost(TransferEvent.completed(), new int[] {0, 1}, new int[] {2, 3}, new long[] {seed(0), seed(1)})
        .await();
    MemoryStorageBackend l3 = new MemoryStorageBackend();
    PageKey other = PageKey.first(new int[] {5, 6, 7, 8});
    d.store(l3, other, 3, seed(1));
    Gate g = new Gate();
    TransferEvent ev = d.fromHost(g, new int[] {2}, new int[] {6}, new long[] {seed(0)});
    d.load(l3, other, 2, seed(1)); // the stale read lands in slot 2 before the load-back completes
    InvariantViolation v = assertThrows(InvariantViolation.class, ev::await);
    assertEquals(Invariant.HostSlotSafety, v.invariant());
    assertTrue(v.getMessage().contains("device page 6 loaded from host slot 2"), v.getMessage());
  }

  /**
   * A backup checks the slot it writes and a storage read the slot it fills, each its own slot: neighbours that
   * hold the right page do not make a wrong one pass, a wrong slot is never written to the store.
   */
  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void backupsAndStorageReadsCheckTheirOwnSlot(HostLayout layout) {
    DataPath d = path(layout);
    d.compute(new int[] {0, 1, 2}, TOKENS, 0, PS);
    d.toHost(TransferEvent.completed(), new int[] {0, 1, 2}, new int[] {3, 4, 5}, new long[] {seed(0), seed(1), seed(2)})
        .await(); // slots 3, 4, 5 hold pages 0, 1, 2
    MemoryStorageBackend l3 = new MemoryStorageBackend();
    PageKey k = PageKey.first(new int[] {4});
    InvariantViolation v = assertThrows(InvariantViolation.class, () -> d.store(l3, k, 4, seed(0)));
    assertEquals(Invariant.HostSlotSafety, v.invariant());
    assertTrue(v.getMessage().contains("storage backup: host slot 4"), v.getMessage());
    assertEquals(0, l3.size(), "a slot that fails its check is not written");
    d.store(l3, k, 4, seed(1));
    assertTrue(d.load(l3, k, 3, seed(1)), "slot 3 now holds page 1");
    ForgedPageException f = assertThrows(ForgedPageException.class, () -> d.load(l3, k, 5, seed(2)));
    assertTrue(f.getMessage().contains("store forgery"), f.getMessage());
    d.store(l3, PageKey.first(new int[] {5}), 3, seed(1)); // the slot the read filled holds page 1
  }
}
