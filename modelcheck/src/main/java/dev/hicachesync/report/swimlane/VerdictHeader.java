package dev.hicachesync.report.swimlane;

import static dev.hicachesync.report.swimlane.Html.esc;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of a {@link SwimlanePage} above the lanes: the bug's story (its reference, the property as the
 * spec defines it, the actions and the SGLang code they model), the verdict, the fields in which ranks of
 * one replica differ, and at a deadlock the members that never posted. A class of its own because it reads
 * the counterexample as a whole (what went wrong) where the lanes render it state by state (how); the
 * element ids the browser test relies on are listed in {@link SwimlanePage}.
 */
final class VerdictHeader {
  private VerdictHeader() {}

  /** The page's top: the story, the verdict with the differing fields, and at a deadlock who waits. */
  static String render(CounterexampleView view) {
    StringBuilder h = new StringBuilder();
    h.append("<h1>").append(esc(view.model())).append(": ").append(esc(view.verdict())).append("</h1>\n");
    h.append(story(view));
    h.append("<p class=\"meta\">Counterexample of ").append(view.rows().size()).append(" states, ")
        .append(view.lanes().size()).append(" ranks. One lane per rank; a box is what the step changed on that rank; ")
        .append("a purple bar is a collective across its group's lanes with what each member sent (a position that ")
        .append("differs from the other members' is marked) and its result; a green arrow is a pipeline message. ")
        .append("Changes every rank made alike are in the last column.")
        .append(view.ending().isEmpty() || view.loopTarget() > 0 ? "" : " After the last state the behaviour "
            + esc(view.ending().replaceFirst("^then ", "")) + ".").append("</p>\n");
    h.append("<section id=\"verdict\" class=\"verdict\" data-state=\"").append(view.violating()).append("\">");
    h.append("<strong>").append(esc(view.verdict())).append("</strong> at state <a href=\"#state-")
        .append(view.violating()).append("\">").append(view.violating()).append("</a>");
    if (view.loopTarget() > 0) {
      h.append(", then back to <a href=\"#state-").append(view.loopTarget()).append("\">state ").append(view.loopTarget())
          .append("</a> forever: the loop (states ").append(view.loopTarget()).append("–").append(view.violating())
          .append(", marked ↻) repeats without end");
    }
    if (view.firstDivergence() > 0) {
      h.append("; the ranks' replicated state first differs at state <a id=\"first-divergence\" href=\"#state-")
          .append(view.firstDivergence()).append("\">").append(view.firstDivergence()).append("</a> (marked ⚑)");
    }
    h.append(".");
    if (!view.causes().isEmpty()) {
      h.append("<div id=\"causes\">Environment inputs some ranks got and others did not")
          .append(view.firstDivergence() > 0 ? ", up to there" : "").append(" (causes, not divergence):<ul>");
      view.causes().forEach(c -> h.append("<li>").append(esc(c)).append("</li>"));
      h.append("</ul></div>");
    }
    differences(h, view);
    if (view.verdict().startsWith("deadlock") && !view.waiting().isEmpty()) {
      h.append("<div id=\"waiting\">No step is possible. Each call still posted, and the members of its group that"
          + " never posted on it:<ul>");
      for (CounterexampleView.Waiting w : view.waiting()) {
        h.append("<li data-rank=\"").append(w.rank()).append("\">").append(esc(w.call()));
        if (!w.missing().isEmpty()) {
          h.append(" — <span class=\"never\">never posted there: ");
          List<String> who = new ArrayList<>();
          w.missing().forEach((r, doing) -> who.add("<span class=\"missing\" data-rank=\"" + r + "\">rank " + r + "</span> ("
              + esc(doing) + ")"));
          h.append(String.join(", ", who)).append("</span>");
        }
        h.append("</li>");
      }
      h.append("</ul></div>");
    }
    h.append("</section>\n");
    return h.toString();
  }

