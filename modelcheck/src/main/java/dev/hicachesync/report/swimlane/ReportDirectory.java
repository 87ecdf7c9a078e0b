package dev.hicachesync.report.swimlane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the pages go: one file per model or trace, {@code <dir>/<name>.html}, created as needed. */
public record ReportDirectory(Path dir) {

  /**
   * Checks, before any work, that pages can be written into {@code dir}: a folder that exists or can be
   * created, in which a file can be created. A run of minutes must not end with "cannot write the page".
   *
   * @param flag the option that named the folder, for the message ("--report")
   * @throws IllegalArgumentException one line: the flag, the path and why no page can be written there
   */
  public static ReportDirectory checked(String flag, Path dir) {
    if (dir == null || dir.toString().isBlank()) {
      throw new IllegalArgumentException(flag + " needs a folder (got an empty path)");
    }
    String where = flag + " " + dir + ": ";
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException(where + (Files.isRegularFile(dir) ? "is a file, not a folder"
          : "is not a folder (a device or another special file)"));
    }
    try {
      Files.createDirectories(dir);
      Path probe = Files.createTempFile(dir, ".hicache-sync-", ".html");
      Files.delete(probe);
    } catch (IOException | SecurityException e) {
      throw new IllegalArgumentException(where + "no page can be written there (" + reason(e) + ")");
    }
    return new ReportDirectory(dir);
  }

  /** Writes {@code html} as {@code <name>.html} (name reduced to letters, digits, '-', '_', '.'); returns the file. */
  public Path write(String name, String html) throws IOException {
    Files.createDirectories(dir);
    String safe = name.replaceAll("[^A-Za-z0-9_.-]", "_");
    Path file = dir.resolve((safe.isEmpty() ? "report" : safe) + ".html");
    Files.writeString(file, html, StandardCharsets.UTF_8);
    return file.toAbsolutePath().normalize();
  }

  private static String reason(Exception e) {
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason();
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
