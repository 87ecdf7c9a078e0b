package dev.hicachesync.modelcheck;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TLC's {@code -tool} output split into its {@link TlcMessage messages}, line by line as TLC prints it.
 *
 * <p>A message may open inside another (TLC's "unexpected exception" wraps the message of its cause), and
 * a start tag may follow text on the same line; the inner message is reported on its own and its lines
 * also belong to the outer one. What TLC prints outside any message is kept as plain lines: SANY's parse
 * and semantic errors (TLC 2.18 does not tag them), the spec's {@code Print} output, the JVM's own errors.
 * Not thread-safe: one reader thread feeds it, and it is read once that thread is done.
 */
public final class TlcOutput {

  private static final Pattern TAG =
      Pattern.compile("@!@!@(?:STARTMSG (\\d+):(\\d+)|ENDMSG (\\d+)) @!@!@");

  private final List<String> lines = new ArrayList<>();
  private final List<TlcMessage> messages = new ArrayList<>();
  private final List<String> plain = new ArrayList<>();
  private final Deque<Open> open = new ArrayDeque<>();

  /** The output of a finished run. */
  public static TlcOutput of(List<String> lines) {
    TlcOutput output = new TlcOutput();
    lines.forEach(output::accept);
    return output;
  }

  /** Reads one line of TLC's output; returns the messages it completed, an inner one before its outer one. */
  public List<TlcMessage> accept(String line) {
    lines.add(line);
    List<TlcMessage> completed = new ArrayList<>();
    Matcher tag = TAG.matcher(line);
    int from = 0;
    boolean tagged = false;
    while (tag.find()) {
      tagged = true;
      segment(line.substring(from, tag.start()));
      from = tag.end();
      if (tag.group(1) != null) {
        open.push(new Open(Integer.parseInt(tag.group(1)), Integer.parseInt(tag.group(2))));
      } else if (!open.isEmpty()) {
        Open done = open.pop();
        TlcMessage message = new TlcMessage(done.code, done.severity, done.lines);
        if (!open.isEmpty()) {
          open.peek().lines.addAll(done.lines);
        }
        messages.add(message);
        completed.add(message);
      }
    }
    if (tagged) {
      segment(line.substring(from));
    } else {
      text(line);
    }
    return completed;
  }

  /** Text beside a tag on the same line: kept unless blank. */
  private void segment(String text) {
    if (!text.isBlank()) {
      text(text);
    }
  }

  /** A line of the innermost open message, else a plain line. */
  private void text(String text) {
    if (open.isEmpty()) {
      plain.add(text);
    } else {
      open.peek().lines.add(text);
    }
  }

  /** Every line as TLC printed it. */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  /** The completed messages, in the order they ended. */
  public List<TlcMessage> messages() {
    return List.copyOf(messages);
  }

  /** The lines printed outside any message. */
  public List<String> plain() {
    return List.copyOf(plain);
  }

  /** A message whose start tag was read and whose end tag was not (yet). */
  private static final class Open {
    private final int code;
    private final int severity;
    private final List<String> lines = new ArrayList<>();

    Open(int code, int severity) {
      this.code = code;
      this.severity = severity;
    }
  }
}
