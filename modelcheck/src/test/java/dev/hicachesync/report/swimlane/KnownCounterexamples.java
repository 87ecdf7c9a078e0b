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

  static ErrorTrace trace(String model) {
    return TraceParser.parse(Captured.messages(model)).orElseThrow();
  }

  private static CounterexampleView view(String model, String verdict, Topology topology) {
    return CounterexampleView.of(model, verdict, trace(model), topology);
  }
}
