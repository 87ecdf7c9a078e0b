package dev.hicachesync.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sim.DigestLogs;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimResult;
import dev.hicachesync.sim.SimStats;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.tier.DeviceChoice;
import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay's seeded output pinned to what it was before the simulator's hot paths were made faster: the
 * per-rank digest logs (tree, acks, prefetches, allocations at every lockstep point) and the statistics of a
 * fixed-seed replay of the first 200 conversation requests at CP 2 x TP 2, version {@code unified}, real bytes
 * through every tier, L1 and L2 small enough that nodes are evicted, and every page backed up to L3 and prefetched back from it.
 *
 * <p>Why pinned values: the other determinism tests run a seed twice on one build, which a change that alters
 * behaviour the same way every time passes. A speed-up of the storage path, the key chain or the data path must
 * leave every decision as it was; these hashes were recorded from the build before those changes, and a
 * change that moves one decision, one key or one page changes them. A deliberate change of behaviour
 * re-records them (the failure message prints the new values).
 */
class ReplayDigestGoldenTest {

  @Test
  void aSeededReplayWritesTheDigestsAndStatisticsItAlwaysWrote(@TempDir Path dir) throws IOException {
    List<MooncakeRequest> trace = Traces.resource(Traces.CONVERSATION_HEAD, 200);
    Topology t = Topology.of(1, 2, 2, 1);
    SimConfig.Builder b = SimConfig.builder().topology(t).seed(7).devicePages(2048).hostPages(6144)
        .maxRunning(64).data(DataOptions.on(HostLayout.PAGE_FIRST, 2, 128).withDevice(DeviceChoice.SIMULATED));
    SimResult r = new Simulator(MooncakeReplay.configure(b, trace, t.dp(), ReplayTiming.DEFAULT, "golden").build())
        .withDigestLogs(dir).run();
    assertNull(r.divergence(), () -> r.divergence().describe());
    SimStats s = r.stats();
    String stats = String.join(" ", "admitted", "" + s.admitted(), "device", "" + s.deviceHitTokens(), "host",
        "" + s.hostHitTokens(), "storage", "" + s.storageHitTokens(), "computed", "" + s.computedTokens(),
        "written", "" + s.storageWritePages(), "read", "" + s.storageReadPages());
    assertTrue(s.storageHitTokens() > 0, () -> "the run must prefetch from L3: " + stats);
    StringBuilder logs = new StringBuilder();
    for (int rank = 0; rank < t.worldSize(); rank++) {
      logs.append(sha256(Files.readAllBytes(DigestLogs.of(dir, rank)))).append(rank + 1 < t.worldSize() ? " " : "");
    }
    assertEquals(GOLDEN_STATS, stats, "statistics of the seeded replay");
    assertEquals(GOLDEN_LOGS, logs.toString(), "SHA-256 of each rank's digest log");
  }

  private static final String GOLDEN_STATS =
      "admitted 200 device 101888 host 0 storage 29696 computed 2650595 written 169328 read 2432";
  /**
   * Re-recorded once: S3's ack digest mixes in each popped release entry's page count since the spec's
   * AckAgreement compares those entries (StorageQueues.drain); the statistics above, every decision, stayed.
   */
  private static final String GOLDEN_LOGS =
      "30421bb545a8a0d5 30421bb545a8a0d5 30421bb545a8a0d5 30421bb545a8a0d5";

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
