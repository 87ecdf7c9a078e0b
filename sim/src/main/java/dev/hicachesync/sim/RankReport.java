package dev.hicachesync.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * One rank process's part of a simulation report ({@code rank --report FILE}): its counters, its final tree
 * digest, how it ended. The file is a {@link Properties} file, one {@code key=value} per line (values escaped
 * as Properties escapes them), so any language reads it; {@link ProcessReports} adds the parts of a world up
 * into the report of the in-JVM run.
 */
public final class RankReport {
  private final Properties p;

  RankReport(Properties p) {
    this.p = p;
  }

  /** Reads a report written by {@link #write}. */
  public static RankReport read(Path file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    }
    if (p.getProperty("rank") == null) {
      throw new IOException(file + " is not a rank report (no rank)");
    }
    return new RankReport(p);
  }

  /** Writes this report to {@code file} (a temporary file renamed into place: a reader never sees half). */
  public void write(Path file) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(tmp)) {
        p.store(out, "hicache-sync rank report");
      }
      Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the rank report " + file + ": " + e.getMessage(), e);
    }
  }

  /** Returns the rank. */
  public int rank() {
    return (int) num("rank");
  }

  /** Returns the crash (a failure that is no invariant), or null. */
  public String crash() {
    return p.getProperty("crash");
  }

  /** Returns the ranks this process saw leave the world, ascending (empty when none). */
  public List<Integer> lostPeers() {
    List<Integer> out = new ArrayList<>();
    String s = p.getProperty("lost_peers", "");
    for (String r : s.split(",")) {
      if (!r.isBlank()) {
        out.add(Integer.parseInt(r.trim()));
      }
    }
    return out;
  }

  /** Returns the divergence or failed collective this rank stopped on, or null. */
  public Divergence divergence() {
    if (p.getProperty("divergence.step") == null) {
      return null;
    }
    List<dev.hicachesync.sync.Invariant> inv = new ArrayList<>();
    for (String i : p.getProperty("divergence.invariants").split(",")) {
      inv.add(dev.hicachesync.sync.Invariant.valueOf(i));
    }
    return new Divergence(num("divergence.step"), p.getProperty("divergence.point"), List.copyOf(inv),
        (int) num("divergence.rank_a"), (int) num("divergence.rank_b"), p.getProperty("divergence.view_a"),
        p.getProperty("divergence.view_b"));
  }

  /** Returns the first line of the divergence's message, prefixed by its rank: the named error. */
  public String error() {
    Divergence d = divergence();
    if (crash() != null) {
      return "rank " + rank() + ": " + crash().lines().findFirst().orElse("");
    }
    if (d == null) {
      return null;
    }
    String v = d.viewA().lines().findFirst().orElse("");
    return v.startsWith("rank " + rank() + ":") ? v : "rank " + rank() + ": " + v;
  }

  long num(String key) {
    String v = p.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException("rank report has no " + key);
    }
    return Long.parseLong(v);
  }

  String text(String key) {
    return p.getProperty(key);
  }

  List<String> lines(String key) {
    String v = p.getProperty(key, "");
    return v.isEmpty() ? List.of() : List.of(v.split("\n"));
  }

  /** Builder side: the report of a hosted rank. */
  static RankReport of(int rank) {
    Properties p = new Properties();
    p.setProperty("rank", String.valueOf(rank));
    return new RankReport(p);
  }

  RankReport put(String key, long v) {
    p.setProperty(key, String.valueOf(v));
    return this;
  }

  RankReport put(String key, String v) {
    if (v != null) {
      p.setProperty(key, v);
    }
    return this;
  }

  void putDivergence(Divergence d) {
    if (d == null) {
      return;
    }
    put("divergence.step", d.step());
    put("divergence.point", d.point());
    put("divergence.invariants", String.join(",", d.invariants().stream().map(Enum::name).toList()));
    put("divergence.rank_a", d.rankA());
    put("divergence.rank_b", d.rankB());
    put("divergence.view_a", d.viewA());
    put("divergence.view_b", d.viewB());
  }
}
