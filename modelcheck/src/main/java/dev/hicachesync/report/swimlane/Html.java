package dev.hicachesync.report.swimlane;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;

/**
 * The parts both pages share: escaping, the page frame with its inline style and script, and the
 * states embedded as JSON for the detail panel (hover shows a state, click pins it).
 */
final class Html {

  private Html() {}

  /** Text for an element's content or a quoted attribute. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** One state (or event) for the detail panel: a title, the global values, each rank's values. */
  record Details(String title, Map<String, String> global, Map<Integer, Map<String, String>> ranks) {}

  /**
   * The whole page. {@code lanes} columns of lanes sit between the step and action columns and the
   * global column; {@code details} feed the panel, element i for {@code data-state="i+1"}.
   */
  static String page(String title, String header, int lanes, String grid, List<Details> details) {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<link rel=\"icon\" href=\"data:,\">\n"
        + "<title>" + esc(title) + "</title>\n<style>\n" + STYLE
        + ".lanes { grid-template-columns: 3.2em 13em repeat(" + Math.max(lanes, 1) + ", minmax(10em, 1fr)) 18em; }\n"
        + "</style>\n</head>\n<body>\n" + header
        + "<div class=\"lanes\">\n" + grid + "</div>\n"
        + "<aside id=\"details\"><p class=\"hint\">Hover over a step or a box to see the full state; click to pin it.</p></aside>\n"
        + "<script type=\"application/json\" id=\"states\">" + json(details) + "</script>\n"
        + "<script>\n" + SCRIPT + "</script>\n</body>\n</html>\n";
  }

  private static String json(List<Details> details) {
    try {
      // "<" only occurs inside JSON strings, where \u003c means the same: the script element cannot end early.
      return new ObjectMapper().writeValueAsString(details).replace("<", "\\u003c");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("states not serialisable", e);
    }
  }

  private static final String STYLE = """
      body { font: 13px/1.35 system-ui, sans-serif; margin: 0 24em 2em 1em; color: #222; }
      h1 { font-size: 18px; margin: .6em 0 .2em; }
      .meta { color: #555; margin: 0 0 .6em; }
      .verdict { border: 2px solid #c62828; background: #fff5f5; padding: .5em .8em; margin: .4em 0 1em; }
      .verdict.accepted { border-color: #2e7d32; background: #f3fbf3; }
      .verdict table { border-collapse: collapse; margin-top: .4em; font-family: ui-monospace, monospace; font-size: 12px; }
      .verdict td, .verdict th { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; text-align: left;
        max-width: 40em; overflow-wrap: anywhere; }
      .verdict td:first-child, .verdict th:first-child { white-space: nowrap; }
      .lanes { display: grid; column-gap: 0; row-gap: 0; align-items: stretch; }
      .step { display: contents; }
      .cell { border-top: 1px solid #e3e3e3; padding: 3px 4px; min-height: 1.2em; font-family: ui-monospace, monospace;
        font-size: 11.5px; overflow-wrap: anywhere; }
      .lane-cell { background: linear-gradient(90deg, transparent calc(50% - 1px), #b0bec5 calc(50% - 1px),
        #b0bec5 calc(50% + 1px), transparent calc(50% + 1px)); }
      .head { position: sticky; top: 0; background: #fafafa; z-index: 2; font-weight: 600; border-bottom: 2px solid #999;
        padding: 4px; font-family: system-ui, sans-serif; }
      .head small { display: block; font-weight: 400; color: #666; }
      .domain-head { text-align: center; background: #eceff1; border-left: 2px solid #fff; font-size: 11px; padding: 2px; }
      .box { background: #e3f2fd; border: 1px solid #64b5f6; border-radius: 4px; padding: 2px 4px; cursor: pointer;
        position: relative; }
      .box .act { display: block; font-weight: 600; font-family: system-ui, sans-serif; color: #0d47a1; }
      .num, .action { font-family: system-ui, sans-serif; cursor: pointer; }
      .collective { display: grid; grid-template-columns: subgrid; position: relative; margin: 3px 0;
        border-top: 1px solid #e3e3e3; }
      .collective::before { content: ""; position: absolute; left: 5%; right: 5%; top: 50%; border-top: 3px solid #8e24aa; z-index: 0; }
      .sent { position: relative; z-index: 1; margin: 2px 6px; padding: 1px 4px; background: #f3e5f5; border: 1px solid #8e24aa;
        border-radius: 10px; text-align: center; font-family: ui-monospace, monospace; font-size: 11px; }
      .bypass { visibility: hidden; }
      .coll-label { color: #6a1b9a; font-weight: 600; }
      .coll-result { color: #6a1b9a; font-family: ui-monospace, monospace; }
      .step.first-divergence > .cell { background-color: #fff8e1; }
      .step.first-divergence > .num::after { content: " ⚑"; color: #ef6c00; }
      .step.violating > .cell { background-color: #ffebee; }
      .step.violating > .num { color: #c62828; font-weight: 700; }
      .diverged { color: #e65100; font-family: system-ui, sans-serif; }
      .rejected .cell { background-color: #ffebee; }
      .after-reject .cell { opacity: .45; }
      .pinned { outline: 2px solid #ff9800; }
      #details { position: fixed; right: 0; top: 0; bottom: 0; width: 23em; overflow: auto; background: #fcfcfc;
        border-left: 1px solid #ccc; padding: .5em .8em; font-size: 12px; }
      #details h3 { font-size: 13px; margin: .3em 0; }
      #details h4 { font-size: 12px; margin: .6em 0 .2em; color: #37474f; }
      #details dl { margin: 0; font-family: ui-monospace, monospace; font-size: 11px; }
      #details dt { font-weight: 600; margin-top: 2px; }
      #details dd { margin: 0 0 0 1em; overflow-wrap: anywhere; }
      .hint { color: #777; }
      """;

  private static final String SCRIPT = """
      (function () {
        'use strict';
        var details = JSON.parse(document.getElementById('states').textContent);
        var panel = document.getElementById('details');
        var pinned = null;
        function list(title, values) {
          var h = '<h4>' + esc(title) + '</h4><dl>';
          Object.keys(values).forEach(function (k) {
            h += '<dt>' + esc(k) + '</dt><dd>' + esc(values[k]) + '</dd>';
          });
          return h + '</dl>';
        }
        function esc(s) {
          return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        }
        function show(el) {
          var d = details[Number(el.getAttribute('data-state')) - 1];
          if (!d) { return; }
          var rank = el.getAttribute('data-rank');
          var h = '<h3>' + esc(d.title) + '</h3>';
          var ranks = Object.keys(d.ranks);
          if (rank !== null && d.ranks[rank]) { ranks = [rank]; }
          ranks.forEach(function (r) { h += list('rank ' + r, d.ranks[r]); });
          if (Object.keys(d.global).length > 0) { h += list('global', d.global); }
          panel.innerHTML = h;
          panel.setAttribute('data-shown', el.getAttribute('data-state'));
        }
        document.querySelectorAll('.cell[data-state], .box[data-state], .sent[data-state]').forEach(function (el) {
          el.addEventListener('mouseenter', function () { if (!pinned) { show(el); } });
          el.addEventListener('click', function (ev) {
            ev.stopPropagation();
            if (pinned) { pinned.classList.remove('pinned'); }
            pinned = pinned === el ? null : el;
            if (pinned) { pinned.classList.add('pinned'); show(el); }
          });
        });
      })();
      """;
}
