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
   * The whole page: the header and the lanes in the main column, the detail panel in a column of its own
   * beside it (it never covers a lane). {@code lanes} columns of lanes sit between the step and action
   * columns and the global column, narrower the more lanes there are (8 fit at 1400 px, 16 at 1920 px);
   * {@code details} feed the panel, element i for {@code data-state="i+1"}.
   */
  static String page(String title, String header, int lanes, String grid, List<Details> details) {
    int n = Math.max(lanes, 1);
    String lane = n <= 2 ? "12em" : n <= 4 ? "9em" : n <= 8 ? "6.5em" : "5em";
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<link rel=\"icon\" href=\"data:,\">\n"
        + "<title>" + esc(title) + "</title>\n<style>\n" + STYLE
        + ".lanes { grid-template-columns: 2.8em minmax(6.5em, 9em) repeat(" + n + ", minmax(" + lane + ", 1fr))"
        + " minmax(8em, 13em); }\n"
        + (n > 8 ? ".cell, .sent { font-size: 10.5px; }\n" : "")
        + "</style>\n</head>\n<body>\n<div class=\"page\">\n<main id=\"main\">\n" + header
        + "<div class=\"lanes\" data-lanes=\"" + lanes + "\">\n" + grid + "</div>\n</main>\n"
        + "<aside id=\"details\"><p class=\"hint\">Hover over a step or a box to see the full state; click to pin it.</p></aside>\n"
        + "</div>\n"
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
      body { font: 13px/1.35 system-ui, sans-serif; margin: 0; color: #222; }
      .page { display: flex; align-items: flex-start; }
      main { flex: 1 1 0; min-width: min-content; padding: 0 1em 2em; }
      h1 { font-size: 18px; margin: .6em 0 .2em; }
      .meta { color: #555; margin: .4em 0 .6em; max-width: 80em; }
      #story { max-width: 90em; }
      #bug { font-size: 14px; margin: .3em 0; }
      #property p { margin: .4em 0 .1em; }
      #story pre { background: #f5f7fa; border: 1px solid #dde3ea; padding: .3em .6em; margin: .2em 0;
        font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
      #story .where { color: #555; margin: .3em 0 0; font-size: 12px; }
      #actions table { border-collapse: collapse; font-size: 12px; margin: .3em 0; }
      #actions td, #actions th { border: 1px solid #ddd; padding: 1px 6px; text-align: left; vertical-align: top; }
      #actions td:nth-child(2) { font-family: ui-monospace, monospace; white-space: nowrap; }
      .verdict { border: 2px solid #c62828; background: #fff5f5; padding: .5em .8em; margin: .4em 0 .6em; }
      .verdict.accepted { border-color: #2e7d32; background: #f3fbf3; }
      .verdict table { border-collapse: collapse; margin-top: .3em; font-family: ui-monospace, monospace; font-size: 12px; }
      .verdict td, .verdict th { border: 1px solid #ddd; padding: 2px 6px; vertical-align: top; text-align: left;
        max-width: 28em; overflow-wrap: anywhere; background: #fff; }
      .verdict th small { display: block; font-weight: 400; color: #666; font-family: system-ui, sans-serif; }
      .verdict td:first-child, .verdict th:first-child { white-space: nowrap; }
      .verdict tr.property td:first-child { font-weight: 700; }
      .verdict tr.environment td { color: #666; }
      .verdict td.odd { background: #ffe0b2; font-weight: 700; }
      .scroll { max-width: 100%; overflow-x: auto; }
      .diff-title { margin: .5em 0 0; }
      #waiting .missing { font-weight: 700; color: #c62828; }
      #jump { position: sticky; top: 0; z-index: 4; background: #fff; border-bottom: 1px solid #ddd; padding: 3px 0;
        font-size: 12px; }
      .lanes { display: grid; column-gap: 0; row-gap: 0; align-items: stretch; }
      .step { display: contents; }
      .step.folded { display: none; }
      .cell { border-top: 1px solid #e3e3e3; padding: 3px 4px; min-height: 1.2em; font-family: ui-monospace, monospace;
        font-size: 11.5px; overflow-wrap: anywhere; min-width: 0; }
      .lane-cell { background: linear-gradient(90deg, transparent calc(50% - 1px), #b0bec5 calc(50% - 1px),
        #b0bec5 calc(50% + 1px), transparent calc(50% + 1px)); }
      .head { position: sticky; top: 1.6em; background: #fafafa; z-index: 2; font-weight: 600; border-bottom: 2px solid #999;
        padding: 4px; font-family: system-ui, sans-serif; min-width: 0; overflow-wrap: normal; }
      .head small { display: block; font-weight: 400; color: #666; font-size: 10.5px; }
      .domain-head { text-align: center; background: #eceff1; border-left: 2px solid #fff; font-size: 11px; padding: 2px;
        position: static; }
      .box { background: #e3f2fd; border: 1px solid #64b5f6; border-radius: 4px; padding: 2px 3px; cursor: pointer;
        position: relative; }
      .box .act { display: block; font-weight: 600; font-family: system-ui, sans-serif; color: #0d47a1; font-size: 10.5px;
        overflow-wrap: normal; }
      .recv { color: #2e7d32; font-family: system-ui, sans-serif; font-size: 11px; }
      .num, .action { font-family: system-ui, sans-serif; cursor: pointer; }
      .action, .coll-label { overflow-wrap: normal; }
      .collective, .message { display: grid; grid-template-columns: subgrid; position: relative; margin: 3px 0;
        border-top: 1px solid #e3e3e3; min-width: 0; align-items: center; align-self: center; }
      .collective::before { content: ""; position: absolute; left: 5%; right: 5%; top: 50%; border-top: 3px solid #8e24aa; z-index: 0; }
      .collective.setup::before { border-top-color: #b39ddb; }
      .message { display: block; padding: 2px 0; }
      .message::before { content: ""; position: absolute; left: 12%; right: 12%; top: 50%; border-top: 3px solid #2e7d32; }
      .message::after { content: ""; position: absolute; right: calc(12% - 2px); top: calc(50% - 5px); border: 6px solid transparent;
        border-left: 9px solid #2e7d32; border-right: 0; }
      .msg-text { position: relative; display: block; margin: 0 auto; width: fit-content; max-width: 70%; background: #e8f5e9;
        border: 1px solid #2e7d32; border-radius: 8px; padding: 0 5px; font-family: ui-monospace, monospace; font-size: 10.5px;
        overflow-wrap: anywhere; }
      .msg-label { color: #2e7d32; font-weight: 600; font-size: 11px; }
      .sent { position: relative; z-index: 1; margin: 2px 4px; padding: 1px 3px; background: #f3e5f5; border: 1px solid #8e24aa;
        border-radius: 10px; text-align: center; font-family: ui-monospace, monospace; font-size: 11px; min-width: 0;
        overflow-wrap: anywhere; }
      .sent mark.odd { background: #ffb74d; font-weight: 700; border-radius: 3px; padding: 0 1px; }
      .bypass { visibility: hidden; }
      .coll-label { color: #6a1b9a; font-weight: 600; }
      .labels { display: block; color: #7b5e8d; font-size: 10.5px; font-weight: 400; }
      .coll-result { color: #6a1b9a; font-family: ui-monospace, monospace; }
      .fold { grid-column: 1 / -1; background: #f1f3f4; border-top: 1px solid #ccc; padding: 2px 6px; color: #444;
        font-size: 12px; }
      .fold button { font: inherit; cursor: pointer; border: 1px solid #999; border-radius: 3px; background: #fff; }
      .loop-back { grid-column: 1 / -1; border-top: 2px dashed #1565c0; color: #1565c0; padding: 3px 6px; font-weight: 600; }
      .step.in-loop > .num { border-left: 4px solid #1565c0; }
      .step.in-loop > .num::before { content: "↻ "; color: #1565c0; }
      .step.first-divergence > .cell { background-color: #fff8e1; }
      .step.first-divergence > .num::after { content: " ⚑"; color: #ef6c00; }
      .step.violating > .cell { background-color: #ffebee; }
      .step.violating > .num { color: #c62828; font-weight: 700; }
      .diverged { color: #e65100; font-family: system-ui, sans-serif; }
      details.long { display: block; }
      details.long summary { cursor: pointer; }
      .again { color: #777; font-family: system-ui, sans-serif; }
      .rejected .cell { background-color: #ffebee; }
      .after-reject .cell { opacity: .45; }
      .pinned { outline: 2px solid #ff9800; }
      #details { flex: 0 0 20em; position: sticky; top: 0; height: 100vh; box-sizing: border-box; overflow: auto;
        background: #fcfcfc; border-left: 1px solid #ccc; padding: .5em .8em; font-size: 12px; }
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
        function unfold(fold, open) {
          document.querySelectorAll('.step[data-fold="' + fold + '"]').forEach(function (row) {
            row.classList.toggle('folded', !open);
          });
          var bar = document.querySelector('.fold[data-fold="' + fold + '"]');
          if (bar) {
            bar.classList.toggle('open', open);
            var b = bar.querySelector('button');
            b.textContent = (open ? '▾' : '▸') + b.textContent.substring(1);
          }
        }
        document.querySelectorAll('.fold').forEach(function (bar) {
          bar.querySelector('button').addEventListener('click', function () {
            unfold(bar.getAttribute('data-fold'), !bar.classList.contains('open'));
          });
        });
        var all = document.getElementById('unfold-all');
        if (all) {
          all.addEventListener('click', function () {
            document.querySelectorAll('.fold').forEach(function (bar) { unfold(bar.getAttribute('data-fold'), true); });
          });
        }
        // A link to a folded state opens its fold first.
        document.querySelectorAll('a[href^="#state-"]').forEach(function (a) {
          a.addEventListener('click', function () {
            var row = document.querySelector('.step[data-state="' + a.getAttribute('href').substring(7) + '"]');
            if (row && row.classList.contains('folded')) { unfold(row.getAttribute('data-fold'), true); }
          });
        });
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
