package dev.hicachesync.report.swimlane;

import static dev.hicachesync.report.swimlane.Html.esc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Renders a {@link CounterexampleView} as one self-contained HTML page.
 *
 * <p>Structure, which the browser test relies on: {@code #story} with the bug ({@code #bug}, its
 * reference a link), the property's definition ({@code #property pre}) and the actions' table ({@code
 * #actions tr[data-action]}); {@code #verdict} names the property and the violating state, {@code
 * #difference} has a column per rank ({@code th[data-rank]}) and a row per differing field ({@code
 * tr[data-path]}, class {@code property} for the property's own fields; a cell of an odd member has
 * class {@code odd}), {@code #waiting} names at a deadlock the members that never posted; a {@code
 * .lane-head[data-lane=r]} per rank; per state a {@code .step[data-state=n]} (classes {@code
 * first-divergence}, {@code violating}, {@code in-loop}, {@code folded}) whose lane cells carry {@code
 * data-rank}; per completed collective a {@code .collective} with {@code data-site}, {@code data-group},
 * {@code data-members} ("0,1") and {@code data-result}, one {@code .sent} per member; per pipeline message
 * a {@code .message} with {@code data-from} and {@code data-to}; a {@code .fold[data-fold]} bar before
 * each folded run of rows; {@code #details} is the side panel.
 */
public final class SwimlanePage {

  /** A change longer than this is folded behind its first characters. */
  static final int LONG_VALUE = 72;
  /** Pages with more states than this fold runs of steps that only post calls. */
  static final int FOLD_QUIET_OVER = 30;

  private SwimlanePage() {}

  /** The page for {@code view}. */
  public static String render(CounterexampleView view) {
    int n = view.lanes().size();
    StringBuilder grid = new StringBuilder();
    heads(grid, view.lanes());
    Map<Integer, String> folds = folds(view);
    Map<String, Integer> seen = new HashMap<>();
    String open = null;
    for (CounterexampleView.Row row : view.rows()) {
      String fold = folds.get(row.state());
      if (fold != null && !fold.equals(open)) {
        grid.append(foldBar(view, fold, folds));
      }
      open = fold;
      boolean inLoop = view.loopTarget() > 0 && row.state() >= view.loopTarget();
      String cls = "step" + (row.state() == view.firstDivergence() ? " first-divergence" : "")
          + (row.state() == view.violating() ? " violating" : "") + (inLoop ? " in-loop" : "")
          + (row.state() == view.loopTarget() ? " loop-start" : "") + (fold == null ? "" : " folded");
      grid.append("<div class=\"").append(cls).append("\" data-state=\"").append(row.state()).append("\"")
          .append(fold == null ? "" : " data-fold=\"" + fold + "\"").append(">\n");
      row.collective().ifPresent(c -> collective(grid, row.state(), c, view.lanes()));
      for (CounterexampleView.Message m : row.messages()) {
        if (!m.received()) {
          message(grid, row.state(), m, n);
        }
      }
      grid.append(cell("num", row.state(), -1, "<span id=\"state-" + row.state() + "\">" + row.state() + "</span>"));
      grid.append(cell("action", row.state(), -1, action(view, row)));
      for (int r = 0; r < n; r++) {
        List<String> changes = row.perRank().get(r);
        StringBuilder box = new StringBuilder();
        if (!changes.isEmpty()) {
          box.append("<div class=\"box\" data-state=\"").append(row.state()).append("\" data-rank=\"").append(r)
              .append("\"><span class=\"act\">").append(words(shortAction(row.action()))).append("</span>")
              .append(changeList(changes, 16, seen, "r" + r, row.state())).append("</div>");
        }
        for (CounterexampleView.Message m : row.messages()) {
          if (m.received() && m.to() == r) {
            box.append("<div class=\"recv\" data-from=\"").append(m.from()).append("\">⇠ received from rank ")
                .append(m.from()).append("</div>");
          }
        }
        grid.append(cell("lane-cell", row.state(), r, box.toString()));
      }
      grid.append(cell("global", row.state(), -1, changeList(row.global(), 8, seen, "g", row.state())));
      grid.append("</div>\n");
    }
    if (view.loopTarget() > 0) {
      grid.append("<div class=\"loop-back\" data-loop-target=\"").append(view.loopTarget()).append("\">↻ then back to ")
          .append("<a href=\"#state-").append(view.loopTarget()).append("\">state ").append(view.loopTarget())
          .append("</a> and round this loop forever (the rows marked ↻)</div>\n");
    } else if (!view.ending().isEmpty()) {
      grid.append("<div class=\"loop-back\">").append(esc(view.ending())).append("</div>\n");
    }
    return Html.page("counterexample: " + view.model(), VerdictHeader.render(view) + nav(view, folds), n, grid.toString(),
        details(view));
  }

  /**
   * The rows folded away at first, by state, each with its run's id: runs of start-up barriers ({@code
   * new_group}), and on a long page runs of three or more steps that only post calls. The rows the page
   * is about (the divergence, the violation, the loop's start) are never folded.
   */
  private static Map<Integer, String> folds(CounterexampleView view) {
    Map<Integer, String> out = new LinkedHashMap<>();
    List<CounterexampleView.Row> rows = view.rows();
    int i = 0;
    int id = 0;
    while (i < rows.size()) {
      String kind = foldKind(view, rows.get(i));
      if (kind == null) {
        i++;
        continue;
      }
      int j = i;
      while (j + 1 < rows.size() && kind.equals(foldKind(view, rows.get(j + 1)))) {
        j++;
      }
      int least = kind.equals("setup") ? 2 : 3;
      if (j - i + 1 >= least) {
        id++;
        for (int k = i; k <= j; k++) {
          out.put(rows.get(k).state(), kind + "-" + id);
        }
      }
      i = j + 1;
    }
    return out;
  }

  private static String foldKind(CounterexampleView view, CounterexampleView.Row row) {
    int s = row.state();
    if (s == view.firstDivergence() || s == view.violating() || s == view.loopTarget() || s == 1) {
      return null;
    }
    if (row.collective().map(Collective::isSetup).orElse(false)) {
      return "setup";
    }
    return row.quiet() && view.rows().size() > FOLD_QUIET_OVER ? "quiet" : null;
  }

  private static String foldBar(CounterexampleView view, String fold, Map<Integer, String> folds) {
    List<Integer> states = folds.entrySet().stream().filter(e -> e.getValue().equals(fold)).map(Map.Entry::getKey).toList();
    int from = states.get(0);
    int to = states.get(states.size() - 1);
    String what;
    if (fold.startsWith("setup")) {
      String group = view.rows().stream().filter(r -> r.state() == from).findFirst()
          .flatMap(CounterexampleView.Row::collective).map(c -> " on " + c.group() + " "
              + c.members().toString().replace('[', '{').replace(']', '}')).orElse("");
      what = states.size() + " start-up barriers (new_group" + group + "): every rank creates every group";
    } else {
      List<String> actions = view.rows().stream().filter(r -> states.contains(r.state()))
          .map(CounterexampleView.Row::action).distinct().toList();
      what = states.size() + " steps that only post calls (" + String.join(", ", actions) + ")";
    }
    return "<div class=\"fold\" data-fold=\"" + fold + "\" data-states=\"" + states.size() + "\"><button type=\"button\">"
        + "▸ states " + from + "–" + to + "</button> " + esc(what) + "</div>\n";
  }

  private static String nav(CounterexampleView view, Map<Integer, String> folds) {
    StringBuilder b = new StringBuilder("<nav id=\"jump\">Go to: ");
    List<String> links = new ArrayList<>();
    if (view.firstDivergence() > 0) {
      links.add("<a href=\"#state-" + view.firstDivergence() + "\">⚑ state " + view.firstDivergence() + "</a>");
    }
    if (view.loopTarget() > 0) {
      links.add("<a href=\"#state-" + view.loopTarget() + "\">↻ loop from state " + view.loopTarget() + "</a>");
    }
    links.add("<a href=\"#state-" + view.violating() + "\">" + (view.loopTarget() > 0 ? "last state " : "violating state ")
        + view.violating() + "</a>");
    b.append(String.join(" · ", links));
    long setup = folds.values().stream().filter(f -> f.startsWith("setup")).count();
    long quiet = folds.values().stream().filter(f -> f.startsWith("quiet")).count();
    if (setup + quiet > 0) {
      b.append(" &nbsp;|&nbsp; folded: ");
      List<String> parts = new ArrayList<>();
      if (setup > 0) {
        parts.add(setup + " start-up barrier rows");
      }
      if (quiet > 0) {
        parts.add(quiet + " rows that only post calls");
      }
      b.append(String.join(", ", parts)).append(" <button type=\"button\" id=\"unfold-all\">unfold all</button>");
    }
    return b.append("</nav>\n").toString();
  }

  private static String action(CounterexampleView view, CounterexampleView.Row row) {
    Story.Action a = view.story().actions().get(row.action());
    String title = a == null ? "" : a.location() + (a.pointers().isEmpty() ? "" : " · sglang: " + String.join("; ", a.pointers()));
    StringBuilder b = new StringBuilder("<span class=\"aname\"").append(title.isEmpty() ? "" : " title=\"" + esc(title) + "\"")
        .append(">").append(words(row.action())).append("</span>");
    row.collective().ifPresent(c -> b.append(" <span class=\"coll-label\">[").append(esc(c.site())).append("]</span>"));
    if (!row.diverged().isEmpty()) {
      b.append("<div class=\"diverged\">ranks diverge here and stay apart: ").append(esc(String.join(", ", row.diverged())))
          .append("</div>");
    }
    return b.toString();
  }

  /** An identifier with break opportunities between its words ("Some‹wbr›Collective‹wbr›Completes"). */
  static String words(String name) {
    return esc(name).replaceAll("(?<=[a-z0-9])(?=[A-Z])", "<wbr>").replace("_", "_<wbr>");
  }

  private static void heads(StringBuilder grid, List<Lane> lanes) {
    if (!lanes.isEmpty() && !lanes.get(0).domain().isEmpty()) {
      grid.append("<div class=\"head domain-head\" style=\"grid-column: 1 / 3\"></div>");
      int start = 0;
      for (int r = 1; r <= lanes.size(); r++) {
        if (r == lanes.size() || !lanes.get(r).domain().equals(lanes.get(start).domain())) {
          grid.append("<div class=\"head domain-head\" style=\"grid-column: ").append(start + 3).append(" / ").append(r + 3)
              .append("\">sync domain: ").append(esc(lanes.get(start).domain())).append("</div>");
          start = r;
        }
      }
      grid.append("<div class=\"head domain-head\"></div>\n");
    }
    grid.append("<div class=\"head\">#</div><div class=\"head\">action</div>");
    for (Lane lane : lanes) {
      grid.append("<div class=\"head lane-head\" data-lane=\"").append(lane.rank()).append("\">").append(esc(lane.title()))
          .append(lane.coordinates().isEmpty() ? "" : "<small>" + esc(lane.coordinates()) + "</small>").append("</div>");
    }
    grid.append("<div class=\"head global-head\">all ranks / global</div>\n");
  }

  private static void collective(StringBuilder grid, int state, Collective c, List<Lane> lanes) {
    int lo = c.members().get(0);
    int hi = c.members().get(c.members().size() - 1);
    Map<Integer, Set<Integer>> odd = c.oddMembers();
    grid.append(cell("coll-row", state, -1, ""));
    String labels = c.labels().isEmpty() ? "" : "<span class=\"labels\">[" + esc(String.join(", ", c.labels())) + "]</span>";
    grid.append(cell("coll-row", state, -1, "<span class=\"coll-label\">" + words(c.title()) + "</span>" + labels));
    for (int r = 0; r < lo && r < lanes.size(); r++) {
      grid.append(cell("lane-cell", state, r, ""));
    }
    grid.append("<div class=\"collective").append(c.isSetup() ? " setup" : "").append("\" data-site=\"").append(esc(c.site()))
        .append("\" data-group=\"").append(esc(c.group())).append("\" data-members=\"").append(join(c.members()))
        .append("\" data-result=\"").append(esc(c.result())).append("\" style=\"grid-column: ").append(lo + 3).append(" / ")
        .append(hi + 4).append("\" title=\"").append(esc(c.title() + " → " + c.result())).append("\">");
    for (int r = lo; r <= hi; r++) {
      if (c.members().contains(r)) {
        grid.append("<div class=\"sent\" data-state=\"").append(state).append("\" data-rank=\"").append(r).append("\"")
            .append(chipTitle(c, r)).append(">").append(payload(c, r, odd)).append("</div>");
      } else {
        grid.append("<div class=\"bypass\"></div>");
      }
    }
    grid.append("</div>");
    for (int r = hi + 1; r < lanes.size(); r++) {
      grid.append(cell("lane-cell", state, r, ""));
    }
    grid.append(cell("coll-row", state, -1, "<span class=\"coll-result\">" + esc(c.op()) + " → " + esc(c.result()) + "</span>"));
    grid.append('\n');
  }

  /** A member's payload, its odd positions marked; the text as TLC prints it when it is not a vector of numbers. */
  private static String payload(Collective c, int rank, Map<Integer, Set<Integer>> odd) {
    List<Long> v = c.vectors().get(rank);
    if (v == null) {
      return esc(c.sent().get(rank));
    }
    StringBuilder b = new StringBuilder("&lt;&lt;");
    for (int i = 0; i < v.size(); i++) {
      b.append(i == 0 ? "" : ", ");
      boolean mark = odd.getOrDefault(i, Set.of()).contains(rank);
      b.append(mark ? "<mark class=\"odd\" data-position=\"" + (i + 1) + "\">" : "").append(v.get(i)).append(mark ? "</mark>" : "");
    }
    return b.append("&gt;&gt;").toString();
  }

  /** "write acks done = 1, load acks done = 0" for a chip's tooltip, when the positions have names. */
  private static String chipTitle(Collective c, int rank) {
    List<Long> v = c.vectors().get(rank);
    if (v == null || c.labels().size() != v.size()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      parts.add(c.labels().get(i) + " = " + v.get(i));
    }
    return " title=\"rank " + rank + " sent " + esc(String.join(", ", parts)) + "\"";
  }

  private static void message(StringBuilder grid, int state, CounterexampleView.Message m, int lanes) {
    int lo = Math.min(m.from(), m.to());
    int hi = Math.max(m.from(), m.to());
    grid.append(cell("coll-row", state, -1, ""));
    grid.append(cell("coll-row", state, -1, "<span class=\"msg-label\">pipeline message rank " + m.from() + " → rank "
        + m.to() + "</span>"));
    for (int r = 0; r < lo && r < lanes; r++) {
      grid.append(cell("lane-cell", state, r, ""));
    }
    grid.append("<div class=\"message\" data-from=\"").append(m.from()).append("\" data-to=\"").append(m.to())
        .append("\" style=\"grid-column: ").append(lo + 3).append(" / ").append(hi + 4).append("\" title=\"")
        .append(esc(m.text())).append("\"><span class=\"msg-text\">").append(esc(m.text())).append("</span></div>");
    for (int r = hi + 1; r < lanes; r++) {
      grid.append(cell("lane-cell", state, r, ""));
    }
    grid.append(cell("coll-row", state, -1, "<span class=\"msg-label\">sent to the next stage</span>"));
    grid.append('\n');
  }

  private static List<Html.Details> details(CounterexampleView view) {
    List<Html.Details> out = new ArrayList<>();
    for (CounterexampleView.FullState s : view.states()) {
      Map<Integer, Map<String, String>> ranks = new LinkedHashMap<>();
      for (int r = 0; r < s.ranks().size(); r++) {
        ranks.put(r, s.ranks().get(r));
      }
      out.add(new Html.Details("state " + s.state() + ": " + s.action(), s.global(), ranks));
    }
    return out;
  }

  private static String cell(String cls, int state, int rank, String content) {
    return "<div class=\"cell " + cls + "\" data-state=\"" + state + "\"" + (rank < 0 ? "" : " data-rank=\"" + rank + "\"")
        + ">" + content + "</div>";
  }

  /**
   * The changes, one a line; a long list (the initial state) folded behind a summary that opens on click,
   * a long value folded behind its start, and a long value this lane showed before named by that state.
   */
  private static String changeList(List<String> changes, int fold, Map<String, Integer> seen, String lane, int state) {
    StringBuilder lines = new StringBuilder();
    for (String c : changes) {
      if (c.length() <= LONG_VALUE) {
        lines.append("<div class=\"chg\">").append(esc(c)).append("</div>");
        continue;
      }
      Integer before = seen.putIfAbsent(lane + "\u0000" + c, state);
      String head = c.substring(0, Math.min(c.length(), 40));
      lines.append("<details class=\"long\"><summary>").append(esc(head)).append("…")
          .append(before == null ? "" : " <span class=\"again\">(as at state " + before + ")</span>")
          .append("</summary>").append(esc(c)).append("</details>");
    }
    return changes.size() <= fold ? lines.toString()
        : "<details><summary>" + changes.size() + " values</summary>" + lines + "</details>";
  }

  private static String shortAction(String action) {
    return action.equals("Initial predicate") ? "Init" : action;
  }

  private static String join(List<Integer> xs) {
    StringBuilder b = new StringBuilder();
    for (int x : xs) {
      b.append(b.length() == 0 ? "" : ",").append(x);
    }
    return b.toString();
  }
}
