package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.CfgFile;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.TlcOutput;
import dev.hicachesync.modelcheck.TlcOutputParser;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The counterexample a run of a model already printed: TLC's log in the model's run folder ({@code
 * modelcheck/target/tlc/NAME/tlc.log}, written by {@code check}, by the catalogue's verdict test and by a
 * replay's own TLC run), reused when it is newer than every file the run read (the spec's modules, the models'
 * modules, the cfg, the catalogue), states a counterexample and ran with the runner's fixed fingerprint
 * polynomial and seed. A replay then needs no TLC run of its own: TLC is deterministic with one worker and a
 * fixed polynomial and seed, and a model expected to fail always runs with one. (With a random polynomial a
 * liveness model's lasso differs from run to run.)
 *
 * <p>The cache is filled on demand: a replay whose log is missing or stale runs TLC, which writes the log. So
 * no test depends on another having run first; when the catalogue's verdict test happens to run before the
 * replay tests, they reuse its logs instead of running TLC again.
 */
final class CachedCounterexample {

  private CachedCounterexample() {}

  /** The cached result of {@code model}, or empty when there is none or it is older than a source. */
  static Optional<TlcResult> read(Workspace workspace, ModelEntry model) throws IOException, BadInputException {
    Path log = workspace.work().resolve(model.name()).resolve("tlc.log");
    if (!Files.isRegularFile(log)) {
      return Optional.empty();
    }
    FileTime written = Files.getLastModifiedTime(log);
    Path cfg = workspace.models().resolve(model.cfg());
    Path catalogue = workspace.catalogue();
    if (newer(cfg, written) || Files.isRegularFile(catalogue) && newer(catalogue, written)
        || newerTla(workspace.spec(), written) || newerTla(workspace.models(), written)) {
      return Optional.empty();
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    String pinned = "with fp " + TlcRunner.FINGERPRINT_POLYNOMIAL + " and seed " + TlcRunner.EXHAUSTIVE_SEED + " ";
    if (lines.stream().noneMatch(line -> line.contains(pinned))) {
      return Optional.empty();
    }
    TlcResult r = TlcOutputParser.reread(TlcOutput.of(lines), CfgFile.read(cfg).properties(), log);
    return r.verdict().isViolation() && r.trace().isPresent() ? Optional.of(r) : Optional.empty();
  }

  private static boolean newer(Path file, FileTime than) throws IOException {
    return Files.getLastModifiedTime(file).compareTo(than) > 0;
  }

  private static boolean newerTla(Path dir, FileTime than) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".tla"))::iterator) {
        if (newer(f, than)) {
          return true;
        }
      }
    }
    return false;
  }
}
