package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code check} command in-process: exit codes, one-line errors, reports. */
class CheckCommandTest {

  /** What one invocation printed and returned. */
  record Outcome(int code, String out, String err) {}

  static Outcome check(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> argv = new ArrayList<>(List.of("check"));
    argv.addAll(List.of(args));
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), argv.toArray(String[]::new));
    return new Outcome(code, out.toString(), err.toString());
  }

  /** The test specs as models and spec directory. */
  static String[] withTestModels(String... args) {
    List<String> argv = new ArrayList<>(List.of(args));
    argv.addAll(List.of("--models-dir", TestSpecs.dir().toString(), "--spec-dir", TestSpecs.dir().toString()));
    return argv.toArray(String[]::new);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "--dp 0 --cp 1 --tp 1 --version merged",
    "--dp 1 --cp -2 --tp 1 --version merged",
    "--dp 1 --cp 1 --tp 0 --version merged",
    "--dp 1 --cp 1 --tp 1 --pp 0 --version merged",
    "--dp 1 --cp 1 --tp 1 --version v9",
    "--dp 1 --cp 2 --tp 1",
    "--dp 1 --cp 1 --tp 1 --version merged --policy eager",
    "--dp 1 --cp 1 --tp 1 --version merged --storage maybe",
    "--dp x --cp 1 --tp 1 --version merged",
    "--dp 1 --cp 1 --tp 1 --version merged --workers 0",
    "--dp 1 --cp 1 --tp 1 --version merged --time-limit 0",
    "--dp 1 --cp 1 --tp 1 --version merged --model ok",
    "--dp",
    "--no-such-flag",
    "--tier fast",
    "--model no_such_model",
    "--list --record",
  })
  void badInputIsExitTwoWithOneLine(String args) {
    Outcome o = check(withTestModels(args.split(" ")));
    assertEquals(2, o.code(), o.err());
    assertEquals(1, o.err().lines().count(), "one line, no stack trace: " + o.err());
    assertFalse(o.err().contains("\tat "), o.err());
    assertEquals("", o.out());
  }

  @Test
  void missingCatalogueAndTemplateAreBadInput() {
    Outcome catalogue = check("--models-dir", "/nonexistent");
    assertEquals(2, catalogue.code());
    assertTrue(catalogue.err().contains("catalogue not found"), catalogue.err());
    assertEquals(1, catalogue.err().lines().count());

    Outcome template = check("--models-dir", "/nonexistent", "--dp", "1", "--cp", "1", "--tp", "1", "--version", "merged");
    assertEquals(2, template.code());
    assertTrue(template.err().contains("template not found"), template.err());
    assertEquals(1, template.err().lines().count());
  }

  @Test
  void adhocHolds() {
    Outcome o = check(withTestModels("--dp", "1", "--cp", "2", "--tp", "2", "--version", "merged"));
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("adhoc_merged_1-2-2-1_best_effort_storage"), o.out());
    assertTrue(o.out().contains("holds"), o.out());
  }

  @Test
  void adhocViolationPrintsThePerRankTrace() {
    Outcome o = check(withTestModels("--dp", "1", "--cp", "2", "--tp", "1", "--version", "pre20460", "--storage", "off"));
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("violates TreeAgreement"), o.out());
    assertTrue(o.out().contains("rank 1"), o.out());
    assertTrue(o.out().contains("ranks diverge here and stay apart: tree (r0≠r1)"), o.out());
  }

  @Test
  void adhocTlcFailureIsExitThree() {
    // The stand-in spec refuses "pipelined" with an ASSUME: TLC exits 10.
    Outcome o = check(withTestModels("--dp", "1", "--cp", "1", "--tp", "1", "--version", "pipelined"));
    assertEquals(3, o.code(), o.out() + o.err());
    assertTrue(o.err().contains("TLC failed: TLC exit 10"), o.err());
  }

  @Test
  void defaultCatalogueRunsTierCi() {
    Outcome o = check(withTestModels());
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().anyMatch(l -> l.matches("diverge +pre20460 +1,2,1,1 +3 .*violates Agreement +✓")), o.out());
    assertFalse(o.out().contains("liveness"), "deep models are not in the default run");
    assertTrue(o.out().contains("2 of 2 models matched"), o.out());
  }

  @Test
  void mismatchIsExitOne() {
    Outcome o = check(withTestModels("--model", "wrong_expectation", "--model", "ok"));
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("✗"), o.out());
    assertTrue(o.out().contains("1 of 2 models matched"), o.out());
  }

  @Test
  void bugTableHasReferencesAndCounterexampleLengths() {
    Outcome o = check(withTestModels("--catalogue", "--model", "liveness", "--model", "diverge", "--verbose"));
    assertEquals(0, o.code(), o.out() + o.err());
    String header = o.out().lines().findFirst().orElse("");
    assertEquals(List.of("bug", "ref", "config", "expected", "observed", "distinct", "time", "cex", "match"),
        List.of(header.trim().split("\\s+")));
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("B9   #2") && l.contains("violates ReachesTwo") && l.endsWith("2  ✓")), o.out());
    assertTrue(o.out().contains("then back to state 1 forever"), o.out());
  }

  @Test
  void theFailingTemporalPropertyIsNamedWhenTheCfgHasSeveral() {
    Outcome o = check(withTestModels("--model", "liveness_two"));
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().lines().anyMatch(l -> l.startsWith("liveness_two") && l.contains("violates ReachesTwo  ✓")), o.out());
    assertTrue(o.out().contains("== liveness_two: violates ReachesTwo - counterexample of 2 states"),
        "a model named alone is printed whole: " + o.out());
  }

  @Test
  void manyModelsPrintTheTableAndOneLinePerCounterexample(@org.junit.jupiter.api.io.TempDir java.nio.file.Path pages) {
    Outcome o = check(withTestModels("--model", "ok", "--model", "diverge", "--model", "liveness",
        "--model", "deadlock", "--report", pages.toString()));
    assertEquals(0, o.code(), o.out() + o.err());
    assertFalse(o.out().contains("== "), "no counterexample table without --verbose: " + o.out());
    assertFalse(o.out().contains("rank 1"), o.out());
    String diverge = pages.resolve("diverge.html").toAbsolutePath().normalize().toString();
    assertTrue(o.out().lines().anyMatch(l -> l.matches(" +diverge +violates Agreement, 3 states +swimlanes: "
        + java.util.regex.Pattern.quote(diverge))), o.out());
    assertTrue(o.out().lines().anyMatch(l -> l.matches(" +liveness +violates ReachesTwo, 2 states +swimlanes: .*")),
        o.out());
    assertTrue(java.nio.file.Files.isRegularFile(java.nio.file.Path.of(diverge)), "the page is written");
    // The table (header, rule, 4 rows), a blank line, the heading and the counterexamples' lines, a blank
    // line and the count: nothing else.
    long cex = o.out().lines().filter(l -> l.contains("swimlanes: ")).count();
    assertTrue(cex >= 2, o.out());
    assertEquals(6 + 2 + cex + 2, o.out().lines().count(), o.out());
    assertFalse(o.err().contains("[diverge] violates"), "no result line per model: " + o.err());
    assertTrue(o.err().contains("4 of 4 models done"), o.err());
  }

  @Test
  void verboseAddsTheResultLinesAndTheTables() {
    Outcome o = check(withTestModels("--model", "ok", "--model", "diverge", "--verbose"));
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("== diverge: violates Agreement - counterexample of 3 states"), o.out());
    assertTrue(o.out().contains("rank 1"), o.out());
    assertTrue(o.err().contains("[diverge] violates Agreement: "), o.err());
  }

  @Test
  void recordWritesTheFiguresOfMatchedModelsOnly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    for (String f : new String[] {"catalogue.json", "Ok.cfg", "Ok.tla"}) {
      java.nio.file.Files.copy(TestSpecs.dir().resolve(f), dir.resolve(f));
    }
    java.nio.file.Path file = dir.resolve("catalogue.json");
    String text = java.nio.file.Files.readString(file);
    java.nio.file.Files.writeString(file, text.replace(",\n      \"liveness\": false, \"recorded\": { \"distinct\": 3, \"seconds\": 1.0, \"depth\": 3 }", ""));
    assertEquals(null, dev.hicachesync.modelcheck.Catalogue.load(file).named(List.of("ok")).get(0).recorded());
    Outcome o = check("--models-dir", dir.toString(), "--spec-dir", dir.toString(),
        "--model", "ok", "--model", "wrong_expectation", "--record");
    assertEquals(1, o.code(), o.out() + o.err());
    dev.hicachesync.modelcheck.Catalogue c = dev.hicachesync.modelcheck.Catalogue.load(dir.resolve("catalogue.json"));
    assertEquals(3, c.named(List.of("ok")).get(0).recorded().distinct());
    assertEquals(null, c.named(List.of("wrong_expectation")).get(0).recorded(), "a mismatch is not recorded");
    assertEquals("#1", c.named(List.of("diverge")).get(0).ref(), "other fields are kept");
  }

  @Test
  void listShowsTheSelectedModelsWithoutRunningThem() {
    Outcome o = check(withTestModels("--list", "--tier", "all"));
    assertEquals(0, o.code(), o.err());
    assertEquals(2 + 6, o.out().lines().count(), o.out());
    assertTrue(o.out().lines().anyMatch(l -> l.matches("ok +ci +- +- +merged +1,1,1,1 +holds +no +3 +1.0 s")), o.out());
    assertEquals("", o.err(), "nothing ran, so no progress lines");
  }

  @Test
  void helpListsTheCheckCommand() {
    StringWriter out = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(new StringWriter()));
    assertEquals(0, code);
    assertTrue(out.toString().contains("check"), out.toString());
  }
}
