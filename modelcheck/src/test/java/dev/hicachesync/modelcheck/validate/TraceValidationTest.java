package dev.hicachesync.modelcheck.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Traces checked by TLC against {@code spec/TraceHiCacheSync.tla}: behaviours of the spec (fixtures made by
 * {@link GenerateTraceFixturesTest}) are accepted; one edited event (a collective's result, an ack count, a
 * local value), a failure line, or a missing member's line is rejected at that event; a legacy pre20460 run
 * under CP breaks an invariant, and the report names where the recorded ranks diverged.
 *
 * <p>CI runs the short fixtures (25–30 events, about 10 s of TLC each); {@code -Dhicache.trace.long=true}
 * adds the 4-rank and the 100–120-event ones.
 */
class TraceValidationTest {

  static Validation validate(String name, List<String> lines) throws Exception {
    Path file = TestSpecs.root().resolve("modelcheck/target/trace-test-input/" + name + ".ndjson");
    Files.createDirectories(file.getParent());
    Files.write(file, lines);
    Trace trace = TraceReader.read(file);
    Workspace ws = new Workspace(TestSpecs.dir(), TraceSpecDir.get(), TestSpecs.root().resolve("modelcheck/target/tlc-test"));
    return new TraceValidator(ws, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), Duration.ofMinutes(5))
        .validate(trace, name, file.toString());
  }

  /** A validation in a few lines (without TLC's output). */
  static String show(Validation v) {
    return v.outcome() + " " + v.invariant() + " at " + v.event().map(SpecEvent::describe).orElse("-")
        + "; allowed " + v.allowed() + "; " + v.message() + "; disagreement " + v.disagreement().orElse("-");
  }

  static List<String> fixture(String name) throws Exception {
    return Files.readAllLines(TestSpecs.root().resolve("modelcheck/src/test/resources/trace/" + name + ".ndjson"));
  }

  /** The spec event that holds file line {@code line} (1-based). */
  static int eventOfLine(List<String> lines, int line) throws Exception {
    Trace t = TraceReader.parse("x", lines);
    for (SpecEvent e : SpecEvents.merge(t)) {
      if (e.line() == line || e.members().values().stream().anyMatch(c -> lineOf(t, c) == line)) {
        return e.number();
      }
    }
    throw new AssertionError("no event holds line " + line);
  }

  private static int lineOf(Trace t, Object record) {
    return t.events().stream().filter(l -> l.record() == record).findFirst().orElseThrow().number();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hand-post20460-cp2", "merged-cp2-seed1", "merged-cp2-seed2", "merged-cp2-seed3",
      "post20460-cp2-seed4"})
  void behavioursOfTheSpecAreAccepted(String name) throws Exception {
    Validation v = validate(name, fixture(name));
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), name + ": " + show(v));
  }

  @ParameterizedTest(name = "{0}")
  @EnabledIfSystemProperty(named = "hicache.trace.long", matches = "true")
  @ValueSource(strings = {"merged-cp2tp2-seed5", "long-merged-cp2-seed6", "long-post20460-cp2tp2-seed7"})
  void longBehavioursOfTheSpecAreAccepted(String name) throws Exception {
    Validation v = validate(name, fixture(name));
    assertEquals(Validation.Outcome.ACCEPTED, v.outcome(), name + ": " + show(v));
  }

  /** Replaces, in the first line after the 8th that matches {@code field}, its first number by that + 1. */
  static int edit(List<String> lines, String field) {
    Pattern p = Pattern.compile("\"" + field + "\":\\[(\\d+)");
    for (int i = 8; i < lines.size(); i++) {
      Matcher m = p.matcher(lines.get(i));
      if (m.find()) {
        long v = Long.parseLong(m.group(1));
        lines.set(i, lines.get(i).substring(0, m.start(1)) + (v + 1) + lines.get(i).substring(m.end(1)));
        return i + 1;
      }
    }
    throw new AssertionError("no line with " + field);
  }

  @ParameterizedTest(name = "edited {0}")
  @ValueSource(strings = {"res", "pop"})
  void oneEditedEventIsRejectedThere(String field) throws Exception {
    List<String> lines = new ArrayList<>(fixture("merged-cp2-seed1"));
    int line = edit(lines, field);
    int event = eventOfLine(lines, line);
    Validation v = validate("edited-" + field, lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), show(v));
    assertEquals(event, v.event().orElseThrow().number(), show(v));
    assertTrue(!v.allowed().isEmpty(), "names what the spec allowed there");
  }

  @Test
  void aLocalValueBothMembersAgreeOnButTheSpecCannotPostIsRejected() throws Exception {
    List<String> lines = new ArrayList<>(fixture("hand-post20460-cp2"));
    // S2: both ranks claim one finished load ack and pop it; no load-back was ever issued.
    for (int i = 5; i <= 6; i++) {
      lines.set(i, lines.get(i).replace("\"val\":[0],\"res\":[0],\"pop\":[0]", "\"val\":[1],\"res\":[1],\"pop\":[1]"));
    }
    Validation v = validate("edited-val", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), show(v));
    assertEquals(3, v.event().orElseThrow().number());
  }

  @Test
  void aFailureLineIsNeverPartOfABehaviour() throws Exception {
    List<String> lines = new ArrayList<>(fixture("hand-post20460-cp2"));
    lines.add("{\"ev\":\"RankFailed\",\"r\":1,\"step\":0,\"reason\":\"CollectiveMatching\"}");
    Validation v = validate("failed", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), show(v));
    assertEquals(4, v.event().orElseThrow().number());
    assertEquals("RankFailed", v.event().orElseThrow().kind());
  }

  @Test
  void aCollectiveMissingAMembersLineIsRejectedThere() throws Exception {
    List<String> lines = new ArrayList<>(fixture("hand-post20460-cp2"));
    lines.remove(lines.size() - 1);
    Validation v = validate("incomplete", lines);
    assertEquals(Validation.Outcome.REJECTED, v.outcome(), show(v));
    assertEquals("IncompleteCollective", v.event().orElseThrow().kind());
  }

  @Test
  void legacyRunUnderCpBreaksAnInvariantAndTheDivergenceIsNamed() throws Exception {
    Validation v = validate("pre20460", fixture("pre20460-cp2-diverge"));
    assertTrue(v.outcome() == Validation.Outcome.INVARIANT_BROKEN || v.outcome() == Validation.Outcome.REJECTED,
        show(v));
    assertTrue(v.disagreement().orElseThrow().startsWith("event 2 (line 4): at RECV rank 0 device free 1, host free 1, write acks 0, load acks 0, revokes 1"), show(v));
  }
}
