package dev.hicachesync.modelcheck.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelChecker;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay reuses a TLC log only while it is newer than every file the run read: the cfg, the catalogue and
 * each {@code .tla} module. The log is a real one (the repository's run of {@code pre20460_cp2}, made here if
 * no earlier run left it: the cache fills on demand, whatever order the tests run in); the files it is compared
 * with are copies in a scratch workspace, so their times can be set.
 */
class CachedCounterexampleTest {

  private static final String MODEL = "pre20460_cp2";
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  static ModelEntry model;
  static TlcResult original;
  static Path realLog;

  @TempDir Path dir;

  @BeforeAll
  static void aRealCounterexample() throws Exception {
    Workspace real = Workspace.fromRoot();
    model = Catalogue.load(real.catalogue()).named(List.of(MODEL)).get(0);
    original = CachedCounterexample.read(real, model).orElse(null);
    if (original == null) {
      original = new ModelChecker(real, new TlcRunner(TlcJar.locate(), ProgressListener.NONE), 1, null, List.of())
          .check(model);
    }
    realLog = real.work().resolve(MODEL).resolve("tlc.log");
    assertTrue(original.trace().isPresent(), MODEL + " has a counterexample");
  }

  /** A workspace holding copies of the model's cfg, the catalogue and one module, all written at {@link #T}. */
  private Workspace scratch() throws Exception {
    Workspace real = Workspace.fromRoot();
    Workspace w = new Workspace(dir.resolve("models"), dir.resolve("spec"), dir.resolve("work"));
    Files.createDirectories(w.models());
    Files.createDirectories(w.spec());
    copyAt(real.models().resolve(model.cfg()), w.models().resolve(model.cfg()), T);
    copyAt(real.catalogue(), w.catalogue(), T);
    copyAt(real.spec().resolve("HiCacheSync.tla"), w.spec().resolve("HiCacheSync.tla"), T);
    copyAt(real.models().resolve(model.module() + ".tla"), w.models().resolve(model.module() + ".tla"), T);
    return w;
  }

  private static void copyAt(Path from, Path to, Instant at) throws Exception {
    Files.createDirectories(to.getParent());
    Files.copy(from, to);
    Files.setLastModifiedTime(to, FileTime.from(at));
  }

  private static Path log(Workspace w) {
    return w.work().resolve(MODEL).resolve("tlc.log");
  }

  @Test
  void noLogMeansNoCounterexample() throws Exception {
    assertTrue(CachedCounterexample.read(scratch(), model).isEmpty());
  }

  @Test
  void aLogNewerThanEverySourceIsReusedWithItsTrace() throws Exception {
    Workspace w = scratch();
    copyAt(realLog, log(w), T.plusSeconds(1));
    TlcResult r = CachedCounterexample.read(w, model).orElseThrow();
    assertEquals(original.verdict(), r.verdict());
    assertEquals(original.trace().get().states().size(), r.trace().get().states().size());
    assertEquals(original.trace().get().states().get(original.trace().get().states().size() - 1).toString(),
        r.trace().get().states().get(r.trace().get().states().size() - 1).toString());
  }

  @Test
  void aLogOlderThanTheCfgTheCatalogueOrAModuleIsNotReused() throws Exception {
    Workspace w = scratch();
    copyAt(realLog, log(w), T.plusSeconds(10));
    Path[] sources = {w.models().resolve(model.cfg()), w.catalogue(), w.spec().resolve("HiCacheSync.tla"),
        w.models().resolve(model.module() + ".tla")};
    for (Path source : sources) {
      Files.setLastModifiedTime(source, FileTime.from(T.plusSeconds(20)));
      assertTrue(CachedCounterexample.read(w, model).isEmpty(), source + " changed after the log");
      Files.setLastModifiedTime(source, FileTime.from(T));
      assertTrue(CachedCounterexample.read(w, model).isPresent(), "only " + source + " was newer");
    }
  }

  @Test
  void aLogWithoutACounterexampleIsNotReused() throws Exception {
    Workspace w = scratch();
    List<String> lines = Files.readAllLines(realLog);
    Files.createDirectories(log(w).getParent());
    Files.write(log(w), lines.subList(0, Math.min(10, lines.size())));
    Files.setLastModifiedTime(log(w), FileTime.from(T.plusSeconds(1)));
    assertTrue(CachedCounterexample.read(w, model).isEmpty(), "a log without a violation");
  }

  @Test
  void aLogOfARunWithAnotherFingerprintPolynomialIsNotReused() throws Exception {
    Workspace w = scratch();
    String pinned = "with fp " + TlcRunner.FINGERPRINT_POLYNOMIAL + " and seed " + TlcRunner.EXHAUSTIVE_SEED + " ";
    List<String> lines = Files.readAllLines(realLog);
    assertTrue(lines.stream().anyMatch(l -> l.contains(pinned)), "the runner pins the polynomial and the seed");
    Files.createDirectories(log(w).getParent());
    Files.write(log(w), lines.stream().map(l -> l.replace(pinned, "with fp 47 and seed -3885152839778280409 ")).toList());
    Files.setLastModifiedTime(log(w), FileTime.from(T.plusSeconds(1)));
    assertTrue(CachedCounterexample.read(w, model).isEmpty(), "a lasso TLC drew with a random polynomial");
  }
}
