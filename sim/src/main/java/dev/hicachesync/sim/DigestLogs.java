package dev.hicachesync.sim;

import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.SyncPoint;
import dev.hicachesync.topology.GroupKind;
import dev.hicachesync.topology.Topology;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The domain checker of a run whose ranks are processes: compares the gathered {@link DigestLog}s of every
 * sync domain, lockstep point by lockstep point, with the in-JVM checker's mapping from components to
 * invariants. Within one process the leader reads its peers' recorders during the run; across processes it
 * cannot, so the comparison runs on the logs when the ranks have ended.
 */
public final class DigestLogs {
  private DigestLogs() {}

  /** Returns the log file of {@code rank} in the digest-log folder {@code dir}. */
  public static Path of(Path dir, int rank) {
    return dir.resolve(DigestLog.fileName(rank));
  }

  /**
   * Compares the logs in {@code dir} of every sync domain of {@code t}, up to the shortest log of each domain;
   * returns the first disagreement (the lowest step over all domains), or null.
   *
   * @throws IOException if a log cannot be read; a malformed line is an {@link IllegalArgumentException}
   */
  public static Divergence compare(Topology t, Path dir) throws IOException {
    Divergence first = null;
    for (List<Integer> domain : t.groups(GroupKind.SYNC_DOMAIN)) {
      if (domain.size() < 2) {
        continue;
      }
      Divergence d = compareDomain(domain, dir);
      if (d != null && (first == null || d.step() < first.step())) {
        first = d;
      }
    }
    return first;
  }

  private static Divergence compareDomain(List<Integer> ranks, Path dir) throws IOException {
    List<BufferedReader> in = new ArrayList<>();
    try {
      for (int r : ranks) {
        in.add(Files.newBufferedReader(of(dir, r), StandardCharsets.US_ASCII));
      }
      while (true) {
        String refLine = in.get(0).readLine();
        if (refLine == null) {
          return null;
        }
        long[] ref = parse(refLine);
        for (int m = 1; m < ranks.size(); m++) {
          String line = in.get(m).readLine();
          if (line == null) {
            return null; // a rank that stopped early: its exit says why; nothing left to compare
          }
          long[] other = parse(line);
          List<Invariant> bad = ref[0] != other[0] ? List.of(Invariant.CollectiveMatching)
              : DomainChecker.violated(ref, other, 1);
          if (!bad.isEmpty()) {
            return new Divergence(ref[0], RankRecorder.label(ref[1]), bad, ranks.get(0), ranks.get(m),
                entry(ref), entry(other));
          }
        }
      }
    } finally {
      for (BufferedReader r : in) {
        r.close();
      }
    }
  }

  /** Returns {step, code, tree, acks, prefetch, alloc} of one log line. */
  static long[] parse(String line) {
    String[] f = line.split(" ");
    if (f.length != 6) {
      throw new IllegalArgumentException("not a digest log line: " + line);
    }
    long code = switch (f[1]) {
      case "END" -> RankRecorder.END;
      case "FULL" -> RankRecorder.FULL;
      default -> SyncPoint.valueOf(f[1]).ordinal();
    };
    return new long[] {Long.parseLong(f[0]), code, Long.parseUnsignedLong(f[2], 16),
        Long.parseUnsignedLong(f[3], 16), Long.parseUnsignedLong(f[4], 16), Long.parseUnsignedLong(f[5], 16)};
  }

  private static String entry(long[] e) {
    return String.format("step %d %s: tree=%016x acks=%016x prefetch=%016x alloc=%016x", e[0],
        RankRecorder.label(e[1]), e[2], e[3], e[4], e[5]);
  }
}
