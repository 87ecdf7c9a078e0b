package dev.hicachesync.sim;

import dev.hicachesync.sim.datapath.DataOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.tier.DeviceTiers;
import dev.hicachesync.tier.HostLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulator with the data path on: the KV bytes really move through device, host and storage, every
 * arrival holds exactly the bytes computed for its tokens, and moving them changes no decision.
 */
class DataPathSimTest {
  private static final long STEPS = 1500;

  private static SimConfig.Builder base(HostLayout layout) {
    return SimConfig.builder().steps(STEPS).collectiveTimeout(Duration.ofSeconds(5))
        .data(DataOptions.on(layout, 2, 128));
  }

  static Stream<Arguments> integrityMatrix() {
    return Stream.of(
        Arguments.of(HostLayout.PAGE_FIRST, StorageMode.MEMORY, 1L),
        Arguments.of(HostLayout.LAYER_FIRST, StorageMode.MEMORY, 2L),
        Arguments.of(HostLayout.PAGE_FIRST, StorageMode.FILE, 3L),
        Arguments.of(HostLayout.LAYER_FIRST, StorageMode.FILE, 4L),
        Arguments.of(HostLayout.PAGE_FIRST, StorageMode.MEMORY, 5L),
        Arguments.of(HostLayout.LAYER_FIRST, StorageMode.MEMORY, 6L));
  }

  /**
   * On the default protocol every load-back, write-through, storage write and prefetch arrives intact,
   * whatever the host layout and storage backend, and the rank falls quiet after the drain.
   */
  @ParameterizedTest
  @MethodSource("integrityMatrix")
  void integrityHolds(HostLayout layout, StorageMode storage, long seed, @TempDir Path dir) {
    SimResult r = new Simulator(base(layout).storage(storage).storageDir(dir.resolve("l3")).seed(seed)
        .drainSteps(400).build()).run();
    assertTrue(r.ok(), () -> "Failed on seed " + seed + "\n" + r.divergence() + " " + r.quiescence());
    SimStats s = r.stats();
    assertTrue(s.checkedPages() > 0 && s.hostToDevicePages() > 0 && s.storageReadPages() > 0, s::describe);
    assertEquals(128, s.pageBytes(), "bytes moved are real bytes");
    // Every page counted in the report really moved: copies both ways, storage reads and writes.
    long pages = s.deviceToHostPages() + s.hostToDevicePages() + s.storageReadPages() + s.storageWritePages();
    assertEquals(pages * 128, s.dataBytes(), s::describe);
  }

  /** Moving bytes changes no decision: data on and off give one event log, one tree, one report of counts. */
  @Test
  void dataPathChangesNoDecision(@TempDir Path dir) throws IOException {
    Path on = dir.resolve("on.log");
    Path off = dir.resolve("off.log");
    SimResult a = new Simulator(base(HostLayout.LAYER_FIRST).steps(600).logFile(on).build()).run();
    SimResult b = new Simulator(base(HostLayout.LAYER_FIRST).steps(600).logFile(off).data(DataOptions.OFF)
        .build()).run();
    assertTrue(a.ok() && b.ok());
    assertEquals(Files.readAllLines(off), Files.readAllLines(on));
    assertEquals(b.finalDigests(), a.finalDigests());
    assertEquals(b.stats().storageReadPages(), a.stats().storageReadPages());
    assertEquals(b.stats().hostToDevicePages(), a.stats().hostToDevicePages());
  }

  /** The same seed twice with the data path on gives the same report, byte counts included. */
  @Test
  void sameSeedSameRunWithData() {
    SimConfig cfg = base(HostLayout.PAGE_FIRST).prefetchPolicy(PrefetchPolicy.TIMEOUT).seed(11).build();
    SimResult a = new Simulator(cfg).run();
    SimResult b = new Simulator(cfg).run();
    assertTrue(a.ok() && b.ok());
    assertEquals(a.stats().describe(), b.stats().describe());
    assertEquals(a.finalDigests(), b.finalDigests());
  }

  /** The report names the device tier the probe chose, and why when it is the simulated one. */
  @Test
  void reportNamesTheDeviceTier() {
    SimResult r = new Simulator(base(HostLayout.PAGE_FIRST).steps(50).build()).run();
    String tier = r.stats().deviceTier();
    assertNotNull(tier);
    if (DeviceTiers.probe().available()) {
      assertTrue(!tier.startsWith("simulated"), tier);
    } else {
      assertEquals("simulated (CUDA unavailable: " + DeviceTiers.probe().detail() + ")", tier);
    }
    assertTrue(r.stats().describe().contains("device tier: " + tier), r.stats()::describe);
    assertTrue(r.stats().describe().contains("host layout: page_first, page 128 B (2 layers x 64 B)"));
    assertEquals(List.of(), r.quiescence());
  }
}
