package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.AdhocModel;
import dev.hicachesync.modelcheck.AdhocPart;
import dev.hicachesync.modelcheck.AdhocResult;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcSearch;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Checks one ad-hoc model, safety then liveness, and prints its row, one row per part saying how
 * far that part got, and the counterexample if there is one.
 */
final class AdhocRun {

  private final PrintWriter out;
  private final PrintWriter err;
  private final int width;
  private final Counterexamples counterexamples;
  private final TlcSearch search;
  private final TlcSearch livenessSearch;

  /**
   * @param search how the safety part searches
   * @param livenessSearch how the liveness part searches if it runs (a simulation where the safety part is one, or
   *     where the model is reduced for safety and {@code --exhaustive} was not given)
   */
  AdhocRun(PrintWriter out, PrintWriter err, int width, Counterexamples counterexamples, TlcSearch search,
      TlcSearch livenessSearch) {
    this.out = out;
    this.err = err;
    this.width = width;
    this.counterexamples = counterexamples;
    this.search = search;
    this.livenessSearch = livenessSearch;
  }

  /** 0 if every part holds exhaustively, 1 if one is violated, 3 if TLC failed or a part was cut. */
  int run(AdhocModel model, CheckCommand.Checker checker) throws BadInputException, IOException, InterruptedException {
    AdhocResult result = checker.check(model);
    for (AdhocPart part : result.parts()) {
      part.result().ifPresent(r -> checker.progress().println(Reports.summary(model.name() + " " + part.part().label(), r)));
    }
    out.print(new TextTable("model", "module", "version", "dp,cp,tp,pp", "policy", "storage", "observed")
        .row(model.name(), model.module().spec(), model.version(), model.topology().sizes(), model.policy(),
            model.storage() ? "on" : "off", result.verdict().toString())
        .render());
    out.println();
    TextTable parts = new TextTable("part", "checks", "workers", "distinct", "depth", "time", "result");
    for (AdhocPart part : result.parts()) {
      if (part.result().isEmpty()) {
        parts.row(part.part().label(), Integer.toString(part.checked().size()), "-", "-", "-", "-",
            "not run: " + part.skipped());
      } else {
        TlcResult r = part.result().get();
        parts.row(part.part().label(), Integer.toString(part.checked().size()), Integer.toString(part.workers()),
            Reports.count(r.distinct()), Integer.toString(r.depth()), Reports.seconds(r.seconds()), outcome(part, r));
      }
    }
    out.print(parts.render());
    for (AdhocPart part : result.parts()) {
      if (!part.checked().isEmpty()) {
        out.println(part.part().label() + " checks: " + String.join(", ", part.checked()));
      }
    }
    boolean livenessRan = result.parts().stream()
        .anyMatch(p -> p.part() == AdhocPart.Part.LIVENESS && p.result().isPresent());
    String liveness = !livenessRan || !(livenessSearch instanceof TlcSearch.Simulation l) ? ""
        : search instanceof TlcSearch.Simulation ? "; liveness simulated the same way"
        : "; liveness simulated: " + tlcSimulate(l);
    out.println("bounds: " + model.bounds() + "; safety " + searched(model) + liveness);
    for (AdhocPart part : result.parts()) {
      part.result().ifPresent(r -> r.remoteWorkers().forEach(w -> out.println(part.part().label()
          + " worker " + w.uri() + ": " + w.sent() + " states sent to it, " + w.received() + " received")));
    }
    // Every part that ran must have walked all its behaviours before the output says so.
    boolean sampled = result.parts().stream().anyMatch(p -> p.status() == AdhocPart.Status.SAMPLED)
        && result.parts().stream().noneMatch(p -> p.status() == AdhocPart.Status.CUT);
    // The simulation's own figures: the safety part's, else the liveness part's where only it was simulated.
    TlcSearch simulated = search instanceof TlcSearch.Simulation || !livenessRan ? search : livenessSearch;
    if (simulated instanceof TlcSearch.Simulation sim && result.violation().isEmpty() && !sampled) {
      out.println("simulation: stopped before " + sim.behaviours() + " random behaviours of at most " + sim.depth()
          + " steps were walked (seed " + sim.seed() + "); no violation in the states it met, which is no proof");
    } else if (simulated instanceof TlcSearch.Simulation sim && result.violation().isEmpty()) {
      out.println("simulation: no violation in " + sim.behaviours() + " random behaviours of at most " + sim.depth()
          + " steps (seed " + sim.seed() + "): this is not a proof; only an exhaustive search says holds");
    } else if (simulated instanceof TlcSearch.Simulation sim) {
      out.println("simulation: a violation found in random behaviours (seed " + sim.seed() + " replays it); the"
          + " counterexample is real but not a shortest one");
    }
    for (AdhocPart part : result.parts()) {
      if (part.result().isPresent()) {
        TlcResult r = part.result().get();
        Reports.details(out, model.name() + " " + part.part().label(), model.topology(), r, width);
        if (r.trace().isPresent()) {
          counterexamples.found(model.name(), model.topology(), r).ifPresent(page -> out.println("swimlanes: " + page));
        }
      }
    }
    switch (result.verdict().kind()) {
      case HOLDS:
      case NO_VIOLATION_FOUND:
        return 0;
      case DEADLOCK:
      case VIOLATES:
        return 1;
      case TIMEOUT:
        err.println("hicache-sync check: no verdict: a part was cut by the time limit (raise --time-limit)");
        return Main.EXIT_TOOL_FAILED;
      default:
        String message = result.parts().stream().flatMap(p -> p.result().stream())
            .filter(r -> !r.message().isEmpty()).map(TlcResult::message).findFirst().orElse("");
        err.println("hicache-sync check: TLC failed: " + message);
        return Main.EXIT_TOOL_FAILED;
    }
  }

  /** How the safety part searched, in words. */
  private String searched(AdhocModel model) {
    if (search instanceof TlcSearch.Simulation sim) {
      return "simulated: " + tlcSimulate(sim);
    }
    String how = model.reduced() ? "ReducedSpec" : "Spec";
    String view = model.module().safetyView(model.reduced());
    String where = search instanceof TlcSearch.Distributed d
        ? ", TLC's distributed mode with " + d.localWorkers() + " local worker(s)"
            + (d.fpSets() == 0 ? "" : " and " + d.fpSets() + " fingerprint-set server(s)") : "";
    return "exhaustive: " + how + (view == null ? "" : " with VIEW " + view) + where;
  }

  /** The TLC run of a simulation, e.g. {@code TLC -simulate num=100 -depth 500 -seed 1 on Spec}. */
  private static String tlcSimulate(TlcSearch.Simulation sim) {
    return "TLC -simulate num=" + sim.behaviours() + " -depth " + sim.depth() + " -seed " + sim.seed() + " on Spec";
  }

  /** What a part established: never {@code holds} for a part that did not finish. */
  private static String outcome(AdhocPart part, TlcResult r) {
    switch (part.status()) {
      case EXHAUSTIVE:
        return "holds (exhaustive)";
      case SAMPLED:
        return "no violation found (simulation: not a proof)";
      case VIOLATED:
        return r.verdict().toString();
      case CUT:
        return String.format(Locale.ROOT, "cut by the time limit after %s: no verdict", Reports.seconds(r.seconds()));
      default:
        return "TLC failed";
    }
  }
}
