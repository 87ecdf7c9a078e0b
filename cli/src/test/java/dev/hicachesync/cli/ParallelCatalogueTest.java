package dev.hicachesync.cli;

import static dev.hicachesync.cli.CheckCommandTest.check;
import static dev.hicachesync.cli.CheckCommandTest.withTestModels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code check --jobs N}: the same rows, verdicts and exit code as one model at a time; and the same with a TLC JVM
 * per model ({@code --jvm-per-model}) as with resident ones.
 */
class ParallelCatalogueTest {

  /** The table rows without the time column (the only cell that may differ between runs). */
  private static List<String> rowsWithoutTimes(String out) {
    return out.lines()
        .takeWhile(l -> !l.isBlank())
        .skip(2)
        .map(l -> Arrays.stream(l.trim().split(" {2,}")).filter(c -> !c.matches("\\d+\\.\\d s"))
            .collect(Collectors.joining(" | ")))
        .collect(Collectors.toList());
  }

  @Test
  void parallelRowsEqualSerialRows() {
    // "ok" has the longest recorded time, so it starts first in parallel though it is listed third.
    String[] models = {"--model", "liveness", "--model", "diverge", "--model", "ok", "--model", "deadlock",
        "--model", "liveness_two", "--model", "wrong_expectation"};
    CheckCommandTest.Outcome serial = check(withTestModels(concat(models, "--jobs", "1")));
    CheckCommandTest.Outcome parallel = check(withTestModels(concat(models, "--jobs", "3")));
    assertEquals(serial.code(), parallel.code(), serial.out() + parallel.out());
    List<String> rows = rowsWithoutTimes(serial.out());
    assertEquals(6, rows.size(), serial.out());
    assertTrue(rows.get(0).startsWith("liveness |") && rows.get(2).startsWith("ok |"), serial.out());
    assertEquals(rows, rowsWithoutTimes(parallel.out()), parallel.out());
    // The trailer and the counterexamples follow the rows in catalogue order too.
    String serialRest = serial.out().substring(serial.out().indexOf("\n\n"));
    String parallelRest = parallel.out().substring(parallel.out().indexOf("\n\n"));
    assertEquals(serialRest.replaceAll("tlc/[^)]*", ""), parallelRest.replaceAll("tlc/[^)]*", ""));
  }

  @Test
  void aResidentTlcJvmGivesTheRowsOfAJvmPerModel() {
    String[] models = {"--model", "liveness", "--model", "diverge", "--model", "liveness_two", "--model", "ok",
        "--model", "deadlock", "--model", "wrong_expectation"};
    CheckCommandTest.Outcome own = check(withTestModels(concat(models, "--jobs", "1", "--jvm-per-model")));
    CheckCommandTest.Outcome resident = check(withTestModels(concat(models, "--jobs", "1")));
    assertEquals(own.code(), resident.code(), own.out() + resident.out());
    assertEquals(6, rowsWithoutTimes(own.out()).size(), own.out());
    assertEquals(rowsWithoutTimes(own.out()), rowsWithoutTimes(resident.out()), resident.out());
    String ownRest = own.out().substring(own.out().indexOf("\n\n"));
    String residentRest = resident.out().substring(resident.out().indexOf("\n\n"));
    assertEquals(ownRest.replaceAll("tlc/[^)]*", ""), residentRest.replaceAll("tlc/[^)]*", ""));
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void badJobsIsBadInput() {
    CheckCommandTest.Outcome o = check(withTestModels("--jobs", "0"));
    assertEquals(2, o.code(), o.err());
    assertEquals("hicache-sync check: --jobs must be at least 1 (got 0)", o.err().trim());
  }
}
