package dev.hicachesync.report.swimlane;

import dev.hicachesync.modelcheck.Captured;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceParser;

/** Counterexamples TLC printed for catalogue models (captured in {@code tlc-output/<model>.out}). */
final class KnownCounterexamples {

  private KnownCounterexamples() {}

  /** B1 (PR #20460): pre20460 at (1,2,1,1), TreeAgreement breaks at state 5. */
  static CounterexampleView b1() {
    return view("pre20460_cp2", "violates TreeAgreement", new Topology(1, 2, 1, 1));
  }

  /** B13: writer by global TP rank 0 at (1,2,2,1), StorageShardCoverage at state 33. */
  static CounterexampleView b13() {
    return view("b13_writer_global_tp0", "violates StorageShardCoverage", new Topology(1, 2, 2, 1));
  }

  /** B3: early return before S1's collective at (1,1,2,1), a deadlock at state 5. */
  static CounterexampleView b3() {
    return view("b3_early_return", "deadlock", new Topology(1, 1, 2, 1));
  }

  /**
   * A catalogue model's page as {@code check --report} makes it: with its story (bug, reference, cfg
   * description, property, actions) from the catalogue and the real spec.
   */
  static CounterexampleView withStory(String model, String verdict) throws Exception {
    var workspace = dev.hicachesync.modelcheck.Workspace.fromRoot();
    var entry = dev.hicachesync.modelcheck.Catalogue.load(workspace.catalogue()).named(java.util.List.of(model)).get(0);
    ErrorTrace t = trace(model);
    Story story = Story.of(entry.bug(), entry.ref(), workspace.models().resolve(entry.cfg()), entry.module(),
        verdict.startsWith("violates ") ? verdict.substring(9) : "", t, StoryTest.spec());
    return CounterexampleView.of(model, verdict, t, entry.topology(), story);
  }

  /** The ad-hoc pre20460 model at (1,4,2,1): 8 ranks, TreeAgreement at state 30. */
  static CounterexampleView eightRanks() {
    ErrorTrace t = trace("adhoc_pre20460_cp4tp2");
    Topology topology = new Topology(1, 4, 2, 1);
    return CounterexampleView.of("adhoc_pre20460_1-4-2-1_best_effort_nostorage", "violates TreeAgreement", t, topology,
        Story.of(null, null, null, "MCHiCacheSync", "TreeAgreement", t, StoryTest.spec()));
  }

  static ErrorTrace trace(String model) {
    return TraceParser.parse(Captured.messages(model)).orElseThrow();
  }

  private static CounterexampleView view(String model, String verdict, Topology topology) {
    return CounterexampleView.of(model, verdict, trace(model), topology);
  }
}
