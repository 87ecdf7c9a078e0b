package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.EnvironmentFaults;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.tier.DeviceChoice;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.topology.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The start-up handshake of rank processes compares {@link RankCommand#identity}: every setting a rank's
 * decisions read must be in it (ranks that differ there diverge at their first eviction or read, which the
 * handshake exists to prevent), and nothing that may differ between machines (a folder, a log, the device
 * tier). Every component of {@link SimConfig} is classified here; one added later fails this test until it is.
 */
class HandshakeIdentityTest {

  private static SimConfig.Builder base() {
    return SimConfig.builder().storage(StorageMode.FILE).data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 64));
  }

  /** The settings that feed decisions: one change each, which must change the identity. */
  private static final Map<String, UnaryOperator<SimConfig.Builder>> SHARED = new LinkedHashMap<>();
  /** The rank-local settings: one change each, which must leave the identity alone. */
  private static final Map<String, UnaryOperator<SimConfig.Builder>> LOCAL = new LinkedHashMap<>();
  /** Components a world of processes refuses outright ({@code --workload}), so never compared. */
  private static final Set<String> REFUSED = Set.of("workload");

  static {
    SHARED.put("topology", b -> b.topology(Topology.of(1, 1, 4, 1)));
    SHARED.put("steps", b -> b.steps(99));
    SHARED.put("seed", b -> b.seed(99));
    SHARED.put("version", b -> b.version(ProtocolVersion.POST20460));
    SHARED.put("storage", b -> b.storage(StorageMode.OFF).data(DataOptions.OFF));
    SHARED.put("storagePages", b -> b.storagePages(500));
    SHARED.put("prefetchPolicy", b -> b.prefetchPolicy(PrefetchPolicy.WAIT_COMPLETE));
    SHARED.put("writePolicy", b -> b.writePolicy(WritePolicy.WRITE_BACK));
    SHARED.put("faults", b -> b.faults(EnumSet.of(Fault.EARLY_ADMISSION_EXIT)));
    SHARED.put("pageSize", b -> b.pageSize(32));
    SHARED.put("devicePages", b -> b.devicePages(100));
    SHARED.put("hostPages", b -> b.hostPages(300));
    SHARED.put("maxRunning", b -> b.maxRunning(3));
    SHARED.put("readFailure", b -> b.readFailure(0.2));
    SHARED.put("fullDigestEvery", b -> b.fullDigestEvery(7));
    SHARED.put("drainSteps", b -> b.drainSteps(50));
    SHARED.put("data", b -> b.data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 128)));
    SHARED.put("hostBufferOnly", b -> b.version(ProtocolVersion.UNIFIED).hostBufferOnly(true));
    SHARED.put("abortRunning", b -> b.abortRunning(0.2));
    SHARED.put("specShaped", b -> b.specShaped(dev.hicachesync.sim.spec.SpecShaped.distinct(3)));
    // The seeded timing of environment faults is compared through the faults' own spec (identity's second part).
    SHARED.put("timing", b -> b);
    LOCAL.put("storageDir", b -> b.storageDir(Path.of("/elsewhere")));
    LOCAL.put("collectiveTimeout", b -> b.collectiveTimeout(Duration.ofSeconds(3)));
    LOCAL.put("logFile", b -> b.logFile(Path.of("/tmp/x.log")));
    // an observer of the ranks' decorated calls in one JVM: it feeds no decision
    LOCAL.put("consensusMonitor", b -> b.consensusMonitor(
        new dev.hicachesync.monitor.ConsensusMonitor(base().build().topology().worldSize())));
    LOCAL.put("storageDurable", b -> b.storageDurable(true));
  }

  @Test
  void everySimConfigComponentIsClassified() {
    Set<String> all = new TreeSet<>();
    Arrays.stream(SimConfig.class.getRecordComponents()).forEach(c -> all.add(c.getName()));
    Set<String> classified = new TreeSet<>(SHARED.keySet());
    classified.addAll(LOCAL.keySet());
    classified.addAll(REFUSED);
    assertEquals(all, classified, "a SimConfig component is neither compared at the handshake nor rank-local");
  }

  @Test
  void everySharedSettingChangesTheIdentityAndNoLocalOneDoes() {
    String ref = RankCommand.identity(base().build(), null);
    for (Map.Entry<String, UnaryOperator<SimConfig.Builder>> e : SHARED.entrySet()) {
      if (e.getKey().equals("timing")) {
        continue;
      }
      SimConfig.Builder b = e.getKey().equals("hostBufferOnly") ? base().version(ProtocolVersion.UNIFIED) : base();
      String before = RankCommand.identity(b.build(), null);
      assertNotEquals(before, RankCommand.identity(e.getValue().apply(b).build(), null), e.getKey());
    }
    for (Map.Entry<String, UnaryOperator<SimConfig.Builder>> e : LOCAL.entrySet()) {
      assertEquals(ref, RankCommand.identity(e.getValue().apply(base()).build(), null), e.getKey());
    }
    // The device tier and the host layout move the same bytes: a world may mix them.
    assertEquals(ref, RankCommand.identity(base().data(DataOptions.on(HostLayout.LAYER_FIRST, 2, 64)
        .withDevice(DeviceChoice.SIMULATED)).build(), null));
  }

  @Test
  void environmentFaultsAreComparedByWhatTheyInjectNotHowTheyAreWritten() {
    SimConfig c = base().build();
    String a = RankCommand.identity(c, EnvironmentFaults.parse("slow=0.2,corrupt=0.01"));
    assertEquals(a, RankCommand.identity(c, EnvironmentFaults.parse(" corrupt=0.010 , slow=0.2")));
    assertNotEquals(a, RankCommand.identity(c, EnvironmentFaults.parse("slow=0.2,corrupt=0.02")));
    assertNotEquals(a, RankCommand.identity(c, null));
  }
}
