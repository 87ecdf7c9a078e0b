package dev.hicachesync.bench;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.ModelEntry;
import dev.hicachesync.modelcheck.ProgressListener;
import dev.hicachesync.modelcheck.TlcJar;
import dev.hicachesync.modelcheck.TlcJob;
import dev.hicachesync.modelcheck.TlcResult;
import dev.hicachesync.modelcheck.TlcRunner;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.Workspace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;

/**
 * TLC's cost per distinct state on a catalogue model against a small reference spec
 * ({@code bench/BenchReference.tla}: three counters, 125,000 states) run by the same TLC jar, one worker
 * each. Wall time of the TLC process, JVM start included, as {@code check} reports it.
 */
final class TlcBench {
  static final String REFERENCE = "BenchReference";
  static final Duration LIMIT = Duration.ofMinutes(10);

  private TlcBench() {}

  static BenchRow run(Workspace ws, String modelName) throws Exception {
    ModelEntry model = Catalogue.load(ws.catalogue()).named(List.of(modelName)).get(0);
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    List<String> jvm = List.of("-Xmx2g");
    Path refDir = Files.createDirectories(ws.work().resolve("bench-reference-src"));
    copyResource(REFERENCE + ".tla", refDir);
    Path refCfg = copyResource(REFERENCE + ".cfg", refDir);
    TlcResult ref = runner.run(new TlcJob("bench-reference", REFERENCE, refCfg, List.of(refDir), ws.work(), 1,
        LIMIT, jvm));
    TlcResult cat = runner.run(new TlcJob("bench-" + model.name(), model.module(), ws.models().resolve(model.cfg()),
        List.of(ws.spec(), ws.models()), ws.work(), 1, LIMIT, jvm));
    check(ref, REFERENCE);
    check(cat, model.name());
    return new BenchRow("TLC " + model.name() + " (" + cat.distinct() + " states, " + fmt(cat.seconds()) + " s)",
        cat.seconds() * 1e9 / cat.distinct(),
        "TLC reference spec (" + ref.distinct() + " states, " + fmt(ref.seconds()) + " s)",
        ref.seconds() * 1e9 / ref.distinct(), "distinct state", "");
  }

  private static void check(TlcResult r, String what) throws BadInputException {
    if (!Verdict.HOLDS.equals(r.verdict()) || r.distinct() <= 0) {
      throw new BadInputException("TLC on " + what + " did not finish cleanly (" + r.verdict() + "): "
          + r.message() + "; log " + r.log());
    }
  }

  private static Path copyResource(String name, Path dir) throws IOException {
    Path target = dir.resolve(name);
    try (InputStream in = TlcBench.class.getResourceAsStream("/bench/" + name)) {
      if (in == null) {
        throw new IOException("missing resource /bench/" + name);
      }
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return target;
  }

  private static String fmt(double seconds) {
    return String.format(java.util.Locale.ROOT, "%.1f", seconds);
  }
}
