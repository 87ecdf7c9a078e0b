package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SimulatedDeviceTierTest extends DeviceTierContractTest {
  private final ManualTicker ticker = new ManualTicker(100);
  private final List<String> latencyCalls = new ArrayList<>();

  /** Device → host takes 5 ticks, host → device 2 ticks per page. */
  private final LatencyModel latency = (kind, rank, pages) -> {
    latencyCalls.add(kind + "/" + rank + "/" + pages);
    return kind == TransferKind.DEVICE_TO_HOST ? 5 : 2L * pages;
  };

  @Override
  protected DeviceTier newTier() {
    return new SimulatedDeviceTier(PAGES, LAYERS, LAYER_BYTES, ticker, latency, 3);
  }

  @Override
  protected void complete(TransferEvent event) {
    while (!event.isDone()) {
      ticker.advance(1);
    }
  }

  @Override
  protected boolean controlsCompletion() {
    return true;
  }

  private static ByteBuffer page(int seed) {
    return HostPoolTest.pattern(seed, LAYERS, LAYER_BYTES);
  }

  @Test
  void eventCompletesExactlyAtIssuePlusLatencyAndOnlyThenDataArrives() {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    tier.write(2, page(7));
    TransferEvent e = tier.copyToHost(new int[] {2}, host, new int[] {5}); // issued at 100, latency 5
    assertEquals(List.of("DEVICE_TO_HOST/3/1"), latencyCalls);
    ticker.set(104);
    assertFalse(e.isDone());
    assertNotEquals(page(7), host.pageView(5), "no data before completion");
    ticker.set(105);
    assertTrue(e.isDone());
    assertEquals(page(7), host.pageView(5));
    ticker.advance(1000);
    assertTrue(e.isDone(), "stays done");
  }

  @Test
  void copiesCompleteIndependentlyNotInIssueOrder() {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    TransferEvent slow = tier.copyFromHost(host, new int[] {0, 1, 2}, new int[] {0, 1, 2}); // 6 ticks
    TransferEvent fast = tier.copyFromHost(host, new int[] {3}, new int[] {3}); // 2 ticks
    ticker.advance(2);
    assertTrue(fast.isDone());
    assertFalse(slow.isDone());
    ticker.advance(4);
    assertTrue(slow.isDone());
  }

  @Test
  void sourceIsReadAtCompletionSoAReuseInFlightShowsInTheData() {
    // This tier's choice within DeviceTier's rule 3 (the latest instant): a reuse of the source slot
    // before completion (INV-7, HostSlotSafety) then shows in the simulator's data checks. The JCuda tier
    // stages the source at issue instead; the contract allows both (DeviceTierContractTest).
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    host.writePage(1, page(1));
    TransferEvent load = tier.copyFromHost(host, new int[] {1}, new int[] {4});
    host.writePage(1, page(2)); // a premature reuse of the host slot
    complete(load);
    ByteBuffer out = ByteBuffer.allocate(tier.pageBytes());
    tier.read(4, out);
    assertEquals(page(2), out.flip());
  }

  @Test
  void awaitBlocksUntilTheTickerPassesTheDeadline() throws Exception {
    HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    tier.write(0, page(3));
    TransferEvent e = tier.copyToHost(new int[] {0}, host, new int[] {0}); // ready at 105
    CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
      e.await();
      return e.isDone();
    });
    ticker.set(104);
    assertFalse(e.isDone());
    ticker.set(105);
    assertTrue(waiter.get(10, TimeUnit.SECONDS));
    assertEquals(page(3), host.pageView(0));
  }

  @Test
  void zeroLatencyIsDoneAtIssueAndDescribeSaysSimulated() {
    SimulatedDeviceTier t = new SimulatedDeviceTier(2, 1, 8, ticker, LatencyModel.zero(), 0);
    HostPool host = new HostPool(2, 1, 8, HostLayout.PAGE_FIRST);
    assertTrue(t.copyToHost(new int[] {0}, host, new int[] {1}).isDone());
    assertTrue(t.describe().startsWith("simulated device (requested): rank 0"), t.describe());
  }
}
