package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TextTable;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Runs catalogue models and prints the verdict table (or, for {@code --catalogue}, the bug table). */
final class CatalogueRun {

  private final PrintWriter out;
  private final PrintWriter err;
  private final int width;
  private final boolean bugTable;
  private final Map<String, TlcResult> byName = new LinkedHashMap<>();

  CatalogueRun(PrintWriter out, PrintWriter err, int width, boolean bugTable) {
    this.out = out;
    this.err = err;
    this.width = width;
    this.bugTable = bugTable;
  }

  /** Runs every model; 0 iff each matched its expected verdict, else 1. */
  int run(List<ModelEntry> models, CheckCommand.Checker checker) throws IOException, InterruptedException {
    List<TlcResult> results = new ArrayList<>();
    for (ModelEntry model : models) {
      TlcResult r;
      try {
        r = checker.check(model);
      } catch (BadInputException e) {
        // One broken entry (a missing cfg) is that model's failure, not the whole run's.
        r = new TlcResult(-1, Verdict.ERROR, 0, 0, 0, 0, Optional.empty(), e.getMessage(), null, List.of());
      }
      results.add(r);
      byName.put(model.name(), r);
      checker.progress().println(Reports.summary(model.name(), r)
          + (r.verdict().matches(model.expectedVerdict()) ? "" : " (expected " + model.expected() + ")"));
    }
    out.print(bugTable ? bugTable(models, results) : verdictTable(models, results));
    boolean allMatch = true;
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      allMatch &= r.verdict().matches(m.expectedVerdict());
      Reports.details(out, m.name(), m.topology(), r, width);
      checker.pages().write(out, m.name(), m.topology(), r);
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

  /** The models as a table, with what the catalogue expects and records; nothing is run. */
  static String listing(List<ModelEntry> models) {
    TextTable t = new TextTable("model", "tier", "bug", "ref", "version", "dp,cp,tp,pp", "expected", "liveness",
        "recorded distinct", "recorded time");
    for (ModelEntry m : models) {
      boolean known = m.recorded() != null;
      t.row(m.name(), m.tierValue().label(), orDash(m.bug()), orDash(m.ref()), m.version(), m.topology().toString(),
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
      t.row(m.name(), m.version(), m.topology().toString(), Reports.count(r.distinct()), Reports.seconds(r.seconds()),
          m.expected(), r.verdict().toString(), mark(m, r));
    }
    return t.render();
  }

  private static String bugTable(List<ModelEntry> models, List<TlcResult> results) {
    TextTable t = new TextTable("bug", "ref", "config", "expected", "observed", "distinct", "time", "cex", "match");
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      TlcResult r = results.get(i);
      String config = m.name() + " (" + m.version() + " " + m.topology() + ")";
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