  private static String story(CounterexampleView view) {
    Story s = view.story();
    StringBuilder b = new StringBuilder("<section id=\"story\">");
    if (!s.bug().isEmpty() || !s.ref().isEmpty() || !s.description().isEmpty()) {
      b.append("<p id=\"bug\">");
      if (!s.bug().isEmpty()) {
        b.append("<strong>").append(esc(s.bug())).append("</strong> ");
      }
      if (!s.ref().isEmpty()) {
        b.append(s.refUrl().isEmpty() ? "<span class=\"ref\">" + esc(s.ref()) + "</span>"
            : "<a class=\"ref\" href=\"" + esc(s.refUrl()) + "\">" + esc(s.ref().startsWith("#") ? "sglang" + s.ref() : s.ref())
                + "</a>");
      }
      if (!s.description().isEmpty()) {
        b.append(s.bug().isEmpty() && s.ref().isEmpty() ? "" : ": ").append(esc(s.description()));
      }
      b.append("</p>");
    }
    if (!s.definitions().isEmpty()) {
      SpecSource.Definition d = s.definitions().get(0);
      b.append("<div id=\"property\"><p><strong>").append(esc(s.property())).append("</strong> as the spec defines it (")
          .append(esc(d.location())).append("):</p><pre>").append(esc(d.text())).append("</pre>");
      if (s.definitions().size() > 1) {
        List<String> names = s.definitions().subList(1, s.definitions().size()).stream().map(SpecSource.Definition::name).toList();
        b.append("<details><summary>the operators it uses: ").append(esc(String.join(", ", names))).append("</summary>");
        for (SpecSource.Definition helper : s.definitions().subList(1, s.definitions().size())) {
          b.append("<p class=\"where\">").append(esc(helper.location())).append("</p><pre>").append(esc(helper.text()))
              .append("</pre>");
        }
        b.append("</details>");
      }
      b.append("</div>");
    } else if (view.verdict().startsWith("deadlock")) {
      b.append("<div id=\"property\"><p><strong>Deadlock</strong>: TLC reached a state in which no step of the spec is"
          + " possible and the run is not over: every thread that still has work waits in a collective.</p></div>");
    }
    if (!s.actions().isEmpty()) {
      b.append("<details id=\"actions\"").append(s.actions().size() <= 6 ? " open" : "").append("><summary>The ").append(s.actions().size())
          .append(" actions of this counterexample: where the spec defines each, and the SGLang code it models</summary>")
          .append("<table><tr><th>action</th><th>spec</th><th>SGLang</th></tr>");
      for (Story.Action a : s.actions().values()) {
        b.append("<tr data-action=\"").append(esc(a.name())).append("\"><td>").append(SwimlanePage.words(a.name())).append("</td><td>")
            .append(esc(a.location())).append("</td><td>")
            .append(a.pointers().isEmpty() ? "<span class=\"hint\">(the spec names none)</span>"
                : esc(String.join("; ", a.pointers())))
            .append("</td></tr>");
      }
      b.append("</table></details>");
    }
    return b.append("</section>\n").toString();
  }

  /** Rows shown before the rest of the differing fields is folded. */
  private static final int SHOWN_FIELDS = 16;

  private static void differences(StringBuilder h, CounterexampleView view) {
    RankDifferences d = view.differences();
    if (d.fields().isEmpty()) {
      return;
    }
    h.append("<div class=\"scroll\"><p class=\"diff-title\">At state ").append(view.violating())
        .append(", the fields in which ranks of one replica differ (the property's own first; a marked value is the odd ")
        .append("one of its replica):</p>");
    List<RankDifferences.Field> shown = new ArrayList<>();
    List<RankDifferences.Field> rest = new ArrayList<>();
    for (RankDifferences.Field f : d.fields()) {
      (shown.size() < SHOWN_FIELDS ? shown : rest).add(f);
    }
    h.append("<table id=\"difference\" data-fields=\"").append(d.fields().size()).append("\">");
    diffHead(h, view, d);
    shown.forEach(f -> diffRow(h, d, f));
    h.append("</table>");
    if (!rest.isEmpty()) {
      h.append("<details><summary>").append(rest.size()).append(" more differing fields</summary><table class=\"more\">");
      diffHead(h, view, d);
      rest.forEach(f -> diffRow(h, d, f));
      h.append("</table></details>");
    }
    h.append("</div>");
  }

  private static void diffHead(StringBuilder h, CounterexampleView view, RankDifferences d) {
    h.append("<tr><th>field</th>");
    for (int r : d.ranks()) {
      String where = r < view.lanes().size() ? view.lanes().get(r).coordinates() : "";
      h.append("<th data-rank=\"").append(r).append("\">rank ").append(r)
          .append(where.isEmpty() ? "" : "<small>" + esc(where.replace("pp ", "stage ")) + "</small>").append("</th>");
    }
    h.append("</tr>");
  }

  private static void diffRow(StringBuilder h, RankDifferences d, RankDifferences.Field f) {
    h.append("<tr data-path=\"").append(esc(f.path())).append("\"")
        .append(f.property() ? " class=\"property\"" : f.environment() ? " class=\"environment\"" : "").append("><td>")
        .append(esc(f.path())).append(f.environment() ? " <small>(environment)</small>" : "").append("</td>");
    for (int r : d.ranks()) {
      h.append("<td data-rank=\"").append(r).append("\"").append(f.odd().contains(r) ? " class=\"odd\"" : "").append(">")
          .append(esc(f.values().get(r))).append("</td>");
    }
    h.append("</tr>");
  }
}
