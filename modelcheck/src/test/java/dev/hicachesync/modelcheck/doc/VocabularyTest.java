package dev.hicachesync.modelcheck.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spec and implementation speak one vocabulary: every sync point, invariant and step name is on both sides,
 * or listed with the reason it is on one only; a step's name is its SGLang function's; and
 * docs/reference/vocabulary.md shows the list as it is. With {@code -Dhicache.docs.write=true} the test
 * writes the table instead (and still checks).
 */
class VocabularyTest {

  @Test
  void everyNameIsOnBothSidesOrListedWithItsReason() {
    Vocabulary v = new Vocabulary(Docs.root());
    List<String> problems = v.problems();
    if (!problems.isEmpty()) {
      fail("the spec and the implementation name things differently:\n  " + String.join("\n  ", problems)
          + "\nthe names, spec side and implementation side:\n" + v.listing());
    }
  }

  @Test
  void theStepsOfEverySyncPointOfTheImplementationAreThere() {
    Vocabulary v = new Vocabulary(Docs.root());
    List<String> steps = v.entries().stream().filter(e -> e.kind().equals("step") && e.both())
        .map(Vocabulary.Entry::name).toList();
    // one per scheduler sync point the implementation runs (S1, S2, S3, S123, S4, S5, S6) and the prefetch
    // thread's two halves (its storage query, then S7), and version pipelined's asynchronous S123 completing on its
    // channel's thread: a step class that lost its mark is missed here
    assertEquals(List.of("AsyncCheckHicacheEvents", "PfPrefetchThreadStep", "PfStorageHitQuery", "SchedCanTerminatePrefetch",
        "SchedCheckHicacheEvents", "SchedCheckPrefetchProgress", "SchedDrainStorageControlQueues",
        "SchedLoadingCheck", "SchedReleaseAbortedRequest", "SchedWritingCheck"), steps, v.listing());
  }

  @Test
  void stepNamesAreTheirSglangFunctions() {
    assertEquals("WritingCheck", Vocabulary.camel("writing_check"));
    assertEquals("StorageHitQuery", Vocabulary.camel("_storage_hit_query"));
    assertEquals("PrefetchThreadStep", Vocabulary.camel("prefetch_thread_func"));
    assertEquals("drain_storage_control_queues",
        Vocabulary.functionOf("hiradix_cache.py::drain_storage_control_queues"));
    assertEquals("check_hicache_events",
        Vocabulary.functionOf("scheduler.py::check_hicache_events (proposal #39903: async_op=True)"));
    assertEquals(List.of("TypeOK", "TreeAgreement", "AckAgreement"), Vocabulary.cfgInvariants(
        "SPECIFICATION Spec\nINVARIANTS TypeOK\n  TreeAgreement \\* INV-3\n    AckAgreement\nPROPERTIES P\n"));
  }

  @Test
  void theDocsTableIsTheVocabulary() throws Exception {
    Path root = Docs.root();
    Path doc = root.resolve(Vocabulary.DOC);
    Vocabulary v = new Vocabulary(root);
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    String expected = GeneratedBlocks.replace(text, Vocabulary.BLOCK, arg -> v.render());
    if (Boolean.getBoolean("hicache.docs.write") && !expected.equals(text)) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
      text = expected;
    }
    assertEquals(1, GeneratedBlocks.find(text, Vocabulary.BLOCK).size(), Vocabulary.DOC + " has one table");
    assertTrue(expected.equals(text), Vocabulary.DOC + " is not the vocabulary as it is; regenerate it with:\n  "
        + Vocabulary.REGENERATE);
  }
}
