package dev.hicachesync.report.swimlane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bug in words on top of a page, read from the real spec and models: the property's definition, each
 * action's location and SGLang pointer ({@code \* sglang:} comments), the reference as a link.
 */
class StoryTest {

  private static final Workspace WORKSPACE = Workspace.fromRoot();

  /** The spec as the pages read it: the models directory, then the spec directory. */
  static SpecSource spec() {
    return new SpecSource(List.of(WORKSPACE.models(), WORKSPACE.spec()));
  }

  /** Captured counterexamples of catalogue models (and of an ad-hoc 8-rank model), by the module TLC ran. */
  static final Map<String, String> CAPTURED = Map.of(
      "pre20460_cp2", "MCHiCacheSync",
      "b3_early_return", "MCHiCacheSync",
      "b13_writer_global_tp0", "MCHiCacheReplicas",
      "b2_cache_group_spans_replicas", "MCHiCacheReplicas",
      "b6_stage_local", "MCHiCachePipeline",
      "unified_b10_batch_full_exit", "MCHiCacheUnified",
      "unified_buffer_b38428_stuck", "MCHiCacheUnified",
      "adhoc_pre20460_cp4tp2", "MCHiCacheSync");

  @Test
  void everyActionOfTheCapturedCounterexamplesHasItsSpecLocationAndAnSglangPointer() {
    List<String> missing = new ArrayList<>();
    int actions = 0;
    for (Map.Entry<String, String> e : CAPTURED.entrySet()) {
      ErrorTrace trace = KnownCounterexamples.trace(e.getKey());
      Story story = Story.of(null, null, null, e.getValue(), "", trace, spec());
      for (Story.Action a : story.actions().values()) {
        actions++;
        if (a.pointers().isEmpty() || !a.location().matches("\\w+\\.tla:\\d+")) {
          missing.add(e.getKey() + ": " + a);
        }
      }
    }
    assertTrue(actions >= 20, "only " + actions + " actions seen");
    assertEquals(List.of(), missing, "actions without a spec location or an `\\* sglang:` pointer");
  }

  @Test
  void thePropertyIsQuotedFromTheModuleTheModelExtendsWithTheOperatorsItUses() {
    List<SpecSource.Definition> defs = spec().withHelpers("MCHiCacheSync", "TreeAgreement");
    assertEquals("HiCacheSync", defs.get(0).module());
    assertTrue(defs.get(0).text().startsWith("TreeAgreement == AgreeAt(LAMBDA q : <<tree[q], nextId[q]"), defs.get(0).text());
    assertEquals(List.of("TreeAgreement", "AgreeAt"), defs.stream().map(SpecSource.Definition::name).toList());
    // Through an instance: C!CollectiveMatching is Collectives' definition.
    List<SpecSource.Definition> cm = spec().withHelpers("MCHiCacheSync", "CollectiveMatching");
    assertEquals(List.of("HiCacheSync!CollectiveMatching", "Collectives!CollectiveMatching", "HiCacheSync!SharedGroupMatching"),
        cm.stream().map(d -> d.module() + "!" + d.name()).toList());
    // A definition runs over its indented lines and stops at the next one at column 0.
    SpecSource.Definition hs = spec().resolve("MCHiCacheUnified", "HostSlotSafety").orElseThrow();
    assertTrue(hs.text().lines().count() >= 3 && hs.text().endsWith("= HostCap"), hs.text());
  }

  @Test
  void aCatalogueModelsStoryHasItsBugReferenceAndDescription() {
    Story s = Story.of("B1", "#20460", WORKSPACE.models().resolve("MCHiCacheSync_pre20460_cp2.cfg"), "MCHiCacheSync",
        "TreeAgreement", KnownCounterexamples.trace("pre20460_cp2"), spec());
    assertEquals("https://github.com/sgl-project/sglang/issues/20460", s.refUrl());
    assertTrue(s.description().startsWith("pre20460, (1,2,1): HiCache syncs only"), s.description());
    assertEquals(List.of("SomeCollectiveCompletes", "WriteEventCompletes"), List.copyOf(s.actions().keySet()));
    assertTrue(s.actions().get("WriteEventCompletes").location().startsWith("HiCacheSync.tla:"));
    assertEquals("https://github.com/bytedance-iaas/sglang/issues/676", Story.url("bytedance-iaas/sglang#676"));
    assertEquals("", Story.url("INV-3"));
    assertEquals("", Story.url("fidelity"));
    String html = SwimlanePage.render(CounterexampleView.of("pre20460_cp2", "violates TreeAgreement",
        KnownCounterexamples.trace("pre20460_cp2"), new Topology(1, 2, 1, 1), s));
    assertTrue(html.contains("<a class=\"ref\" href=\"https://github.com/sgl-project/sglang/issues/20460\">"), "a link");
    assertTrue(html.contains("<pre>TreeAgreement == AgreeAt("), "the definition");
    assertTrue(html.contains("<tr data-action=\"WriteEventCompletes\">"), "the actions' table");
  }

  @Test
  void theStorysPayloadLabelsNameTheVectorPositions() {
    Story s = Story.of(null, null, null, "MCHiCacheUnified", "", KnownCounterexamples.trace("unified_b10_batch_full_exit"),
        spec());
    assertEquals(8, s.labels("S123", 8).size());
    assertEquals("load acks done", s.labels("S123", 8).get(1));
    assertEquals(List.of(), s.labels("S123", 3));
    assertFalse(s.labels("S7", 1).isEmpty());
  }

  @Test
  void theInitialStateIsNoAction() {
    ErrorTrace t = KnownCounterexamples.trace("pre20460_cp2");
    Story s = Story.of(null, null, null, "MCHiCacheSync", "", t, spec());
    assertFalse(s.actions().containsKey(TraceState.INITIAL));
  }
}
