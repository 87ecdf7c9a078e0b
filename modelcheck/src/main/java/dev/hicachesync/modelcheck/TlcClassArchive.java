package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An AppCDS archive of TLC's classes, so that each TLC JVM after the first maps them instead of loading and
 * verifying them from the jar (about 0.2 CPU-seconds less for each TLC JVM, a sixth of a tiny model's run;
 * docs/reference/measurements.md).
 *
 * <p>The first TLC run that finds no archive writes one when it exits ({@code -XX:ArchiveClassesAtExit}, into
 * a file of its own that is moved into place only if the run ended normally, so that runs side by side never
 * share a half-written archive); later runs use it ({@code -XX:SharedArchiveFile}). The file's name holds a
 * digest of the JVM and of the class path's jars (path, size, time): another JVM or jar gets an archive of its
 * own (an archive maps only on the class path it was written with), and a JVM that cannot map it runs without it. The JVM's {@code [cds]} log lines are turned off: TLC's output must
 * hold TLC's messages only.
 */
final class TlcClassArchive {

  private static final AtomicInteger SERIAL = new AtomicInteger();
  /** Turns off the JVM's CDS log lines (warnings about skipped classes at dump time, mapping failures). */
  private static final String QUIET = "-Xlog:cds*=off";

  private final Path archive;
  private final Path pending;

  private TlcClassArchive(Path archive, Path pending) {
    this.archive = archive;
    this.pending = pending;
  }

  /**
   * The archive for the class path {@code jars} in {@code dir}, or null when the caller's JVM options already
   * choose how classes are shared ({@code -Xshare}, an archive of their own).
   */
  static TlcClassArchive in(Path dir, List<Path> jars, List<String> jvmOptions) {
    if (jvmOptions.stream().anyMatch(o -> o.startsWith("-Xshare") || o.contains("SharedArchiveFile")
        || o.contains("ArchiveClassesAtExit"))) {
      return null;
    }
    Path archive = dir.resolve("tlc-classes-" + key(jars) + ".jsa");
    Path pending = dir.resolve(archive.getFileName() + "." + ProcessHandle.current().pid() + "-"
        + SERIAL.incrementAndGet() + ".tmp");
    return new TlcClassArchive(archive, pending);
  }

  /** The JVM options of the next run: use the archive, or write it at exit. */
  List<String> jvmOptions() throws IOException {
    Files.createDirectories(archive.getParent());
    if (Files.isRegularFile(archive)) {
      return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
    }
    return List.of("-XX:ArchiveClassesAtExit=" + pending, QUIET);
  }

  /** After the run: moves an archive it wrote into place (the first one wins), or drops it. */
  void finish(boolean normalExit) {
    try {
      if (normalExit && Files.isRegularFile(pending) && !Files.exists(archive)) {
        try {
          Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
          // Another run put its archive in place first, or the file system cannot move atomically.
        }
      }
      Files.deleteIfExists(pending);
    } catch (IOException e) {
      // An archive is an optimisation: a run without one is only slower to start.
    }
  }

  private static String key(List<Path> jars) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      StringBuilder id = new StringBuilder(System.getProperty("java.home") + "|" + System.getProperty("java.vm.version"));
      for (Path jar : jars) {
        id.append('|').append(jar.toAbsolutePath()).append('|').append(Files.size(jar)).append('|')
            .append(Files.getLastModifiedTime(jar).toMillis());
      }
      return HexFormat.of().formatHex(sha.digest(id.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
    } catch (NoSuchAlgorithmException | IOException e) {
      return "unversioned";
    }
  }
}
