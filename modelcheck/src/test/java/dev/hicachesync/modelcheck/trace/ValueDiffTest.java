package dev.hicachesync.modelcheck.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueDiffTest {

  private static TlaValue v(String text) {
    return TlaValueParser.parse(text);
  }

  @Test
  void sameLengthTupleOfRecordsShowsOnlyTheChangedFields() {
    TlaValue before = v("<<[dev |-> TRUE, lock |-> 1, id |-> 1], [dev |-> FALSE, lock |-> 0, id |-> 0]>>");
    TlaValue after = v("<<[dev |-> FALSE, lock |-> 0, id |-> 1], [dev |-> FALSE, lock |-> 0, id |-> 0]>>");
    assertEquals(List.of("tree[1].dev=FALSE", "tree[1].lock=0"), ValueDiff.describe("tree", before, after));
  }

  @Test
  void appendAndTakeFromTheHeadStillReadAsQueueOperations() {
    assertEquals(List.of("wq+<<3>>"), ValueDiff.describe("wq", v("<<1, 2>>"), v("<<1, 2, 3>>")));
    assertEquals(List.of("wq-<<1>>"), ValueDiff.describe("wq", v("<<1, 2>>"), v("<<2>>")));
  }

  @Test
  void sameLengthQueueThatShiftedShowsEachChangedSlot() {
    assertEquals(List.of("q[1]=2", "q[2]=3"), ValueDiff.describe("q", v("<<1, 2>>"), v("<<2, 3>>")));
  }
}
