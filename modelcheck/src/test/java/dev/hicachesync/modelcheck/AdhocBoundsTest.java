package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The bounds, reduction and exhaustive size an ad-hoc model gets from its module and topology: the table in
 * docs/howto/check-a-protocol-change.md, where each choice is tied to the catalogue model it was measured on.
 */
class AdhocBoundsTest {

  private static AdhocModel model(int cp, int tp, int pp, String version, String storage, Integer requests)
      throws BadInputException {
    return AdhocModel.of(1, cp, tp, pp, version, null, storage, requests);
  }

  @Test
  void pipelineWithStorageIsReducedToOnePageFromFourRanksAndSearchedThere() throws BadInputException {
    AdhocModel two = model(1, 1, 2, "merged", "on", null);
    assertEquals("1 request, 2 pages per key", two.bounds());
    assertFalse(two.reduced());
    AdhocModel four = model(2, 1, 2, "merged", "on", null);
    assertEquals("1 request, 1 page per key", four.bounds());
    assertTrue(four.reduced());
    assertEquals("LiveSymmetryView", four.module().safetyView(four.reduced()));
    assertEquals(4, four.exhaustiveRanks());
  }

  @Test
  void pipelineWithoutStorageKeepsB6sTwoKeysAndIsSimulatedAboveTwoRanks() throws BadInputException {
    AdhocModel four = model(2, 1, 2, "merged", "off", null);
    assertEquals("2 requests, 1 page per key", four.bounds());
    assertFalse(four.reduced());
    assertEquals(2, four.exhaustiveRanks());
  }

  @Test
  void syncIsReducedWithTwoRequestsFromFiveRanks() throws BadInputException {
    AdhocModel eight = model(4, 2, 1, "merged", "on", null);
    assertEquals("1 request", eight.bounds());
    assertFalse(eight.reduced(), "one request: VIEW only, as merged_cp4tp2");
    assertEquals(4, eight.exhaustiveRanks());
    assertTrue(model(4, 2, 1, "merged", "on", 2).reduced(), "two requests: ReducedSpec, as merged_cp4tp2_req2");
    assertFalse(model(2, 2, 1, "merged", "on", 2).reduced());
    assertEquals(4, model(2, 2, 1, "merged", "on", 2).exhaustiveRanks());
    assertEquals(2, model(2, 2, 1, "merged", "on", 3).exhaustiveRanks());
  }

  @Test
  void unifiedIsSearchedExhaustivelyAtFourRanksUnderItsViewAndReplicasAtFour() throws BadInputException {
    AdhocModel unified = model(2, 2, 1, "unified", "on", null);
    assertEquals(4, unified.exhaustiveRanks());
    assertFalse(unified.reduced());
    assertEquals("RankSymmetryView", unified.module().safetyView(false));
    assertFalse(unified.livenessFits(), "4 ranks: its liveness (9.06 M states of Spec) is simulated");
    assertTrue(model(2, 1, 1, "unified", "on", null).livenessFits());
    assertTrue(model(2, 2, 1, "merged", "on", null).livenessFits());
    assertFalse(model(4, 2, 1, "merged", "on", 2).livenessFits(), "reduced for safety");
    assertEquals(4, AdhocModel.of(2, 2, 1, 1, "merged", null, "on", null).exhaustiveRanks());
  }
}
