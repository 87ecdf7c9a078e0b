package dev.hicachesync.sim;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One rank's digest at every lockstep point, one line per point, in the order the rank passed them:
 * {@code step point tree acks prefetch alloc} (the digests in 16 hex digits; {@code point} is a sync point
 * name, {@code END} for the end of a step, {@code FULL} for a canonical tree digest). Two runs of one seed
 * agree iff their logs are equal; the ranks of one sync domain agree iff theirs are ({@link DigestLogs}).
 *
 * <p>Written by the rank's thread only.
 */
final class DigestLog implements AutoCloseable {
  private final Path file;
  private final BufferedWriter out;

  private DigestLog(Path file, BufferedWriter out) {
    this.file = file;
    this.out = out;
  }

  /** Returns the log file's name for {@code rank} inside a digest-log folder. */
  static String fileName(int rank) {
    return "rank-" + rank + ".digests";
  }

  /** Creates (truncates) the log at {@code file}. */
  static DigestLog create(Path file) {
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      return new DigestLog(file, Files.newBufferedWriter(file, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the digest log " + file + ": " + e.getMessage(), e);
    }
  }

  /** Appends one lockstep point. */
  void write(long step, long code, long tree, long acks, long prefetch, long alloc) {
    try {
      out.write(step + " " + label(code) + " " + hex(tree) + " " + hex(acks) + " " + hex(prefetch) + " "
          + hex(alloc) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the digest log " + file + ": " + e.getMessage(), e);
    }
  }

  /** Returns the short name of an entry code ({@link RankRecorder}'s codes). */
  static String label(long code) {
    if (code == RankRecorder.END) {
      return "END";
    }
    if (code == RankRecorder.FULL) {
      return "FULL";
    }
    return dev.hicachesync.sync.SyncPoint.values()[(int) code].name();
  }

  private static String hex(long v) {
    String h = Long.toHexString(v);
    return "0".repeat(16 - h.length()) + h;
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the digest log " + file + ": " + e.getMessage(), e);
    }
  }
}
