package dev.hicachesync.report.swimlane;

import static dev.hicachesync.report.swimlane.Html.esc;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.validate.SpecEvent;
import dev.hicachesync.modelcheck.validate.Validation;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.RankFailedRecord;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code validate-trace} run as a swimlane page: one row per spec event (a collective with every
 * member's line merged, or a rank's failure), the collective across its members' lanes with what each
 * sent and received, and the first event no behaviour of the spec matches marked {@code rejected}
 * (events after it dimmed); for a broken invariant, the event after which it breaks.
 *
 * <p>Structure as {@link SwimlanePage}: {@code .step[data-state=n]} per event ({@code n} = the event's
 * number), {@code .collective} with {@code data-site}, {@code data-group}, {@code data-members}, {@code
 * #verdict} with {@code data-event} (0 when the trace was accepted).
 */
public final class TracePage {

  private TracePage() {}

  /** The page for the trace {@code source} with header {@code h}, merged into {@code events}, and its outcome. */
  public static String render(String source, TraceHeader h, List<SpecEvent> events, Validation v) {
    Topology topology = new Topology(h.dp(), h.cp(), h.tp(), h.pp());
    List<Lane> lanes = Lane.of(topology.worldSize(), topology);
    int marked = v.outcome() == Validation.Outcome.ACCEPTED ? 0 : v.event().map(SpecEvent::number).orElse(0);
    StringBuilder grid = new StringBuilder();
    heads(grid, lanes);
    for (SpecEvent e : events) {
      String cls = "step" + (e.number() == marked ? (v.outcome() == Validation.Outcome.REJECTED ? " rejected violating"
          : " violating") : "") + (marked > 0 && e.number() > marked ? " after-reject" : "");
      grid.append("<div class=\"").append(cls).append("\" data-state=\"").append(e.number()).append("\">\n");
      if (!e.members().isEmpty()) {
        collective(grid, e, lanes.size());
      }
      grid.append(cell("num", e.number(), -1, "<span id=\"state-" + e.number() + "\">" + e.number() + "</span>"));
      grid.append(cell("action", e.number(), -1, esc(e.kind()) + " <small>line " + e.line() + "</small>"
          + (e.note().isEmpty() ? "" : "<div class=\"diverged\">" + esc(e.note()) + "</div>")));
      for (int r = 0; r < lanes.size(); r++) {
        grid.append(cell("lane-cell", e.number(), r, box(e, r)));
      }
      grid.append(cell("global", e.number(), -1, ""));
      grid.append("</div>\n");
    }
    String header = header(source, h, events.size(), v, marked);
    return Html.page("trace: " + source, header, lanes.size(), grid.toString(), details(events));
  }

  private static String box(SpecEvent e, int rank) {
    if (e.first() instanceof RankFailedRecord f && f.rank() == rank) {
      return "<div class=\"box\" data-state=\"" + e.number() + "\" data-rank=\"" + rank + "\"><span class=\"act\">RankFailed</span>"
          + esc(f.reason()) + "</div>";
    }
    CollectiveRecord c = e.members().get(rank);
    if (c == null || (c.popped() == null && c.snapshot() == null)) {
      return "";
    }
    List<String> lines = new ArrayList<>();
    if (c.popped() != null) {
      lines.add("popped " + c.popped());
    }
    if (c.snapshot() != null) {
      lines.add("snapshot " + snapshot(c.snapshot()));
    }
    return "<div class=\"box\" data-state=\"" + e.number() + "\" data-rank=\"" + rank + "\"><span class=\"act\">" + esc(c.site())
        + " decided</span>" + esc(String.join("\n", lines)).replace("\n", "<br>") + "</div>";
  }

  private static void collective(StringBuilder grid, SpecEvent e, int lanes) {
    CollectiveRecord f = (CollectiveRecord) e.first();
    List<Integer> members = f.members();
    int lo = members.get(0);
    int hi = members.get(members.size() - 1);
    String title = f.site() + " " + f.op() + " on " + f.group() + "/" + f.channel() + " "
        + members.toString().replace('[', '{').replace(']', '}') + " step " + f.step();
    grid.append(cell("coll-row", e.number(), -1, ""));
    grid.append(cell("coll-row", e.number(), -1, "<span class=\"coll-label\">" + esc(title) + "</span>"));
    for (int r = 0; r < lo && r < lanes; r++) {
      grid.append(cell("lane-cell", e.number(), r, ""));
    }
    grid.append("<div class=\"collective\" data-site=\"").append(esc(f.site())).append("\" data-group=\"").append(esc(f.group()))
        .append("\" data-members=\"").append(String.join(",", members.stream().map(String::valueOf).toList()))
        .append("\" data-result=\"").append(esc(String.valueOf(f.result()))).append("\" style=\"grid-column: ")
        .append(lo + 3).append(" / ").append(hi + 4).append("\">");
    for (int r = lo; r <= hi; r++) {
      CollectiveRecord mine = e.members().get(r);
      if (members.contains(r)) {
        String text = mine == null ? "no line" : "sent " + mine.value() + " got " + mine.result();
        grid.append("<div class=\"sent\" data-state=\"").append(e.number()).append("\" data-rank=\"").append(r).append("\">")
            .append(esc(text)).append("</div>");
      } else {
        grid.append("<div class=\"bypass\"></div>");
      }
    }
    grid.append("</div>");
    for (int r = hi + 1; r < lanes; r++) {
      grid.append(cell("lane-cell", e.number(), r, ""));
    }
    grid.append(cell("coll-row", e.number(), -1, "<span class=\"coll-result\">" + esc(f.op()) + " → " + esc(String.valueOf(f.result()))
        + "</span>"));
    grid.append('\n');
  }

  private static void heads(StringBuilder grid, List<Lane> lanes) {
    grid.append("<div class=\"head\">#</div><div class=\"head\">event</div>");
    for (Lane lane : lanes) {
      grid.append("<div class=\"head lane-head\" data-lane=\"").append(lane.rank()).append("\">").append(esc(lane.title()))
          .append("<small>").append(esc(lane.coordinates())).append("</small></div>");
    }
    grid.append("<div class=\"head\"></div>\n");
  }

  private static String header(String source, TraceHeader h, int count, Validation v, int marked) {
    String model = h.version() + " dp,cp,tp,pp=" + h.dp() + "," + h.cp() + "," + h.tp() + "," + h.pp();
    StringBuilder b = new StringBuilder();
    b.append("<h1>trace ").append(esc(source)).append("</h1>\n<p class=\"meta\">").append(count)
        .append(" spec events of ").append(esc(model)).append(". One lane per rank; a purple bar is a collective with what each "
            + "member sent and received; a box is what a rank decided there (acks popped, its state at RECV).</p>\n");
    boolean accepted = v.outcome() == Validation.Outcome.ACCEPTED;
    b.append("<section id=\"verdict\" class=\"verdict").append(accepted ? " accepted" : "").append("\" data-event=\"")
        .append(marked).append("\">");
    switch (v.outcome()) {
      case ACCEPTED -> b.append("<strong>accepted</strong>: every event is a behaviour of HiCacheSync.");
      case REJECTED -> {
        b.append("<strong>rejected</strong>: no behaviour of HiCacheSync matches event <a href=\"#state-").append(marked)
            .append("\">").append(marked).append("</a>").append(v.event().map(e -> " (line " + e.line() + "): "
                + esc(e.describe())).orElse("")).append("<ul>");
        for (String a : v.allowed()) {
          b.append("<li>the spec allowed there: ").append(esc(a)).append("</li>");
        }
        b.append("</ul>");
      }
      case INVARIANT_BROKEN -> b.append("<strong>").append(esc(v.invariant())).append(" broken</strong> by a behaviour matching "
          + "the trace, after event <a href=\"#state-").append(marked).append("\">").append(marked).append("</a>.");
      default -> b.append("<strong>TLC failed</strong>: ").append(esc(v.message()));
    }
    Optional<String> d = v.disagreement();
    d.ifPresent(s -> b.append("<p>the recorded ranks first disagree at ").append(esc(s)).append("</p>"));
    b.append("</section>\n");
    return b.toString();
  }

  private static List<Html.Details> details(List<SpecEvent> events) {
    List<Html.Details> out = new ArrayList<>();
    for (SpecEvent e : events) {
      Map<Integer, Map<String, String>> ranks = new LinkedHashMap<>();
      e.members().keySet().stream().sorted().forEach(r -> {
        CollectiveRecord c = e.members().get(r);
        Map<String, String> m = new LinkedHashMap<>();
        m.put("step", Long.toString(c.step()));
        m.put("call", c.site() + " stage " + c.stage() + " " + c.op() + " on " + c.groupKey());
        m.put("val", String.valueOf(c.value()));
        m.put("res", String.valueOf(c.result()));
        if (c.popped() != null) {
          m.put("pop", String.valueOf(c.popped()));
        }
        if (c.snapshot() != null) {
          m.put("snap", snapshot(c.snapshot()));
        }
        ranks.put(r, m);
      });
      if (e.first() instanceof RankFailedRecord f) {
        ranks.put(f.rank(), Map.of("step", Long.toString(f.step()), "reason", f.reason()));
      }
      out.add(new Html.Details("event " + e.number() + " (line " + e.line() + "): " + e.kind(), Map.of("event", e.describe()), ranks));
    }
    return out;
  }

  private static String snapshot(Snapshot s) {
    return "dfree=" + s.deviceFree() + " hfree=" + s.hostFree() + " nwq=" + s.writeAcks() + " nlq=" + s.loadAcks() + " nrv="
        + s.revokes() + " nrl=" + s.releases() + " wait=" + s.waiting() + " run=" + s.running();
  }

  private static String cell(String cls, int state, int rank, String content) {
    return "<div class=\"cell " + cls + "\" data-state=\"" + state + "\"" + (rank < 0 ? "" : " data-rank=\"" + rank + "\"")
        + ">" + content + "</div>";
  }
}
