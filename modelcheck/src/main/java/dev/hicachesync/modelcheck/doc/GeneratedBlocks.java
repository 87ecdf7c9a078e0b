package dev.hicachesync.modelcheck.doc;

import dev.hicachesync.modelcheck.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Blocks of a markdown file that a generator writes: the lines between {@code <!-- BEGIN kind argument -->}
 * and {@code <!-- END kind -->}. Everything outside the markers is the author's and stays as it is.
 */
public final class GeneratedBlocks {

  private static final Pattern BEGIN = Pattern.compile("<!-- BEGIN ([a-z-]+)(?: ([^ ]+))? -->");
  private static final Pattern END = Pattern.compile("<!-- END ([a-z-]+) -->");

  /** Renders the body of one block from its marker's argument. */
  @FunctionalInterface
  public interface Renderer {
    List<String> render(String argument) throws BadInputException;
  }

  /** One generated block: where its body starts and ends (0-based line numbers) and its argument. */
  public record Block(String argument, int firstLine, int endMarkerLine) {}

  private GeneratedBlocks() {}

  /** The blocks of the given kind, in file order. */
  public static List<Block> find(String doc, String kind) throws BadInputException {
    List<String> lines = doc.lines().toList();
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      Matcher begin = BEGIN.matcher(lines.get(i).trim());
      if (!begin.matches() || !begin.group(1).equals(kind)) {
        continue;
      }
      int end = i + 1;
      while (end < lines.size() && !isEnd(lines.get(end), kind)) {
        end++;
      }
      if (end == lines.size()) {
        throw new BadInputException("line " + (i + 1) + ": <!-- BEGIN " + kind + " --> without its <!-- END "
            + kind + " -->");
      }
      blocks.add(new Block(begin.group(2) == null ? "" : begin.group(2), i + 1, end));
      i = end;
    }
    return blocks;
  }

  /** The doc with the body of every block of {@code kind} replaced by what {@code renderer} makes of it. */
  public static String replace(String doc, String kind, Renderer renderer) throws BadInputException {
    List<String> lines = doc.lines().toList();
    List<String> out = new ArrayList<>();
    int next = 0;
    for (Block b : find(doc, kind)) {
      out.addAll(lines.subList(next, b.firstLine()));
      out.addAll(renderer.render(b.argument()));
      next = b.endMarkerLine();
    }
    out.addAll(lines.subList(next, lines.size()));
    return String.join("\n", out) + (doc.endsWith("\n") ? "\n" : "");
  }

  private static boolean isEnd(String line, String kind) {
    Matcher m = END.matcher(line.trim());
    return m.matches() && m.group(1).equals(kind);
  }

  static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  static void write(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
