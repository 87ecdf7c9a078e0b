package dev.hicachesync.sim;

import dev.hicachesync.sim.datapath.DataOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged {@code --storage file} store: flipped bytes, cut objects and swapped objects are
 * failed reads, as SGLang treats a storage read that fails: the prefetch ends short, the ranks agree on
 * it through S5/S6's MIN, the page is counted and never inserted, and the run ends without divergence.
 */
class CorruptStoreSimTest {
  @TempDir Path tmp;

  private SimConfig config(Path dir) {
    return SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).steps(1500).seed(5)
        .storage(StorageMode.FILE).storageDir(dir).collectiveTimeout(Duration.ofSeconds(10))
        .data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 64)).drainSteps(300).build();
  }

  private static List<Path> pages(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".page")).sorted().toList();
    }
  }

  @Test
  void aDamagedStoreGivesFailedReadsNotACrashNorADivergence() throws IOException {
    Path dir = tmp.resolve("store");
    SimResult first = new Simulator(config(dir)).run();
    assertTrue(first.ok(), () -> String.valueOf(first.divergence()));
    assertEquals(0, first.stats().storagePagesAtStart);
    List<Path> pages = pages(dir);
    assertTrue(pages.size() > 300, "the first run filled the store: " + pages.size());
    // Damage one page in two, the seed deciding how: a flipped byte, a cut object, a swap with a neighbour.
    Random rnd = new Random(16);
    for (int i = 0; i + 1 < pages.size(); i += 2) {
      Path p = pages.get(i);
      byte[] b = Files.readAllBytes(p);
      switch (rnd.nextInt(3)) {
        case 0 -> {
          b[16 + rnd.nextInt(b.length - 16)] ^= 0x20;
          Files.write(p, b);
        }
        case 1 -> Files.write(p, java.util.Arrays.copyOf(b, rnd.nextInt(b.length)));
        default -> {
          Path q = pages.get(i + 1);
          Files.write(p, Files.readAllBytes(q));
          Files.write(q, b);
        }
      }
    }
    SimResult second = new Simulator(config(dir)).run();
    assertNull(second.divergence(), () -> second.divergence().describe());
    assertTrue(second.ok(), () -> "not quiet: " + second.quiescence());
    SimStats s = second.stats();
    assertTrue(s.storageCorruptPages > 0, "the damaged pages were read: " + s.describe());
    assertTrue(s.storageReadFailures >= 1, "each corrupt page failed its batch");
    assertEquals(pages.size(), s.storagePagesAtStart, "the reused store is reported");
    assertTrue(s.describe().contains("corrupt pages: " + s.storageCorruptPages), s.describe());
    assertTrue(s.describe().contains("storage not empty at start: " + pages.size() + " pages"), s.describe());
  }
}
