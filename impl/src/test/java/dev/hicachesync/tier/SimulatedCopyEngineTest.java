package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The simulated tier's copy-engine thread ({@link SimulatedDeviceTier#startCopyEngine}): copies complete on
 * it without being polled, and every answer an observer gets is the same as without it (determinism).
 */
class SimulatedCopyEngineTest {
  private static final int PAGES = 4;
  private static final int LAYERS = 2;
  private static final int LAYER_BYTES = 16;
  /** Device → host 5 ticks; host → device 1 tick per page. */
  private static final LatencyModel LATENCY =
      (kind, rank, pages) -> kind == TransferKind.DEVICE_TO_HOST ? 5 : pages;

  private record Completion(TransferEvent event, String thread) {}

  @Test
  void completesOnItsOwnThreadWithoutPollingOnceTheClockReachesTheReadyTick() throws Exception {
    ManualTicker ticker = new ManualTicker(100);
    LinkedBlockingQueue<Completion> done = new LinkedBlockingQueue<>();
    try (SimulatedDeviceTier tier = new SimulatedDeviceTier(PAGES, LAYERS, LAYER_BYTES, ticker, LATENCY, 3)) {
      tier.startCopyEngine(e -> done.add(new Completion(e, Thread.currentThread().getName())));
      HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
      tier.write(1, HostPoolTest.pattern(9, LAYERS, LAYER_BYTES));
      TransferEvent backup = tier.copyToHost(new int[] {1}, host, new int[] {2}); // ready at 105
      ticker.set(104);
      assertNull(done.poll(), "completed before its ready tick");
      ticker.set(105); // nobody polls the event from here on
      Completion c = done.poll(30, TimeUnit.SECONDS);
      assertNotNull(c, "the engine never completed the copy");
      assertEquals(backup, c.event());
      assertEquals("copy-engine-rank-3", c.thread());
      // The engine moved the bytes before telling the listener (the queue orders the two).
      assertEquals(HostPoolTest.pattern(9, LAYERS, LAYER_BYTES), host.pageView(2));
      assertThrows(IllegalStateException.class, () -> tier.startCopyEngine(e -> {}));
    }
  }

  @Test
  void everyAnswerAtEveryTickIsTheSameWithOrWithoutTheEngine() throws Exception {
    List<String> without = run(false);
    List<String> with = run(true);
    assertEquals(without, with);
  }

  /** Issues a fixed mix of copies and records, tick by tick, what each event says and what the pages hold. */
  private static List<String> run(boolean engine) throws Exception {
    ManualTicker ticker = new ManualTicker(0);
    LinkedBlockingQueue<TransferEvent> completed = new LinkedBlockingQueue<>();
    List<String> seen = new ArrayList<>();
    try (SimulatedDeviceTier tier = new SimulatedDeviceTier(PAGES, LAYERS, LAYER_BYTES, ticker, LATENCY, 0)) {
      if (engine) {
        tier.startCopyEngine(completed::add);
      }
      HostPool host = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
      for (int p = 0; p < PAGES; p++) {
        tier.write(p, HostPoolTest.pattern(p + 1, LAYERS, LAYER_BYTES));
        host.writePage(p, HostPoolTest.pattern(40 + p, LAYERS, LAYER_BYTES));
      }
      List<TransferEvent> events = new ArrayList<>();
      events.add(tier.copyToHost(new int[] {0, 1}, host, new int[] {0, 1})); // ready at 5
      events.add(tier.copyFromHost(host, new int[] {2, 3}, new int[] {2, 3})); // ready at 2
      ticker.set(1);
      events.add(tier.copyFromHost(host, new int[] {2}, new int[] {0})); // ready at 2
      for (long t = 1; t <= 7; t++) {
        ticker.set(t);
        StringBuilder line = new StringBuilder("t" + t);
        for (TransferEvent e : events) {
          line.append(e.isDone() ? " done" : " pending");
        }
        seen.add(line.toString());
      }
      if (engine) {
        for (int i = 0; i < events.size(); i++) {
          assertNotNull(completed.poll(30, TimeUnit.SECONDS), "the engine stopped before completing every copy");
        }
      }
      for (int p = 0; p < PAGES; p++) {
        ByteBuffer d = ByteBuffer.allocate(LAYERS * LAYER_BYTES);
        tier.read(p, d);
        seen.add("device " + p + " " + d.flip().hashCode() + ", host " + host.pageView(p).hashCode());
      }
    }
    assertTrue(seen.size() > 7);
    return seen;
  }
}
