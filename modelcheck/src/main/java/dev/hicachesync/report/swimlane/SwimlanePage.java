package dev.hicachesync.report.swimlane;

import static dev.hicachesync.report.swimlane.Html.esc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link CounterexampleView} as one self-contained HTML page.
 *
 * <p>Structure, which the browser test relies on: a {@code .lane-head[data-lane=r]} per rank; per state
 * a {@code .step[data-state=n]} (classes {@code first-divergence}, {@code violating}) whose lane cells
 * carry {@code data-rank}; per completed collective a {@code .collective} with {@code data-site},
 * {@code data-group}, {@code data-members} ("0,1") and {@code data-result}, one {@code .sent} per member;
 * {@code #verdict} names the property and the violating state, {@code #difference} the two ranks' values.
 */
public final class SwimlanePage {

  private SwimlanePage() {}

  /** The page for {@code view}. */
  public static String render(CounterexampleView view) {
    int n = view.lanes().size();
    StringBuilder grid = new StringBuilder();
    heads(grid, view.lanes());
    for (CounterexampleView.Row row : view.rows()) {
      String cls = "step" + (row.state() == view.firstDivergence() ? " first-divergence" : "")
          + (row.state() == view.violating() ? " violating" : "");
      grid.append("<div class=\"").append(cls).append("\" data-state=\"").append(row.state()).append("\">\n");
      row.collective().ifPresent(c -> collective(grid, row.state(), c, view.lanes()));
      grid.append(cell("num", row.state(), -1, "<span id=\"state-" + row.state() + "\">" + row.state() + "</span>"));
      String action = esc(row.action()) + row.collective().map(c -> " <span class=\"coll-label\">[" + esc(c.site()) + "]</span>").orElse("");
      if (!row.diverged().isEmpty()) {
        action += "<div class=\"diverged\">ranks diverge here and stay apart: " + esc(String.join(", ", row.diverged())) + "</div>";
      }
      grid.append(cell("action", row.state(), -1, action));
      for (int r = 0; r < n; r++) {
        List<String> changes = row.perRank().get(r);
        String box = changes.isEmpty() ? "" : "<div class=\"box\" data-state=\"" + row.state() + "\" data-rank=\"" + r
            + "\" title=\"" + esc(String.join("\n", changes)) + "\"><span class=\"act\">" + esc(shortAction(row.action()))
            + "</span>" + changeList(changes, 16) + "</div>";
        grid.append(cell("lane-cell", row.state(), r, box));
      }
      grid.append(cell("global", row.state(), -1, changeList(row.global(), 8)));
      grid.append("</div>\n");
    }
    return Html.page("counterexample: " + view.model(), header(view), n, grid.toString(), details(view));
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
    grid.append("<div class=\"head\">all ranks / global</div>\n");
  }

  private static void collective(StringBuilder grid, int state, Collective c, List<Lane> lanes) {
    int lo = c.members().get(0);
    int hi = c.members().get(c.members().size() - 1);
    grid.append(cell("coll-row", state, -1, ""));
    grid.append(cell("coll-row", state, -1, "<span class=\"coll-label\">" + esc(c.title()) + "</span>"));
    for (int r = 0; r < lo && r < lanes.size(); r++) {
      grid.append(cell("lane-cell", state, r, ""));
    }
    grid.append("<div class=\"collective\" data-site=\"").append(esc(c.site())).append("\" data-group=\"")
        .append(esc(c.group())).append("\" data-members=\"").append(join(c.members())).append("\" data-result=\"")
        .append(esc(c.result())).append("\" style=\"grid-column: ").append(lo + 3).append(" / ").append(hi + 4)
        .append("\" title=\"").append(esc(c.title() + " → " + c.result())).append("\">");
    for (int r = lo; r <= hi; r++) {
      if (c.members().contains(r)) {
        grid.append("<div class=\"sent\" data-state=\"").append(state).append("\" data-rank=\"").append(r).append("\">")
            .append(esc(c.sent().get(r))).append("</div>");
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

  private static String header(CounterexampleView view) {
    StringBuilder h = new StringBuilder();
    h.append("<h1>").append(esc(view.model())).append(": ").append(esc(view.verdict())).append("</h1>\n");
    h.append("<p class=\"meta\">Counterexample of ").append(view.rows().size()).append(" states, ")
        .append(view.lanes().size()).append(" ranks. One lane per rank; a box is what the step changed on that rank; ")
        .append("a purple bar is a collective across its group's lanes with what each member sent, and its result. ")
        .append("Changes every rank made alike are in the last column.").append(view.ending().isEmpty() ? "" : " The behaviour "
            + esc(view.ending()) + ".").append("</p>\n");
    h.append("<section id=\"verdict\" class=\"verdict\" data-state=\"").append(view.violating()).append("\">");
    h.append("<strong>").append(esc(view.verdict())).append("</strong> at state <a href=\"#state-")
        .append(view.violating()).append("\">").append(view.violating()).append("</a>");
    if (view.firstDivergence() > 0) {
      h.append("; ranks of one sync domain first differ at state <span id=\"first-divergence\">")
          .append(view.firstDivergence()).append("</span> (marked ⚑)");
    }
    h.append(".");
    view.difference().ifPresent(d -> {
      h.append("<table id=\"difference\" data-ranks=\"").append(d.rankA()).append(",").append(d.rankB())
          .append("\"><tr><th>variable</th><th>rank ").append(d.rankA()).append("</th><th>rank ").append(d.rankB())
          .append("</th></tr>");
      for (CounterexampleView.Differing v : d.variables()) {
        h.append("<tr><td>").append(esc(v.variable())).append("</td><td>").append(esc(v.valueA())).append("</td><td>")
            .append(esc(v.valueB())).append("</td></tr>");
      }
      h.append("</table>");
    });
    if (view.verdict().startsWith("deadlock") && !view.posted().isEmpty()) {
      h.append("<div id=\"posted\">No step is possible. The calls still posted (no group has all its members"
          + " posted on it, so none completes):<ul>");
      view.posted().forEach(p -> h.append("<li>").append(esc(p)).append("</li>"));
      h.append("</ul></div>");
    }
    h.append("</section>\n");
    return h.toString();
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

  /** The changes, one a line; a long list (the initial state) folded behind a summary that opens on click. */
  private static String changeList(List<String> changes, int fold) {
    String lines = esc(String.join("\n", changes)).replace("\n", "<br>");
    return changes.size() <= fold ? lines
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
