package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.LocalFabric;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Stage 0's prefetch tickets ({@link PpPrefetchTicket}, #36700) over the in-JVM fabric: stage 0 submits each
 * operation's synced hit to every later stage, whose worker takes it in its own queue's order; a ticket of another
 * request is a mismatch (CollectiveMatching), not a hit taken for the wrong request.
 */
class PpPrefetchTicketTest {

  private static PrefetchOperation op(String rid) {
    return new PrefetchOperation(rid, null, new int[64], new PageKey[1], new int[0], 0);
  }

  @Test
  void everyLaterStageTakesStageZerosHitInOrder() {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(2));
    PipeChannel to1 = fabric.channel("pp_prefetch_command", 0, 1);
    PipeChannel to2 = fabric.channel("pp_prefetch_command", 0, 2);
    PpPrefetchTicket pp0 = PpPrefetchTicket.source(List.of(to1, to2));
    PpPrefetchTicket pp1 = PpPrefetchTicket.worker(to1, false);
    PpPrefetchTicket pp2 = PpPrefetchTicket.worker(to2, true);
    assertTrue(pp0.isSource());
    assertFalse(pp1.isSource() || pp1.ownHit());
    assertTrue(pp2.ownHit());
    pp0.submit(op("a"), 3);
    pp0.submit(op("b"), 0);
    assertEquals(3, pp1.take(op("a")));
    assertEquals(0, pp1.take(op("b")));
    assertEquals(3, pp2.take(op("a")));
  }

  @Test
  void aTicketOfAnotherRequestIsAMismatch() {
    LocalFabric fabric = new LocalFabric(Duration.ofSeconds(2));
    PipeChannel to1 = fabric.channel("pp_prefetch_command", 0, 1);
    PpPrefetchTicket.source(List.of(to1)).submit(op("a"), 1);
    InvariantViolation v = assertThrows(InvariantViolation.class,
        () -> PpPrefetchTicket.worker(to1, false).take(op("b")));
    assertEquals(Invariant.CollectiveMatching, v.invariant());
  }
}
