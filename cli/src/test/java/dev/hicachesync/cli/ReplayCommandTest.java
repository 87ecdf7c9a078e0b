package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hicachesync.modelcheck.TestSpecs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check --replay MODEL}'s exit codes on the repository's catalogue: 0 for a bug model that reproduces
 * and for its fixed twin that runs clean; 1 for a disagreement, whose reason names the side the replay holds
 * wrong. (Exit 2, a refusal naming why: {@link SwimlaneCommandsTest}.)
 */
class ReplayCommandTest {

  record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void aBugModelThatReproducesAndItsFixedTwinExitZero() {
    Outcome bug = run("check", "--replay", "pre20460_cp2");
    assertEquals(0, bug.code(), bug.out() + bug.err());
    assertTrue(bug.out().contains("replay: the implementation reaches the same violation at the same step"), bug.out());
    Outcome twin = run("check", "--replay", "b1_fixed");
    assertEquals(0, twin.code(), twin.out() + twin.err());
    assertTrue(twin.out().contains("replay of pre20460_cp2's counterexample against b1_fixed"), twin.out());
    assertTrue(twin.out().contains("replay: the implementation runs the schedule clean"), twin.out());
  }

  /**
   * A "fixed twin" whose constants still hold the bug (the models directory is a copy with one such entry
   * added): the implementation breaks the invariant on the bug's schedule, so the replay disagrees with the
   * catalogue's claim that it holds, and says the implementation is the side that is wrong.
   */
  @Test
  void aFixedTwinThatStillBreaksExitsOneSayingTheImplementationIsWrong(@TempDir Path dir) throws Exception {
    Path models = dir.resolve("models");
    Files.createDirectories(models);
    Path real = TestSpecs.root().resolve("modelcheck/models");
    try (Stream<Path> files = Files.list(real)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, models.resolve(f.getFileName()));
      }
    }
    ObjectMapper json = new ObjectMapper();
    ObjectNode catalogue = (ObjectNode) json.readTree(models.resolve("catalogue.json").toFile());
    ArrayNode entries = (ArrayNode) catalogue.get("models");
    ObjectNode bug = null;
    for (var e : entries) {
      if (e.get("name").asText().equals("pre20460_cp2")) {
        bug = (ObjectNode) e;
      }
    }
    ObjectNode unfixed = bug.deepCopy();
    unfixed.put("name", "b1_not_fixed");
    unfixed.put("tier", "deep");
    unfixed.put("expected", "holds");
    unfixed.remove("recorded");
    entries.add(unfixed);
    json.writerWithDefaultPrettyPrinter().writeValue(models.resolve("catalogue.json").toFile(), catalogue);

    Outcome o = run("check", "--replay", "b1_not_fixed", "--models-dir", models.toString());
    assertEquals(1, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("replay: code and spec part ways: the implementation is wrong: the fixed version still"
        + " breaks AckAgreement at step 2 on the bug's schedule"), o.out());
  }
}
