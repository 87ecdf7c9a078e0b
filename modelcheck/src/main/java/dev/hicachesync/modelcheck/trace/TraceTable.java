package dev.hicachesync.modelcheck.trace;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders an error trace as a per-step, per-rank table: one row per step (number, action), one
 * column per rank listing what changed for that rank, one "global" column for the other
 * variables, and a mark at the step from which the ranks of a sync domain disagree.
 *
 * <p>Too many ranks for the width (a column under {@value #MIN_CELL} characters) switch to a
 * listing with one line per rank that changed.
 */
public final class TraceTable {

  /** Narrowest rank column that still reads well; below it the listing form is used. */
  static final int MIN_CELL = 16;
  /** Longest change shown in full; longer ones end in an ellipsis. */
  static final int MAX_CHANGE = 160;
  private static final String SEP = " | ";

  private TraceTable() {}

  /** The table for {@code trace} at most {@code width} columns wide (layout may be null). */
  public static String render(ErrorTrace trace, RankLayout layout, int width) {
    TraceAnalysis analysis = new TraceAnalysis(trace, layout);
    int ranks = analysis.layout() == null ? 0 : analysis.layout().ranks();
    boolean anyGlobal = analysis.steps().stream().anyMatch(s -> !s.global().isEmpty());
    int numWidth = Math.max(2, Integer.toString(trace.length()).length() + 1);
    int actionWidth = Math.min(18, Math.max(6,
        java.util.stream.IntStream.range(0, analysis.steps().size())
            .map(i -> label(analysis, i).length()).max().orElse(6)));
    boolean global = anyGlobal || ranks == 0;
    int[] cells = cellWidths(analysis, global, width - numWidth - actionWidth - SEP.length() * (ranks + (global ? 2 : 1)));
    StringBuilder out = new StringBuilder();
    if (cells == null) {
      listing(analysis, width, out);
    } else {
      table(analysis, numWidth, actionWidth, cells, global, out);
    }
    String ending = trace.endingNote();
    if (!ending.isEmpty()) {
      out.append("  (").append(ending).append(")\n");
    }
    if (!analysis.perRankVariables().isEmpty()) {
      String legend = "per-rank variables: " + String.join(", ", analysis.perRankVariables())
          + (analysis.layout().hasSeveralStages()
              ? " (pipeline stages of " + analysis.layout().stageSize() + " ranks, not in lockstep: compared only in"
                  + " logs and queues, position by position)"
              : analysis.layout().hasSeveralDomains()
              ? (analysis.layout().domainSize() == 1
                  ? " (no two ranks step in lockstep here: no divergence is marked)"
                  : " (sync domains of " + analysis.layout().domainSize() + " ranks)") : "")
          + "; v[*]: the same change on every rank; v+{..}/v-{..}: set elements added/removed;"
          + " v+<<..>>: appended; v-<<..>>: taken from the head.";
      for (String line : TextWrap.wrap(legend, width - 2)) {
        out.append("  ").append(line).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * Widths of the rank columns and the shared column within {@code room}: each gets what its
   * longest change needs, and the columns that need more share what is left; null when the
   * narrowest would be under {@value #MIN_CELL} characters.
   */
  private static int[] cellWidths(TraceAnalysis analysis, boolean global, int room) {
    int ranks = analysis.layout() == null ? 0 : analysis.layout().ranks();
    int columns = ranks + (global ? 1 : 0);
    if (columns == 0 || room / columns < MIN_CELL) {
      return null;
    }
    int[] want = new int[columns];
    for (TraceAnalysis.Step step : analysis.steps()) {
      for (int c = 0; c < columns; c++) {
        List<String> changes = c < ranks ? step.perRank().get(c) : step.global();
        for (String change : changes) {
          want[c] = Math.max(want[c], Math.min(change.length(), MAX_CHANGE));
        }
      }
    }
    int[] width = new int[columns];
    int left = room;
    int open = columns;
    // Hand out widths smallest need first; each column gets its need or an equal share of the rest.
    Integer[] order = new Integer[columns];
    for (int c = 0; c < columns; c++) {
      order[c] = c;
    }
    java.util.Arrays.sort(order, (a, b) -> Integer.compare(want[a], want[b]));
    for (int c : order) {
      int share = left / open;
      width[c] = Math.max(MIN_CELL, Math.min(share, Math.max(want[c], c < ranks ? "rank 0".length() : 18)));
      left -= width[c];
      open--;
    }
    return width;
  }

  private static String label(TraceAnalysis analysis, int index) {
    return label(analysis.steps().get(index), index == 0 ? null : analysis.steps().get(index - 1).state());
  }

  private static String label(TraceAnalysis.Step step, TraceState before) {
    String action = step.state().action();
    if (action.equals(TraceState.INITIAL)) {
      return "Init";
    }
    // A generic "a collective completes" action: say which sync point(s) it decided.
    List<String> sites = before == null ? List.of() : CompletedCollectives.readyIn(before);
    return sites.isEmpty() || !action.contains("Collective") ? action : action + " [" + String.join(",", sites) + "]";
  }

  private static void table(TraceAnalysis analysis, int numWidth, int actionWidth, int[] cells, boolean global, StringBuilder out) {
    int ranks = analysis.layout() == null ? 0 : analysis.layout().ranks();
    List<String> header = new ArrayList<>(List.of(TextWrap.pad("#", numWidth), TextWrap.pad("action", actionWidth)));
    for (int r = 0; r < ranks; r++) {
      String name = "rank " + r;
      if (analysis.layout().hasSeveralDomains()) {
        name += " (domain " + analysis.layout().domain(r) + ")";
      }
      header.add(TextWrap.pad(TextWrap.abbreviate(name, cells[r]), cells[r]));
    }
    if (global) {
      String name = ranks > 0 ? "all ranks / global" : "variables";
      header.add(TextWrap.pad(TextWrap.abbreviate(name, cells[ranks]), cells[ranks]));
    }
    int ruleWidth = numWidth + actionWidth + SEP.length() * (header.size() - 1);
    for (int w : cells) {
      ruleWidth += w;
    }
    String rule = "-".repeat(ruleWidth);
    out.append(String.join(SEP, header).stripTrailing()).append('\n').append(rule).append('\n');
    TraceState before = null;
    for (TraceAnalysis.Step step : analysis.steps()) {
      List<List<String>> column = new ArrayList<>();
      column.add(List.of(step.state().number() + (step.diverged().isEmpty() ? "" : "!")));
      column.add(TextWrap.wrap(label(step, before), actionWidth));
      before = step.state();
      for (int r = 0; r < ranks; r++) {
        column.add(wrapAll(step.perRank().get(r), cells[r]));
      }
      if (global) {
        column.add(wrapAll(step.global(), cells[ranks]));
      }
      int height = column.stream().mapToInt(List::size).max().orElse(1);
      for (int line = 0; line < height; line++) {
        List<String> parts = new ArrayList<>();
        for (int c = 0; c < column.size(); c++) {
          int w = c == 0 ? numWidth : c == 1 ? actionWidth : cells[c - 2];
          List<String> lines = column.get(c);
          parts.add(TextWrap.pad(line < lines.size() ? lines.get(line) : "", w));
        }
        out.append(String.join(SEP, parts).stripTrailing()).append('\n');
      }
      divergence(step, out);
      out.append(rule).append('\n');
    }
  }

  private static void listing(TraceAnalysis analysis, int width, StringBuilder out) {
    for (int i = 0; i < analysis.steps().size(); i++) {
      TraceAnalysis.Step step = analysis.steps().get(i);
      out.append("step ").append(step.state().number()).append(": ").append(label(analysis, i)).append('\n');
      for (int r = 0; r < step.perRank().size(); r++) {
        line("  rank " + r + ": ", step.perRank().get(r), width, out);
      }
      line("  global: ", step.global(), width, out);
      divergence(step, out);
    }
  }

  private static void line(String prefix, List<String> changes, int width, StringBuilder out) {
    if (changes.isEmpty()) {
      return;
    }
    List<String> shown = changes.stream().map(c -> TextWrap.abbreviate(c, MAX_CHANGE)).toList();
    List<String> lines = TextWrap.wrap(String.join("; ", shown), width - prefix.length());
    for (int i = 0; i < lines.size(); i++) {
      out.append(i == 0 ? prefix : " ".repeat(prefix.length())).append(lines.get(i)).append('\n');
    }
  }

  private static void divergence(TraceAnalysis.Step step, StringBuilder out) {
    if (!step.diverged().isEmpty()) {
      out.append("  ^ ranks diverge here and stay apart: ").append(String.join(", ", step.diverged())).append('\n');
    }
  }

  private static List<String> wrapAll(List<String> changes, int width) {
    List<String> lines = new ArrayList<>();
    for (String change : changes) {
      lines.addAll(TextWrap.wrap(TextWrap.abbreviate(change, MAX_CHANGE), width));
    }
    return lines;
  }
}
