package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.AdhocModel;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.TlcSearch;
import java.io.PrintWriter;

/**
 * How an ad-hoc model's two parts search, chosen from its size and the flags, each choice that is not the
 * exhaustive search said on stderr in one line.
 *
 * @param safety the invariants' search: as asked, or a simulation above the module's exhaustive size
 * @param liveness the temporal properties' search, if that part runs: a simulation where the safety part is one,
 *     or where the model is reduced for safety or above the module's size for liveness (its plain state space,
 *     which liveness needs whole, does not fit a check of about a minute; {@link AdhocModel#livenessFits}),
 *     unless {@code --exhaustive}
 */
record AdhocSearches(TlcSearch safety, TlcSearch liveness) {

  static AdhocSearches choose(AdhocModel model, TlcSearch asked, boolean exhaustive, PrintWriter err)
      throws BadInputException {
    if (exhaustive && !(asked instanceof TlcSearch.Exhaustive)) {
      throw new BadInputException("--exhaustive cannot be combined with --simulate");
    }
    TlcSearch safety = asked;
    if (asked instanceof TlcSearch.Exhaustive && !exhaustive && model.ranks() > model.exhaustiveRanks()) {
      TlcSearch.Simulation fallback = SimulationOptions.fallback();
      err.println("hicache-sync check: " + model.ranks() + " ranks is more than " + model.module().spec()
          + " is searched exhaustively in about a minute (" + model.exhaustiveRanks() + ", with " + model.bounds()
          + "): simulating " + walk(fallback) + " instead, which is no proof; --exhaustive searches every state");
      safety = fallback;
    }
    TlcSearchOptions.announce(err, safety);
    if (safety instanceof TlcSearch.Simulation) {
      return new AdhocSearches(safety, safety);
    }
    if (!exhaustive && !model.livenessFits()) {
      TlcSearch.Simulation fallback = SimulationOptions.fallback();
      String reduction = model.reduced() ? "ReducedSpec" : "VIEW " + model.module().safetyView(false);
      err.println("hicache-sync check: " + model.module().spec() + " with " + model.ranks() + " ranks is searched"
          + " with " + reduction + " for safety; its liveness (every state of Spec) would not finish in about a"
          + " minute: simulating " + walk(fallback) + " for it, which is no proof; --exhaustive searches every state");
      return new AdhocSearches(safety, fallback);
    }
    return new AdhocSearches(safety, TlcSearch.EXHAUSTIVE);
  }

  private static String walk(TlcSearch.Simulation s) {
    return s.behaviours() + " behaviours of at most " + s.depth() + " steps (seed " + s.seed() + ")";
  }
}
