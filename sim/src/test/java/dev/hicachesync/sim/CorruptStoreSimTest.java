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
    return config(dir, 1500);
  }

  private SimConfig config(Path dir, long steps) {
    return SimConfig.builder().topology(Topology.of(1, 2, 2, 1)).steps(steps).seed(5)
        .storage(StorageMode.FILE).storageDir(dir).collectiveTimeout(Duration.ofSeconds(10))
        .data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 64)).drainSteps(steps / 5).build();
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
    assertEquals(0, first.stats().storagePagesAtStart());
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
    assertTrue(s.storageCorruptPages() > 0, "the damaged pages were read: " + s.describe());
    assertTrue(s.storageReadFailures() >= 1, "each corrupt page failed its batch");
    assertEquals(pages.size(), s.storagePagesAtStart(), "the reused store is reported");
    assertTrue(s.describe().contains("corrupt pages: " + s.storageCorruptPages()), s.describe());
    assertTrue(s.describe().contains("storage not empty at start: " + pages.size() + " pages"), s.describe());
  }

  /**
   * A forged store: every page object's payload changed and its checksum recomputed, under its own key. The
   * storage layer cannot see it (checksum and key are right); the data check sees it the moment the page lands,
   * and it is a store forgery, a failed read like any damaged page: never {@code HostSlotSafety}, which would
   * blame the protocol for the store.
   */
  @Test
  void aForgedStoreIsAStoreForgeryNotAProtocolInvariant() throws IOException {
    Path dir = tmp.resolve("forged");
    SimResult first = new Simulator(config(dir, 500)).run();
    assertTrue(first.ok(), () -> String.valueOf(first.divergence()));
    List<Path> pages = pages(dir);
    for (Path p : pages) {
      Files.write(p, forge(Files.readAllBytes(p)));
    }
    SimResult second = new Simulator(config(dir, 500)).run();
    assertNull(second.divergence(), () -> second.divergence().describe());
    assertTrue(second.ok(), () -> "not quiet: " + second.quiescence());
    SimStats s = second.stats();
    assertTrue(s.storageForgedPages() > 0, "the forged pages were read: " + s.describe());
    assertEquals(s.storageCorruptPages(), s.storageForgedPages(), "every damaged page read was a forgery");
    assertTrue(s.describe().contains("store forgery: " + s.storageForgedPages()), s.describe());
  }

  /** The object with its last payload byte changed and the header's CRC32C (of key and payload) recomputed. */
  static byte[] forge(byte[] object) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(object);
    int nameLength = b.getInt(12);
    object[object.length - 1] ^= 0x5a;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(object, 16, object.length - 16);
    assertEquals(object.length - 16 - nameLength, b.getInt(4), "a page object as written");
    b.putInt(8, (int) crc.getValue());
    return object;
  }
}
