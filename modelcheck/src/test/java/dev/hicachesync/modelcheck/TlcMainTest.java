package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import util.UniqueString;

/**
 * The main class of a plain TLC JVM: the RMI server sockets it makes listen on the loopback address only, and its
 * shutdown hook closes them (what ends RMI's accept call before HotSpot's exit wait); its jar holds it alone and
 * is written once per class. That a TLC JVM started through it reports TLC's verdicts and exit codes is every
 * runner test's (e.g. {@link TlcRunnerTest}, the catalogue's verdicts), and that a resident one gives the same
 * results run after run is {@link ResidentTlcTest}'s.
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

  /**
   * A TLC class with names in static fields that {@link TlcMain#STATIC_NAME_HOLDERS} misses would intern them in the
   * middle of a run, and a resident JVM would then forget names that class still holds (ResidentTlcTest).
   */
  @Test
  void everyTlcClassWithNamesInStaticFieldsIsLoadedFirst() throws Exception {
    Set<String> holders = new TreeSet<>();
    try (JarFile jar = new JarFile(TlcJar.locate().toFile())) {
      for (JarEntry e : Collections.list(jar.entries())) {
        String name = e.getName();
        if (!name.endsWith(".class") || name.contains("-")) {
          continue;
        }
        Class<?> c;
        Field[] fields;
        try {
          c = Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, getClass().getClassLoader());
          fields = c.getDeclaredFields();
        } catch (LinkageError | ClassNotFoundException optionalDependencyMissing) {
          continue;
        }
        for (Field f : fields) {
          Class<?> type = f.getType();
          while (type.isArray()) {
            type = type.getComponentType();
          }
          if (Modifier.isStatic(f.getModifiers()) && type == UniqueString.class) {
            holders.add(c.getName());
          }
        }
      }
    }
    assertTrue(holders.size() >= 5, "the scan found TLC's name holders: " + holders);
    assertEquals(holders, new TreeSet<>(TlcMain.STATIC_NAME_HOLDERS));
  }

  /**
   * The reset a resident JVM makes before each run, on this JVM's TLC classes. ResidentTlcTest shows its effect on
   * runs for the error flag and the intern table; a buffer handed out twice shows only after dozens of runs of the
   * catalogue (a liveness check then reads a state back wrong), so the buffer pool's reset is checked here directly.
   */
  @Test
  void forgettingEarlierRunsPutsBackWhatANewJvmHas() throws Exception {
    int base = TlcMain.internStaticNames();
    UniqueString kept = UniqueString.internTbl.get(base);
    UniqueString later = UniqueString.uniqueStringOf("aNameOfAnEarlierRun" + System.nanoTime());
    later.setLoc(3);
    kept.setLoc(2);
    staticField(tlc2.tool.liveness.LiveWorker.class, "errFoundByThread").setInt(null, 0);
    staticField(tlc2.util.BufferedRandomAccessFile.class, "numAvailBuffs").setInt(null, 0);
    new tlc2.util.BufferedRandomAccessFile(dir.resolve("buffer").toFile(), "rw").close();
    assertEquals(1, staticField(tlc2.util.BufferedRandomAccessFile.class, "numAvailBuffs").getInt(null));
    int coverage = tlc2.TLCGlobals.coverageInterval;
    boolean continuing = tlc2.TLCGlobals.continuation;
    tlc2.TLCGlobals.coverageInterval = coverage + 7; // -coverage and -continue of an earlier run
    tlc2.TLCGlobals.continuation = !continuing;

    TlcMain.forgetEarlierRuns(base);

    assertEquals(coverage, tlc2.TLCGlobals.coverageInterval, "TLCGlobals as before any run");
    assertEquals(continuing, tlc2.TLCGlobals.continuation);

    assertEquals(-1, staticField(tlc2.tool.liveness.LiveWorker.class, "errFoundByThread").getInt(null));
    assertEquals(0, staticField(tlc2.util.BufferedRandomAccessFile.class, "numAvailBuffs").getInt(null));
    assertEquals(kept, UniqueString.internTbl.get(base), "the names before the base stay, the same objects");
    assertEquals(-1, kept.getDefnLoc(), "without the slot an earlier spec gave them");
    assertEquals(null, UniqueString.internTbl.find(later.toString()), "later names are forgotten");
    assertEquals(base + 1, UniqueString.uniqueStringOf(later.toString()).getTok(), "and numbered again from the base");
  }

  private static Field staticField(Class<?> owner, String name) throws NoSuchFieldException {
    Field f = owner.getDeclaredField(name);
    f.setAccessible(true);
    return f;
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
