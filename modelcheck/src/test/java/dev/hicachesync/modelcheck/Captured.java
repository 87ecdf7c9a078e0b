package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** TLC outputs captured once from real runs of the specs in {@code src/test/resources/tla}. */
public final class Captured {

  private Captured() {}

  /** The lines TLC printed for {@code name} ({@code tlc-output/<name>.out}). */
  public static List<String> output(String name) {
    try (InputStream in = Captured.class.getResourceAsStream("/tlc-output/" + name + ".out")) {
      if (in == null) {
        throw new IllegalArgumentException("no captured output " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
