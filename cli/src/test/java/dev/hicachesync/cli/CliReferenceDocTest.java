package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/reference/cli.md documents every subcommand and every flag the tool has, and no flag it does not:
 * each subcommand has a section {@code ## `name`}, each of its options' names appears in the first cell
 * of a table row of that section, and every flag in such a cell is one of the subcommand's options.
 * {@code rank} takes every {@code simulate} option, documented in the {@code simulate} section.
 */
class CliReferenceDocTest {

  static final String DOC = "docs/reference/cli.md";
  private static final Map<String, String> INHERITS = Map.of("rank", "simulate");
  private static final Pattern FLAG = Pattern.compile("--[a-z][a-z0-9-]*");

  @Test
  void everySubcommandAndFlagIsDocumentedAndNothingElse() throws IOException {
    // The repository root: surefire sets hicache.root; a module directory's parent otherwise. No test helper of
    // another package is used, so the test moves with the command line's package.
    Path root = Path.of(System.getProperty("hicache.root", "..")).toAbsolutePath().normalize();
    List<String> lines = Files.readAllLines(root.resolve(DOC), StandardCharsets.UTF_8);
    CommandLine cli = new CommandLine(new Main());
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, CommandLine> sub : cli.getSubcommands().entrySet()) {
      String name = sub.getKey();
      Set<String> documented = firstCellFlags(lines, name);
      if (documented == null) {
        problems.add("no section '## `" + name + "`'");
        continue;
      }
      Set<String> inherited = INHERITS.containsKey(name) ? firstCellFlags(lines, INHERITS.get(name)) : Set.of();
      Set<String> options = optionNames(sub.getValue());
      for (String option : options) {
        if (!documented.contains(option) && !inherited.contains(option)) {
          problems.add(name + " " + option + ": not in the section's tables");
        }
      }
      for (String flag : documented) {
        if (!options.contains(flag)) {
          problems.add(name + " " + flag + ": documented, but the command has no such option");
        }
      }
    }
    assertTrue(problems.isEmpty(), DOC + " and the tool's options differ (compare with ./hicache-sync <command>"
        + " --help):\n  " + String.join("\n  ", problems));
  }

  @Test
  void flagsAreReadFromTheFirstCellOfTheSectionsTablesOnly() {
    List<String> doc = List.of("## `a`", "text --not-this", "| flag | what |", "|---|---|",
        "| `--x`, `--y N` | mentions --z |", "## `b`", "| `--w` | |");
    assertEquals(Set.of("--x", "--y"), firstCellFlags(doc, "a"));
    assertEquals(null, firstCellFlags(doc, "c"));
  }

  /** Every name of every option but help and version (those of picocli's standard mixin). */
  static Set<String> optionNames(CommandLine command) {
    Set<String> names = new TreeSet<>();
    for (OptionSpec o : command.getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp() || o.hidden()) {
        continue;
      }
      for (String n : o.names()) {
        if (n.startsWith("--")) {
          names.add(n);
        }
      }
    }
    return names;
  }

  /** The flags in the first cells of the table rows of section {@code ## `name`}; null without a section. */
  static Set<String> firstCellFlags(List<String> lines, String name) {
    int start = lines.indexOf("## `" + name + "`");
    if (start < 0) {
      return null;
    }
    Set<String> flags = new LinkedHashSet<>();
    for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
      String line = lines.get(i).trim();
      if (!line.startsWith("|") || line.startsWith("|---")) {
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|");
      if (cells.length < 2) {
        continue;
      }
      Matcher m = FLAG.matcher(cells[1]);
      while (m.find()) {
        flags.add(m.group());
      }
    }
    return flags;
  }
}
