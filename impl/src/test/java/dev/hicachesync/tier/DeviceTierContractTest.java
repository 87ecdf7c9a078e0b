package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.env.TransferEvent;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract every {@link DeviceTier} meets, rule by rule as its javadoc numbers them; one tiny subclass
 * per implementation (the JCuda one skipped without CUDA).
 */
abstract class DeviceTierContractTest {
  static final int PAGES = 8;
  static final int LAYERS = 3;
  static final int LAYER_BYTES = 256;

  protected DeviceTier tier;

  /** Returns a fresh tier of {@link #PAGES} × {@link #LAYERS} × {@link #LAYER_BYTES}. */
  protected abstract DeviceTier newTier();

  /** Drives {@code event} to completion the way its implementation completes (ticks, or a GPU wait). */
  protected abstract void complete(TransferEvent event);

  /**
   * Whether this test controls when copies complete, so that "still in flight" can be asserted (the
   * simulated tier: the ticker is the test's); a GPU decides by itself.
   */
  protected abstract boolean controlsCompletion();

  @BeforeEach
  void open() {
    tier = newTier();
  }

  @AfterEach
  void close() {
    if (tier != null) { // null when newTier() skipped the test
      tier.close();
    }
  }

  private static ByteBuffer page(int seed) {
    return HostPoolTest.pattern(seed, LAYERS, LAYER_BYTES);
  }

  private ByteBuffer readDevice(int p) {
    ByteBuffer out = ByteBuffer.allocate(tier.pageBytes());
    tier.read(p, out);
    return out.flip();
  }

  private static ByteBuffer readHost(HostPool host, int p) {
    ByteBuffer out = ByteBuffer.allocate(host.pageBytes());
    host.readPage(p, out);
    return out.flip();
  }

  @Test
  void synchronousWriteAndReadRoundTrip() {
    assertEquals(PAGES, tier.capacityPages());
    assertEquals(LAYERS * LAYER_BYTES, tier.pageBytes());
    for (int p = 0; p < PAGES; p++) {
      tier.write(p, page(p));
    }
    for (int p = 0; p < PAGES; p++) {
      assertEquals(page(p), readDevice(p), "page " + p);
    }
    assertFalse(tier.describe().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void backupThenLoadBackMovesTheSameLogicalData(HostLayout layout) {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, layout);
    tier.write(1, page(11));
    tier.write(4, page(44));
    TransferEvent backup = tier.copyToHost(new int[] {1, 4}, host, new int[] {6, 2});
    complete(backup);
    assertTrue(backup.isDone());
    assertEquals(page(11), readHost(host, 6));
    assertEquals(page(44), readHost(host, 2));

    TransferEvent load = tier.copyFromHost(host, new int[] {2, 6}, new int[] {0, 7});
    complete(load);
    assertTrue(load.isDone());
    assertEquals(page(44), readDevice(0));
    assertEquals(page(11), readDevice(7));
  }

  @Test
  void emptyTransferCompletes() {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    TransferEvent e = tier.copyToHost(new int[0], host, new int[0]);
    complete(e);
    assertTrue(e.isDone());
  }

  @Test
  void rejectsMismatchedPairsShapesAndPages() {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    HostPool other = new HostPool(PAGES, LAYERS + 1, LAYER_BYTES, HostLayout.LAYER_FIRST);
    assertThrows(IllegalArgumentException.class, () -> tier.copyToHost(new int[] {0, 1}, host, new int[] {0}));
    assertThrows(IllegalArgumentException.class, () -> tier.copyToHost(new int[] {0}, other, new int[] {0}));
    assertThrows(IndexOutOfBoundsException.class, () -> tier.copyToHost(new int[] {PAGES}, host, new int[] {0}));
    assertThrows(IndexOutOfBoundsException.class, () -> tier.copyFromHost(host, new int[] {-1}, new int[] {0}));
    assertThrows(IllegalArgumentException.class, () -> tier.write(0, ByteBuffer.allocate(1)));
  }

  /** Rule 3: a source modified in flight leaves each destination layer holding the old or the new bytes. */
  @ParameterizedTest
  @EnumSource(HostLayout.class)
  void sourceModifiedInFlightGivesOldOrNewBytesPerLayer(HostLayout layout) {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, layout);
    host.writePage(1, page(1));
    TransferEvent load = tier.copyFromHost(host, new int[] {1}, new int[] {4});
    host.writePage(1, page(2)); // the misuse rule 3 forbids: a premature reuse of the host slot
    complete(load);
    ByteBuffer got = readDevice(4);
    ByteBuffer old = page(1);
    ByteBuffer now = page(2);
    for (int l = 0; l < LAYERS; l++) {
      ByteBuffer g = got.slice(l * LAYER_BYTES, LAYER_BYTES);
      assertTrue(g.equals(old.slice(l * LAYER_BYTES, LAYER_BYTES)) || g.equals(now.slice(l * LAYER_BYTES, LAYER_BYTES)),
          "layer " + l + " of the destination is neither the old nor the new source");
    }
  }

  /**
   * Rules 2 and 4: events complete independently of issue order and of synchronous access; a synchronous
   * read or write of another page neither waits for nor completes a copy in flight, and the copy still
   * delivers its bytes afterwards.
   */
  @Test
  void synchronousAccessLeavesCopiesInFlight() {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    tier.write(2, page(22));
    TransferEvent backup = tier.copyToHost(new int[] {2}, host, new int[] {3});
    tier.write(5, page(55)); // other pages, while the backup is in flight
    ByteBuffer five = readDevice(5);
    if (controlsCompletion()) {
      assertFalse(backup.isDone(), "a synchronous write/read completed a copy in flight");
    }
    assertEquals(page(55), five);
    complete(backup);
    assertEquals(page(22), readHost(host, 3));
  }

  /** Rule 2: an event may be awaited and polled from a thread other than the issuing one. */
  @Test
  void eventsCompleteForAnotherThread() throws Exception {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    tier.write(6, page(66));
    TransferEvent backup = tier.copyToHost(new int[] {6}, host, new int[] {0});
    java.util.concurrent.CompletableFuture<Boolean> poller = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      while (!backup.isDone()) {
        Thread.onSpinWait();
      }
      return true;
    });
    complete(backup);
    assertTrue(poller.get(30, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(page(66), readHost(host, 0));
  }
}
