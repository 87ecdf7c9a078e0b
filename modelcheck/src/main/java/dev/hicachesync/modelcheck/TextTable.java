package dev.hicachesync.modelcheck;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with aligned columns: numbers right-aligned, text left-aligned. */
public final class TextTable {

  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();

  /** A table with these column headers. */
  public TextTable(String... headers) {
    this.headers = List.of(headers);
  }

  /** Adds a row; it must have one cell per column. */
  public TextTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException("row has " + cells.length + " cells, table " + headers.size() + " columns");
    }
    rows.add(List.of(cells));
    return this;
  }

  /** The table, header and rule first, one line per row. */
  public String render() {
    int[] widths = new int[headers.size()];
    boolean[] numeric = new boolean[headers.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = headers.get(c).length();
      numeric[c] = !rows.isEmpty();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
        numeric[c] &= row.get(c).matches("[-\\d,.]+( s)?");
      }
    }
    StringBuilder out = new StringBuilder();
    line(headers, widths, new boolean[widths.length], out);
    List<String> rule = new ArrayList<>();
    for (int w : widths) {
      rule.add("-".repeat(w));
    }
    line(rule, widths, new boolean[widths.length], out);
    for (List<String> row : rows) {
      line(row, widths, numeric, out);
    }
    return out.toString();
  }

  private static void line(List<String> cells, int[] widths, boolean[] right, StringBuilder out) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      String pad = " ".repeat(widths[c] - cell.length());
      line.append(c == 0 ? "" : "  ").append(right[c] ? pad + cell : cell + pad);
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }
}
