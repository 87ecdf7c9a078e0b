package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Off a terminal, a catalogue run's log says how far it got in about ten lines, whatever its size. */
class ProgressMilestonesTest {

  private static List<String> linesOf(int models, boolean milestones) {
    StringWriter log = new StringWriter();
    ProgressReporter reporter = new ProgressReporter(new PrintWriter(log), false, Duration.ofMinutes(1), milestones);
    reporter.expect(models);
    for (int i = 0; i < models; i++) {
      reporter.completed();
    }
    return log.toString().lines().toList();
  }

  @Test
  void oneLinePerTenthOfTheModels() {
    List<String> lines = linesOf(113, true);
    assertEquals(10, lines.size(), lines.toString());
    assertTrue(lines.get(0).matches("12 of 113 models done, elapsed 0:0\\d"), lines.get(0));
    assertTrue(lines.get(9).startsWith("113 of 113 models done"), lines.get(9));
  }

  @Test
  void fewModelsGetALineEach() {
    assertEquals(3, linesOf(3, true).size());
  }

  @Test
  void theClocksLineOnlyFillsASilence() {
    StringWriter log = new StringWriter();
    ProgressReporter reporter = new ProgressReporter(new PrintWriter(log), false, Duration.ofMinutes(1), true);
    reporter.started("m", 1);
    reporter.tick(); // less than a minute since the reporter began: nothing to fill
    reporter.finished();
    assertEquals("", log.toString());
  }

  @Test
  void noMilestonesUnlessAskedFor() {
    assertEquals(List.of(), linesOf(113, false));
  }
}
