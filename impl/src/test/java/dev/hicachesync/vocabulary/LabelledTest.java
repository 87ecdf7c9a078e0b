package dev.hicachesync.vocabulary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.storage.WriterElection;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.tier.HostLayout;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LabelledTest {

  @Test
  void findsByLabelIgnoringCaseAndBlanks() {
    assertEquals(Optional.of(ProtocolVersion.MERGED), Labelled.find(ProtocolVersion.class, " Merged "));
    assertEquals(Optional.of(HostLayout.PAGE_FIRST), Labelled.find(HostLayout.class, "page_first"));
  }

  @Test
  void unknownOrNullIsEmpty() {
    assertTrue(Labelled.find(PrefetchPolicy.class, "eventually").isEmpty());
    assertTrue(Labelled.find(WritePolicy.class, null).isEmpty());
  }

  @Test
  void everyLabelParsesBackToItsConstant() {
    for (WriterElection e : WriterElection.values()) {
      assertEquals(e, WriterElection.parse(e.label()));
    }
    for (WritePolicy p : WritePolicy.values()) {
      assertEquals(p, WritePolicy.parse(p.label()));
    }
    for (HostLayout l : HostLayout.values()) {
      assertEquals(l, HostLayout.parse(l.label()));
    }
  }
}
