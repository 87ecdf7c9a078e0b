package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs catalogue models and prints the verdict table (or, for {@code --catalogue}, the bug table), then
 * one line per counterexample (its model, verdict, length and swimlane page) and per TLC failure.
 * {@code verbose} adds each model's result line as it finishes and each counterexample as a per-rank
 * table: on a run of many models those tables run to thousands of lines.
 */
final class CatalogueRun {

  private final PrintWriter out;
  private final PrintWriter err;
  private final int width;
  private final boolean bugTable;
  private final boolean verbose;
  private final Counterexamples counterexamples;
  private final Map<String, TlcResult> byName = new LinkedHashMap<>();

  CatalogueRun(PrintWriter out, PrintWriter err, int width, boolean bugTable, boolean verbose,
      Counterexamples counterexamples) {
    this.out = out;
    this.counterexamples = counterexamples;
    this.err = err;
    this.width = width;
    this.bugTable = bugTable;
    this.verbose = verbose;
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
    Summaries summaries = new Summaries();
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      allMatch &= r.verdict().matches(m.expectedVerdict());
      if (verbose) {
        Reports.details(out, m.name(), m.topology(), r, width);
      }
      Optional<Path> page = r.trace().isPresent() ? counterexamples.found(m.name(), m.topology(), r) : Optional.empty();
      if (verbose) {
        page.ifPresent(p -> out.println("swimlanes: " + p));
      } else {
        summaries.add(m.name(), r, page);
      }
    }
    summaries.print();
    notes(models, results);
    for (int i = 0; i < models.size(); i++) {
      List<TlcResult.RemoteWorker> workers = results.get(i).remoteWorkers();
      if (!workers.isEmpty()) {
        int fpSets = results.get(i).fpSetsRegistered();
        out.println(models.get(i).name() + ": TLC's distributed mode, " + workers.size() + " worker(s): "
            + String.join(", ", workers.stream().map(w -> w.uri() + " " + w.sent() + " states").toList())
            + (fpSets == 0 ? "" : "; fingerprints on " + fpSets + " fingerprint-set server(s)"));
      }
    }
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
  private TlcResult checkOne(ModelEntry model, ModelChecker modelChecker, CheckCommand.Checker checker)
      throws IOException, InterruptedException {
    TlcResult r;
    try {
      r = modelChecker.check(model);
    } catch (BadInputException e) {
      r = new TlcResult(-1, Verdict.ERROR, 0, 0, 0, 0, Optional.empty(), e.getMessage(), null, List.of());
    }
    if (verbose) {
      checker.progress().println(Reports.summary(model.name(), r)
          + (r.verdict().matches(model.expectedVerdict()) ? "" : " (expected " + model.expected() + ")"));
    }
    checker.progress().completed();
    return r;
  }

  /**
   * The lines under the table when the counterexamples are not printed whole: one per counterexample
   * ({@code name  violates P, N states  swimlanes: FILE}) and one per model TLC gave no verdict for.
   */
  private final class Summaries {
    private final List<String[]> counterexamples = new ArrayList<>();
    private final List<String[]> failures = new ArrayList<>();

    void add(String name, TlcResult r, Optional<Path> page) {
      if (r.trace().isPresent()) {
        counterexamples.add(new String[] {name, r.verdict() + ", " + r.trace().get().length() + " states",
            page.map(p -> "swimlanes: " + p).orElse("")});
      } else if (!r.message().isEmpty()) {
        failures.add(new String[] {name, r.verdict() + ": " + r.message()
            + (r.log() == null ? "" : " (TLC output: " + r.log() + ")")});
      }
    }

    void print() {
      if (!counterexamples.isEmpty()) {
        out.println();
        out.println(counterexamples.size() + (counterexamples.size() == 1 ? " counterexample" : " counterexamples")
            + " (each as a per-rank table: --verbose, or --model NAME alone):");
        aligned(counterexamples);
      }
      if (!failures.isEmpty()) {
        out.println();
        out.println(failures.size() + (failures.size() == 1 ? " model" : " models") + " without a verdict:");
        aligned(failures);
      }
    }

    private void aligned(List<String[]> lines) {
      int[] w = new int[lines.get(0).length];
      for (String[] l : lines) {
        for (int i = 0; i < l.length; i++) {
          w[i] = Math.max(w[i], l[i].length());
        }
      }
      for (String[] l : lines) {
        StringBuilder b = new StringBuilder(" ");
        for (int i = 0; i < l.length; i++) {
          b.append(' ').append(i == l.length - 1 ? l[i] : String.format(Locale.ROOT, "%-" + w[i] + "s ", l[i]));
        }
        out.println(b.toString().stripTrailing());
      }
    }
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
