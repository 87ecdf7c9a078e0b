package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --record} changes the recorded figures of the models it ran and no other line of the catalogue. */
class CatalogueRecorderTest {

  @Test
  void recordingChangesOnlyTheRecordedLines(@TempDir Path dir) throws Exception {
    Path real = Workspace.fromRoot().catalogue();
    Path file = dir.resolve("catalogue.json");
    Files.copy(real, file);
    Catalogue catalogue = Catalogue.load(file);
    ModelEntry holds = catalogue.models().stream() // one whose figures all differ from those recorded below
        .filter(m -> m.expectedVerdict().equals(Verdict.HOLDS) && m.recorded() != null
            && m.recorded().distinct() != 123_457 && m.recorded().seconds() != 9.9 && m.recorded().depth() != 42)
        .findFirst().orElseThrow();
    ModelEntry other = catalogue.models().stream()
        .filter(m -> m != holds).findFirst().orElseThrow();
    int n = CatalogueRecorder.record(file, catalogue, Map.of(
        holds.name(), result(Verdict.HOLDS, 123_457, 9.87, 42),
        other.name(), result(Verdict.violates("NotExpected"), 1, 1.0, 1))); // a mismatch is not recorded
    assertEquals(1, n);

    List<String> before = Files.readAllLines(real);
    List<String> after = Files.readAllLines(file);
    assertEquals(before.size(), after.size(), "the catalogue's layout changed");
    List<String> changed = new ArrayList<>();
    for (int i = 0; i < before.size(); i++) {
      if (!before.get(i).equals(after.get(i))) {
        changed.add(after.get(i).trim());
      }
    }
    assertEquals(List.of("\"distinct\": 123457,", "\"seconds\": 9.9,", "\"depth\": 42"), changed,
        "the lines that changed besides " + holds.name() + "'s recorded figures (was " + holds.recorded() + ")");
    assertEquals(123_457, Catalogue.load(file).models().stream()
        .filter(m -> m.name().equals(holds.name())).findFirst().orElseThrow().recorded().distinct());
  }

  private static TlcResult result(Verdict v, long distinct, double seconds, int depth) {
    return new TlcResult(0, v, distinct, distinct, depth, seconds, Optional.empty(), "", null, List.of());
  }
}
