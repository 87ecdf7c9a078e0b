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

/** The contract every {@link DeviceTier} meets; one tiny subclass per implementation. */
abstract class DeviceTierContractTest {
  static final int PAGES = 8;
  static final int LAYERS = 3;
  static final int LAYER_BYTES = 256;

  protected DeviceTier tier;

  /** Returns a fresh tier of {@link #PAGES} × {@link #LAYERS} × {@link #LAYER_BYTES}. */
  protected abstract DeviceTier newTier();

  /** Drives {@code event} to completion the way its implementation completes (ticks, or a GPU wait). */
  protected abstract void complete(TransferEvent event);

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
}
