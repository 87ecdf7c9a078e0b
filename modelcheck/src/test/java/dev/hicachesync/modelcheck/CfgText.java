package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Cfg text for tests, read by {@link CfgFile#read} (TLC's parser reads files). */
public final class CfgText {

  private CfgText() {}

  /** {@code text} as TLC reads it. */
  public static CfgFile parse(String text) throws BadInputException {
    try {
      Path dir = Files.createDirectories(TestSpecs.root().resolve("modelcheck/target/cfg-text"));
      Path file = Files.createTempFile(dir, "cfg-", ".cfg");
      Files.writeString(file, text);
      return CfgFile.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
