package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The AppCDS archive of TLC's classes through the real runner: the first TLC JVM writes it, later ones map
 * it, and neither the archive nor the JVM's CDS lines change what TLC reports.
 */
class TlcClassArchiveTest {

  private static List<Path> files(Path dir, String suffix) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
    }
  }

  private static TlcJob job(Path workRoot, String name, List<String> jvm) {
    Workspace ws = TestSpecs.workspace();
    return new TlcJob(name, "Grid", ws.models().resolve("Grid.cfg"), List.of(ws.spec()), workRoot, 1,
        Duration.ofMinutes(4), jvm);
  }

  @Test
  void theFirstRunWritesTheArchiveAndLaterRunsMapIt() throws Exception {
    Path parent = Files.createDirectories(TestSpecs.workspace().work());
    Path root = Files.createTempDirectory(parent, "cds-test");
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);

    TlcResult first = runner.run(job(root, "grid-first", List.of("-Xmx256m")));
    List<Path> archives = files(root, ".jsa");
    assertEquals(1, archives.size(), "one archive for this JVM and jar: " + archives);
    assertTrue(files(root, ".tmp").isEmpty(), "the pending file was moved into place");

    TlcResult second = runner.run(job(root, "grid-second", List.of("-Xmx256m")));
    assertEquals(archives, files(root, ".jsa"), "the second run used the archive, it wrote none of its own");
    assertEquals(Verdict.HOLDS, first.verdict());
    assertEquals(first.verdict(), second.verdict());
    assertEquals(first.distinct(), second.distinct());
    for (TlcResult r : List.of(first, second)) {
      assertFalse(Files.readString(r.log()).contains("[cds"), "no CDS log line in TLC's output: " + r.log());
    }

    // The archive is in use: a JVM told to map it and to require sharing starts (it fails if it cannot map it).
    List<Path> classPath = List.of(TlcJar.locate(), TlcMain.jarIn(root));
    TlcClassArchive archive = TlcClassArchive.in(root, classPath, List.of());
    assertEquals(List.of("-XX:SharedArchiveFile=" + archives.get(0), "-Xlog:cds*=off"), archive.jvmOptions());
    Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:SharedArchiveFile=" + archives.get(0), "-Xshare:on", "-cp",
        classPath.get(0) + File.pathSeparator + classPath.get(1), "-version")
        .redirectErrorStream(true).start();
    String out = new String(java.getInputStream().readAllBytes());
    assertEquals(0, java.waitFor(), out);
    assertFalse(out.contains("shared archive"), out);
  }

  @Test
  void optionsThatChooseTheirOwnSharingAreLeftAlone() throws Exception {
    Path dir = TestSpecs.workspace().work();
    assertNull(TlcClassArchive.in(dir, List.of(TlcJar.locate()), List.of("-Xshare:off")));
    assertNull(TlcClassArchive.in(dir, List.of(TlcJar.locate()), List.of("-XX:SharedArchiveFile=/x.jsa")));
  }
}
