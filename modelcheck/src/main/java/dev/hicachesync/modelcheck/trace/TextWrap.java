package dev.hicachesync.modelcheck.trace;

import java.util.ArrayList;
import java.util.List;

/** Wraps and abbreviates text for fixed-width table cells. */
final class TextWrap {

  private TextWrap() {}

  /** {@code text} cut to {@code max} characters, the cut marked with an ellipsis. */
  static String abbreviate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, Math.max(0, max - 1)) + "…";
  }

  /** {@code text} in lines of at most {@code width} characters, broken after spaces or commas when possible. */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    String rest = text;
    while (rest.length() > width) {
      int cut = Math.max(rest.lastIndexOf(' ', width), rest.lastIndexOf(',', width - 1) + 1);
      if (cut < width / 3) {
        cut = width;
      }
      lines.add(rest.substring(0, cut).stripTrailing());
      rest = rest.substring(cut).stripLeading();
    }
    if (!rest.isEmpty() || lines.isEmpty()) {
      lines.add(rest);
    }
    return lines;
  }

  /** {@code text} padded with spaces to {@code width}. */
  static String pad(String text, int width) {
    return text.length() >= width ? text : text + " ".repeat(width - text.length());
  }
}
