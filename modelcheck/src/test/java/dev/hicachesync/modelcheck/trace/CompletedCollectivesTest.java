package dev.hicachesync.modelcheck.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.modelcheck.value.TlaValueParser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sync point a generic "collective completes" step decided is read off the state before it. */
class CompletedCollectivesTest {

  private static TraceState state(String coll) {
    return new TraceState(2, "SomeCollectiveCompletes", "", Map.of("coll", TlaValueParser.parse(coll)));
  }

  private static String call(String site, String members) {
    return "[site |-> \"" + site + "\", grp |-> [ch |-> \"sched\", m |-> " + members + ", kind |-> \"k\"]]";
  }

  @Test
  void aGroupWhoseMembersAreAllPostedIsReady() {
    String coll = "(0 :> [sched |-> " + call("S1", "{0, 1}") + ", pf |-> [site |-> \"none\"]] @@ "
        + "1 :> [sched |-> " + call("S1", "{0, 1}") + ", pf |-> [site |-> \"none\"]])";
    assertEquals(List.of("S1"), CompletedCollectives.readyIn(state(coll)));
  }

  @Test
  void aGroupWithAMemberElsewhereIsNotReady() {
    // Rank 0 waits in S1 while rank 1 already waits in the next step's RECV (B3's deadlock shape).
    String coll = "(0 :> [sched |-> " + call("S1", "{0, 1}") + "] @@ 1 :> [sched |-> " + call("RECV", "{0, 1}") + "])";
    assertEquals(List.of(), CompletedCollectives.readyIn(state(coll)));
  }

  @Test
  void otherShapesYieldNothing() {
    assertEquals(List.of(), CompletedCollectives.readyIn(state("<<1, 2>>")));
  }
}
