package dev.hicachesync.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The consensus monitor raises {@code ConsensusMonitor.tla}'s alarms when the spec does: {@code NoConsensusAlarm}
 * as soon as every rank has an event at a position where two differ (another call, another payload), never while a
 * rank has not reached the position; {@code NoSilentHang} for a hang the checker did not fire on, and nothing for
 * one it did.
 */
class ConsensusMonitorTest {

  private static final ConsensusEvent CPP_CALLED =
      ConsensusEvent.called(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1");
  private static final ConsensusEvent ABORT_CALLED =
      ConsensusEvent.called(ConsensusMonitor.RELEASE_ABORTED_REQUEST, "r1");

  @Test
  void twoRanksInDifferentCallsFireTheCheckerAtTheLaterRanksStep() {
    List<ConsensusAlarm> heard = new ArrayList<>();
    ConsensusMonitor m = new ConsensusMonitor(2, heard::add);
    m.queue(0, 3, ABORT_CALLED);
    assertFalse(m.fired(), "rank 1 has not reached the position: nothing to compare");
    m.queue(1, 4, CPP_CALLED);
    assertTrue(m.fired());
    ConsensusAlarm a = m.alarm();
    assertEquals(ConsensusAlarm.Kind.NoConsensusAlarm, a.kind());
    assertEquals(4, a.step(), "the step at which the last rank queued the compared event");
    assertTrue(a.detail().contains("rank 0 queued release_aborted_request called")
        && a.detail().contains("rank 1 queued check_prefetch_progress called"), a.detail());
    assertEquals(List.of(a), heard, "the listener hears the alarm once");
    m.queue(0, 5, CPP_CALLED);
    m.queue(1, 5, CPP_CALLED);
    assertEquals(List.of(a), heard, "nothing is compared after the alarm (the checker's process has exited)");
    assertNull(m.hang(5, "S4"), "the checker fired: the hang is not silent");
  }

  @Test
  void theSameCallWithAnotherResultFiresTheChecker() {
    ConsensusMonitor m = new ConsensusMonitor(3);
    for (int r = 0; r < 3; r++) {
      m.queue(r, 0, CPP_CALLED);
    }
    assertFalse(m.fired());
    assertEquals(1, m.compared());
    m.queue(0, 0, ConsensusEvent.returns(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1", "True"));
    m.queue(1, 0, ConsensusEvent.returns(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1", "True"));
    m.queue(2, 0, ConsensusEvent.returns(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1", "False"));
    assertTrue(m.fired());
    assertTrue(m.alarm().detail().startsWith("event 2 differs"), m.alarm().detail());
  }

  @Test
  void aRankThatSkipsACallLeavesTheHangSilentAndTheAlarmNamesTheSkippedCall() {
    ConsensusMonitor m = new ConsensusMonitor(2);
    m.queue(0, 0, CPP_CALLED);
    m.queue(1, 0, CPP_CALLED);
    m.queue(1, 1, CPP_CALLED); // rank 0 broke out of its admission before the call (B10)
    assertFalse(m.fired());
    assertEquals(List.of(List.of(), List.of(CPP_CALLED)), m.pending());
    ConsensusAlarm a = m.hang(2, "RECV on rank 0");
    assertNotNull(a);
    assertEquals(ConsensusAlarm.Kind.NoSilentHang, a.kind());
    assertEquals(2, a.step());
    assertTrue(a.detail().contains("rank 0 []") && a.detail().contains("rank 1 [check_prefetch_progress called"),
        a.detail());
    assertFalse(m.fired(), "a silent hang is not the checker firing");
    assertEquals(a, m.hang(3, "again"), "the first hang stays the alarm");
  }

  @Test
  void ranksThatAgreeRaiseNothingAndLeaveNothingPending() {
    ConsensusMonitor m = new ConsensusMonitor(2);
    for (long step = 0; step < 3; step++) {
      for (int r = 0; r < 2; r++) {
        m.queue(r, step, CPP_CALLED);
        m.queue(r, step, ConsensusEvent.returns(ConsensusMonitor.CHECK_PREFETCH_PROGRESS, "r1", "True"));
      }
    }
    assertNull(m.alarm());
    assertEquals(6, m.compared());
    assertEquals(List.of(List.of(), List.of()), m.pending());
  }

  @Test
  void aRankOutsideTheMonitorIsRefused() {
    ConsensusMonitor m = new ConsensusMonitor(2);
    assertThrows(IllegalArgumentException.class, () -> m.queue(2, 0, CPP_CALLED));
    assertThrows(IllegalArgumentException.class, () -> new ConsensusMonitor(0));
  }

  /**
   * For any two ranks' event sequences, queued in any interleaving: the checker fires iff the sequences differ at
   * a position both reached, and then at the first such position.
   */
  @Test
  void theCheckerFiresExactlyAtTheFirstPositionBothRanksReachedAndDiffer() {
    qt().withFixedSeed(34406L).withExamples(300)
        .forAll(lists().of(integers().between(0, 2)).ofSizeBetween(0, 8),
            lists().of(integers().between(0, 2)).ofSizeBetween(0, 8), integers().between(0, 1 << 16))
        .checkAssert((a, b, order) -> {
          ConsensusMonitor m = new ConsensusMonitor(2);
          int i = 0;
          int j = 0;
          int bits = order;
          while (i < a.size() || j < b.size()) { // the interleaving: one bit of `order` per event
            boolean first = j >= b.size() || i < a.size() && (bits & 1) == 0;
            bits = bits >>> 1 | (bits & 1) << 15;
            if (first) {
              m.queue(0, i, event(a.get(i++)));
            } else {
              m.queue(1, j, event(b.get(j++)));
            }
          }
          int firstDiff = -1;
          for (int k = 0; k < Math.min(a.size(), b.size()) && firstDiff < 0; k++) {
            if (!a.get(k).equals(b.get(k))) {
              firstDiff = k;
            }
          }
          assertEquals(firstDiff >= 0, m.fired(), a + " vs " + b);
          if (firstDiff >= 0) {
            assertEquals(firstDiff, m.compared(), a + " vs " + b);
            assertTrue(m.alarm().detail().startsWith("event " + (firstDiff + 1) + " differs"), m.alarm().detail());
          } else {
            assertEquals(Math.min(a.size(), b.size()), m.compared());
          }
        });
  }

  private static ConsensusEvent event(int kind) {
    return ConsensusEvent.returns(ConsensusMonitor.MATCH_PREFIX, "r" + kind, "device 0 host " + kind);
  }
}
