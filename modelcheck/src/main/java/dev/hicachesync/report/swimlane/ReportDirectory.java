package dev.hicachesync.report.swimlane;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the pages go: one file per model or trace, {@code <dir>/<name>.html}, created as needed. */
public record ReportDirectory(Path dir) {

  /** Writes {@code html} as {@code <name>.html} (name reduced to letters, digits, '-', '_', '.'); returns the file. */
  public Path write(String name, String html) throws IOException {
    Files.createDirectories(dir);
    String safe = name.replaceAll("[^A-Za-z0-9_.-]", "_");
    Path file = dir.resolve((safe.isEmpty() ? "report" : safe) + ".html");
    Files.writeString(file, html, StandardCharsets.UTF_8);
    return file.toAbsolutePath().normalize();
  }
}
