package dev.hicachesync.sim;

import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.workload.SyntheticWorkload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.storage.StorageBackendException;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/**
 * The short soak of environment faults (CI): every fixed protocol version keeps its ranks in agreement, and drains
 * leak-free, under seeded environment faults ({@link EnvironmentFaults}); the legacy version and an
 * injected protocol bug are still caught under the same faults; a backend exception fails its rank by
 * name and its peers with the collective error, without a hang. The long soak is in docs/howto/run-a-soak.md.
 */
class EnvironmentFaultSoakTest {
  static final String FAULTS = "read_fail=0.03,corrupt=0.02,missing=0.02,slow=0.1,abort=0.03";

  private static SimConfig.Builder base(Topology t, ProtocolVersion v) {
    return SimConfig.builder().topology(t).version(v).steps(1200).seed(16).drainSteps(300)
        .collectiveTimeout(Duration.ofSeconds(10));
  }

  private static SimResult soak(SimConfig.Builder b, EnvironmentFaults f) {
    SimConfig plain = b.build();
    SimConfig cfg = f.apply(b, plain.timing(), SyntheticWorkload.factory(plain.pageSize())).build();
    return new Simulator(cfg).withFaults(f).run();
  }

  @Test
  void fixedVersionsAgreeUnderEnvironmentFaults() {
    for (ProtocolVersion v : new ProtocolVersion[] {ProtocolVersion.POST20460, ProtocolVersion.MERGED}) {
      EnvironmentFaults f = EnvironmentFaults.parse(FAULTS);
      SimResult r = soak(base(Topology.of(1, 2, 2, 1), v), f);
      assertNull(r.divergence(), () -> v + ": " + r.divergence().describe() + "\nFailed on seed 16");
      assertTrue(r.ok(), () -> v + " not quiet: " + r.quiescence());
      assertTrue(f.storage().corrupt() > 0 && f.storage().missing() > 0 && f.slow() > 0
          && f.aborts() > 0, () -> v + ": every kind must be injected: " + f.describe());
      assertTrue(r.stats().storageCorruptPages() > 0, r.stats().describe());
    }
  }

  /**
   * Objects damaged in a file store during the run: grown to 3 GiB (sparse) and forged (payload changed, checksum
   * recomputed). Both are failed reads; the ranks stay in agreement, and no forgery is read as HostSlotSafety.
   */
  @Test
  void oversizedAndForgedPagesAreFailedReadsAndTheRanksAgree(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    EnvironmentFaults f = EnvironmentFaults.parse("corrupt=0.01,oversized=0.05,forged=0.05,slow=0.1");
    SimResult r = soak(base(Topology.of(1, 2, 2, 1), ProtocolVersion.MERGED).storage(StorageMode.FILE)
        .storageDir(dir).data(DataOptions.on(dev.hicachesync.tier.HostLayout.PAGE_FIRST, 2, 64)), f);
    assertNull(r.divergence(), () -> r.divergence().describe() + "\nFailed on seed 16");
    assertTrue(r.ok(), () -> "not quiet: " + r.quiescence());
    assertTrue(f.storage().oversized() > 0 && f.storage().forged() > 0, f.describe());
    assertTrue(r.stats().storageForgedPages() > 0, r.stats().describe());
    assertTrue(f.describe().endsWith(", oversized " + f.storage().oversized() + ", forged " + f.storage().forged()),
        f.describe());
  }

  @Test
  void aKindGivenTwiceOrOneTheRunCannotInjectIsRefused() {
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> EnvironmentFaults.parse("corrupt=0.1,slow=0.2,corrupt=0.3"));
    assertTrue(twice.getMessage().contains("corrupt is given twice"), twice.getMessage());
    SimConfig off = base(Topology.of(1, 2, 1, 1), ProtocolVersion.MERGED).storage(StorageMode.OFF).build();
    IllegalArgumentException storageOff = assertThrows(IllegalArgumentException.class,
        () -> EnvironmentFaults.parse("corrupt=0.5").check(off));
    assertTrue(storageOff.getMessage().contains("--storage is off"), storageOff.getMessage());
    EnvironmentFaults.parse("slow=0.5,abort=0.1").check(off); // not storage faults: fine without storage
    SimConfig memory = base(Topology.of(1, 2, 1, 1), ProtocolVersion.MERGED).build();
    assertThrows(IllegalArgumentException.class, () -> EnvironmentFaults.parse("oversized=0.1").check(memory));
    IllegalArgumentException noData = assertThrows(IllegalArgumentException.class,
        () -> EnvironmentFaults.parse("forged=0.1").check(memory));
    assertTrue(noData.getMessage().contains("--data on"), noData.getMessage());
  }

  @Test
  void theSameSeedInjectsTheSameFaults() {
    EnvironmentFaults a = EnvironmentFaults.parse(FAULTS);
    EnvironmentFaults b = EnvironmentFaults.parse(FAULTS);
    SimResult ra = soak(base(Topology.of(1, 2, 1, 1), ProtocolVersion.MERGED).drainSteps(0), a);
    SimResult rb = soak(base(Topology.of(1, 2, 1, 1), ProtocolVersion.MERGED).drainSteps(0), b);
    assertEquals(a.describe(), b.describe());
    assertEquals(ra.stats().describe(), rb.stats().describe());
    assertEquals(ra.finalDigests(), rb.finalDigests());
  }

  @Test
  void legacyVersionAndAnInjectedBugAreStillCaughtUnderTheSameFaults() {
    SimResult legacy = soak(base(Topology.of(1, 2, 1, 1), ProtocolVersion.PRE20460).drainSteps(0),
        EnvironmentFaults.parse(FAULTS));
    assertNotNull(legacy.divergence(), "pre20460 with CP must still diverge (B1) under faults");
    SimResult b5 = soak(base(Topology.of(1, 2, 2, 1), ProtocolVersion.MERGED).drainSteps(0)
        .faults(EnumSet.of(Fault.UNSYNCED_LOADING_CHECK)), EnvironmentFaults.parse(FAULTS));
    assertNotNull(b5.divergence(), "B5 must still be caught under faults");
  }

  /** SGLang #38428: a storage thread that meets a backend exception must not die silently. */
  @Test
  void aBackendExceptionFailsTheRankByNameAndItsPeersWithTheCollectiveError() {
    EnvironmentFaults f = EnvironmentFaults.parse("backend_error=0.01");
    long start = System.nanoTime();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> soak(
        base(Topology.of(1, 2, 2, 1), ProtocolVersion.MERGED).collectiveTimeout(Duration.ofSeconds(3)), f));
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertTrue(e.getCause() instanceof StorageBackendException, String.valueOf(e.getCause()));
    assertTrue(e.getMessage().contains("storage backend failed") && e.getMessage().contains("seed 16"), e.getMessage());
    assertTrue(e.getMessage().contains("peer(s) stopped by the collective error"), e.getMessage());
    assertTrue(f.storage().backendErrors() >= 1);
    assertTrue(seconds < 120, "ended within the collective timeout's bound, took " + seconds + " s");
  }

  @Test
  void badSpecsAreOneLineErrors() {
    for (String bad : new String[] {"", "corrupt", "corrupt=2", "corrupt=x", "fire=0.1", "corrupt=0.1,,"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnvironmentFaults.parse(bad));
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
  }
}
