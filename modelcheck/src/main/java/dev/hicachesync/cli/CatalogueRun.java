package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs catalogue models and prints the verdict table (or, for {@code --catalogue}, the bug table). */
final class CatalogueRun {

  private final PrintWriter out;
  private final PrintWriter err;
  private final int width;
  private final boolean bugTable;
  private final Counterexamples counterexamples;
  private final Map<String, TlcResult> byName = new LinkedHashMap<>();

  CatalogueRun(PrintWriter out, PrintWriter err, int width, boolean bugTable, Counterexamples counterexamples) {
    this.out = out;
    this.counterexamples = counterexamples;
    this.err = err;
    this.width = width;
    this.bugTable = bugTable;
  }

  /**
   * Runs every model, {@code jobs} at a time (each TLC in its own JVM); 0 iff each matched its
   * expected verdict, else 1. The table lists the models in the given order whatever order they
   * finish in.
   */
  int run(List<ModelEntry> models, CheckCommand.Checker checker, int jobs) throws IOException, InterruptedException {
    checker.progress().expect(models.size());
    List<TlcResult> results = jobs <= 1 ? serially(models, checker) : inParallel(models, checker, jobs);
    for (int i = 0; i < models.size(); i++) {
      byName.put(models.get(i).name(), results.get(i));
    }
    out.print(bugTable ? bugTable(models, results) : verdictTable(models, results));
    boolean allMatch = true;
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      allMatch &= r.verdict().matches(m.expectedVerdict());
      Reports.details(out, m.name(), m.topology(), r, width);
      if (r.trace().isPresent()) {
        counterexamples.found(m.name(), m.topology(), r);
      }
    }
    notes(models, results);
    out.println();
    long matched = 0;
    for (int i = 0; i < models.size(); i++) {
      matched += results.get(i).verdict().matches(models.get(i).expectedVerdict()) ? 1 : 0;
    }
    out.println(matched + " of " + models.size() + " models matched their expected verdict.");
    return allMatch ? 0 : 1;
  }

  private List<TlcResult> serially(List<ModelEntry> models, CheckCommand.Checker checker)
      throws IOException, InterruptedException {
    List<TlcResult> results = new ArrayList<>();
    for (ModelEntry model : models) {
      results.add(checkOne(model, checker.onSlot(), checker));
    }
    return results;
  }

  /**
   * Runs the models on {@code jobs} threads, each driving one TLC JVM at a time. The longest
   * models (by recorded time) start first, so that a long one does not start last and run alone.
   */
  private List<TlcResult> inParallel(List<ModelEntry> models, CheckCommand.Checker checker, int jobs)
      throws IOException, InterruptedException {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < models.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingDouble((Integer i) -> -recordedSeconds(models.get(i))).thenComparing(i -> i));
    ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
      Thread t = new Thread(r, "check-job");
      t.setDaemon(true);
      return t;
    });
    List<Future<TlcResult>> futures = new ArrayList<>(Collections.nCopies(models.size(), null));
    try {
      for (int i : order) {
        ModelEntry model = models.get(i);
        futures.set(i, pool.submit(() -> checkOne(model, checker.onSlot(), checker)));
      }
      List<TlcResult> results = new ArrayList<>();
      for (Future<TlcResult> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof InterruptedException) {
        throw (InterruptedException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IllegalStateException(cause);
    } finally {
      // Interrupts the jobs still running: each runner then kills its TLC.
      pool.shutdownNow();
    }
  }

  private static double recordedSeconds(ModelEntry m) {
    return m.recorded() == null ? 0 : m.recorded().seconds();
  }

  /** Checks one model; a broken entry (a missing cfg) is that model's failure, not the run's. */
  private static TlcResult checkOne(ModelEntry model, ModelChecker modelChecker, CheckCommand.Checker checker)
      throws IOException, InterruptedException {
    TlcResult r;
    try {
      r = modelChecker.check(model);
    } catch (BadInputException e) {
      r = new TlcResult(-1, Verdict.ERROR, 0, 0, 0, 0, Optional.empty(), e.getMessage(), null, List.of());
    }
    checker.progress().completed();
    checker.progress().println(Reports.summary(model.name(), r)
        + (r.verdict().matches(model.expectedVerdict()) ? "" : " (expected " + model.expected() + ")"));
    return r;
  }

  /** The models as a table, with what the catalogue expects and records; nothing is run. */
  static String listing(List<ModelEntry> models) {
    TextTable t = new TextTable("model", "tier", "bug", "ref", "version", "dp,cp,tp,pp", "expected", "liveness",
        "recorded distinct", "recorded time");
    for (ModelEntry m : models) {
      boolean known = m.recorded() != null;
      t.row(m.name(), m.tierValue().label(), orDash(m.bug()), orDash(m.ref()), m.version(), m.topology().sizes(),
          m.expected(), m.hasLiveness() ? "yes" : "no", known ? Reports.count(m.recorded().distinct()) : "-",
          known ? Reports.seconds(m.recorded().seconds()) : "-");
    }
    return t.render();
  }

  /** The result of each model run so far, by name. */
  Map<String, TlcResult> results() {
    return byName;
  }

  private static String mark(ModelEntry m, TlcResult r) {
    return r.verdict().matches(m.expectedVerdict()) ? "✓" : "✗";
  }

  private static String verdictTable(List<ModelEntry> models, List<TlcResult> results) {
    TextTable t = new TextTable("model", "version", "dp,cp,tp,pp", "distinct", "time", "expected", "observed", "match");
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      t.row(m.name(), m.version(), m.topology().sizes(), Reports.count(r.distinct()), Reports.seconds(r.seconds()),
          m.expected(), r.verdict().toString(), mark(m, r));
    }
    return t.render();
  }

  private static String bugTable(List<ModelEntry> models, List<TlcResult> results) {
    TextTable t = new TextTable("bug", "ref", "config", "expected", "observed", "distinct", "time", "cex", "match");
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      String config = m.name() + " (" + m.version() + " " + m.topology().sizes() + ")";
      String cex = r.trace().map(tr -> Integer.toString(tr.length())).orElse("-");
      t.row(orDash(m.bug()), orDash(m.ref()), config, m.expected(), r.verdict().toString(),
          Reports.count(r.distinct()), Reports.seconds(r.seconds()), cex, mark(m, r));
    }
    return t.render();
  }

  /** Points out state counts that moved away from the recorded ones (the spec changed). */
  private void notes(List<ModelEntry> models, List<TlcResult> results) {
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      if (m.recorded() != null && m.recorded().distinct() > 0 && r.verdict().kind() == Verdict.Kind.HOLDS
          && r.distinct() != m.recorded().distinct()) {
        err.println("note: " + m.name() + " found " + Reports.count(r.distinct())
            + " distinct states; the catalogue records " + Reports.count(m.recorded().distinct()));
      }
    }
    err.flush();
  }

  private static String orDash(String s) {
    return s == null || s.isBlank() ? "-" : s;
  }
}
