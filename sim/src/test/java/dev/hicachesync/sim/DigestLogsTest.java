package dev.hicachesync.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-process domain checker: gathered digest logs that agree give no divergence; one rank's differing
 * component at one lockstep point is named with the in-JVM checker's invariant, step, point and ranks.
 */
class DigestLogsTest {
  private static final Topology CP2_TP2 = Topology.of(1, 2, 2, 1);

  /** Writes the same 10 steps (RECV, S123, END) for every rank, with {@code edit} applied to one line. */
  private static void write(Path dir, int editRank, long editStep, String editPoint, int field, long delta)
      throws IOException {
    for (int r = 0; r < 4; r++) {
      try (DigestLog log = DigestLog.create(DigestLogs.of(dir, r))) {
        for (long s = 0; s < 10; s++) {
          for (String p : List.of("RECV", "S123", "END")) {
            long code = p.equals("END") ? RankRecorder.END : dev.hicachesync.sync.SyncPoint.valueOf(p).ordinal();
            long[] v = {s * 31 + 1, s * 7 + 2, s * 3 + 3, s + 4};
            if (r == editRank && s == editStep && p.equals(editPoint)) {
              v[field] += delta;
            }
            log.write(s, code, v[0], v[1], v[2], v[3]);
          }
        }
      }
    }
  }

  @Test
  void agreeingLogsGiveNoDivergence(@TempDir Path dir) throws IOException {
    write(dir, -1, -1, "", 0, 0);
    assertNull(DigestLogs.compare(CP2_TP2, dir));
  }

  @Test
  void oneRanksDifferingDigestIsNamed(@TempDir Path dir) throws IOException {
    write(dir, 3, 7, "S123", 1, 1); // rank 3's acks at step 7, S123
    Divergence d = DigestLogs.compare(CP2_TP2, dir);
    assertEquals(7, d.step());
    assertEquals("sync point S123", d.point());
    assertEquals(List.of(Invariant.AckAgreement), d.invariants());
    assertEquals(0, d.rankA());
    assertEquals(3, d.rankB());
  }

  @Test
  void eachComponentMapsToItsInvariant(@TempDir Path dir) throws IOException {
    List<Invariant> got = new ArrayList<>();
    for (int field = 0; field < 4; field++) {
      Path sub = dir.resolve("f" + field);
      write(sub, 1, 2, "END", field, -5);
      got.add(DigestLogs.compare(CP2_TP2, sub).invariant());
    }
    assertEquals(List.of(Invariant.TreeAgreement, Invariant.AckAgreement, Invariant.PrefetchAgreement,
        Invariant.AllocAgreement), got);
  }

  @Test
  void anotherLockstepPointIsCollectiveMatching(@TempDir Path dir) throws IOException {
    write(dir, -1, -1, "", 0, 0);
    List<String> lines = new ArrayList<>(Files.readAllLines(DigestLogs.of(dir, 2)));
    lines.set(13, lines.get(13).replace(" S123 ", " S4 ")); // step 4's S123 on rank 2
    Files.write(DigestLogs.of(dir, 2), lines);
    Divergence d = DigestLogs.compare(CP2_TP2, dir);
    assertEquals(List.of(Invariant.CollectiveMatching), d.invariants());
    assertEquals(4, d.step());
    assertEquals(2, d.rankB());
  }

  @Test
  void theFirstStepOverAllDomainsIsReported(@TempDir Path dir) throws IOException {
    Topology dp2 = Topology.of(2, 1, 2, 1); // domains {0,1} and {2,3}
    write(dir, 3, 2, "RECV", 0, 1);
    Divergence d = DigestLogs.compare(dp2, dir);
    assertEquals(2, d.rankA());
    assertEquals(3, d.rankB());
    assertEquals(2, d.step());
  }
}
