package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main class of a plain TLC JVM: the RMI server sockets it makes listen on the loopback address only, and its
 * shutdown hook closes them (what ends RMI's accept call before HotSpot's exit wait); its jar holds it alone and
 * is written once per class. That a TLC JVM started through it reports TLC's verdicts and exit codes is every
 * runner test's (e.g. {@link TlcRunnerTest}, the catalogue's verdicts).
 */
class TlcMainTest {

  @TempDir Path dir;

  @Test
  void theShutdownHookClosesTheLoopbackServerSockets() throws Exception {
    TlcMain sockets = new TlcMain();
    ServerSocket a = sockets.createServerSocket(0);
    ServerSocket b = sockets.createServerSocket(0);
    assertEquals(InetAddress.getLoopbackAddress(), a.getInetAddress(), "bound to the loopback address");
    assertFalse(a.isClosed() || b.isClosed());
    sockets.run();
    assertTrue(a.isClosed() && b.isClosed(), "every server socket closed");
  }

  @Test
  void itsJarHoldsTheMainClassAloneAndIsWrittenOnce() throws Exception {
    Path jar = TlcMain.jarIn(dir);
    try (JarFile f = new JarFile(jar.toFile())) {
      assertEquals(1, f.stream().filter(e -> !e.isDirectory() && !e.getName().startsWith("META-INF/")).count());
      assertTrue(f.getJarEntry("dev/hicachesync/modelcheck/TlcMain.class") != null);
    }
    long written = Files.getLastModifiedTime(jar).toMillis();
    assertEquals(jar, TlcMain.jarIn(dir), "the same class, the same jar");
    assertEquals(written, Files.getLastModifiedTime(jar).toMillis(), "not written again");
  }
}
