package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Runs every {@code ci}-tier model of {@code modelcheck/models/catalogue.json} through TLC and
 * asserts that the observed verdict is the expected one: a spec change that makes a legacy bug
 * disappear, or a fixed version fail, breaks the build.
 *
 * <p>The models run side by side, one TLC JVM per core, each with one worker (the liveness models, the
 * longest, need one worker anyway), longest recorded first so that no long model starts last and runs
 * alone: on CI's two cores this halves the wall time of running them one by one. As in {@code check}, a
 * model goes to a resident TLC JVM ({@link TlcJvmPool}) that checked an earlier one with the same JVM
 * options, which gives the run of a JVM of its own ({@link ResidentTlcTest}). Every model runs and
 * every mismatch is reported, not only the first. The file must list at least one ci model, so the test
 * cannot pass vacuously.
 */
class CatalogueVerdictsTest {

  @Test
  void ciTierModelsMatchTheirExpectedVerdicts() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path file = workspace.catalogue();
    assertTrue(Files.isRegularFile(file), "no model catalogue at " + file);
    List<ModelEntry> models = new ArrayList<>(Catalogue.load(file).tier(Tier.CI));
    assertFalse(models.isEmpty(), "the catalogue has no ci-tier model");
    models.sort(Comparator.comparingDouble((ModelEntry m) -> m.recorded() == null ? 0 : -m.recorded().seconds()));
    int jobs = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));
    Path jar = TlcJar.locate();
    ExecutorService pool = Executors.newFixedThreadPool(jobs);
    TlcJvmPool jvms = new TlcJvmPool(jobs);
    List<String> mismatches = new ArrayList<>();
    try {
      List<Future<String>> runs = new ArrayList<>();
      for (ModelEntry m : models) {
        runs.add(pool.submit(() -> {
          // A checker per model, each run in its own folder.
          TlcResult r = new ModelChecker(workspace, new TlcRunner(jar, ProgressListener.NONE, jvms), 1, null, List.of())
              .check(m);
          System.out.printf("%s: %s, %,d distinct states, %.1f s%n", m.name(), r.verdict(), r.distinct(), r.seconds());
          String unexplained = unexplainedActions(workspace, m, r);
          if (unexplained != null) {
            return unexplained;
          }
          return r.verdict().matches(m.expectedVerdict()) ? null
              : m.name() + ": expected " + m.expected() + ", observed " + r.verdict()
                  + (r.message().isEmpty() ? "" : " (" + r.message() + ")") + "; TLC output in " + r.log();
        }));
      }
      for (Future<String> f : runs) {
        String mismatch = f.get();
        if (mismatch != null) {
          mismatches.add(mismatch);
        }
      }
    } finally {
      pool.shutdownNow();
      jvms.close();
    }
    assertTrue(mismatches.isEmpty(), mismatches.size() + " model(s) off their expected verdict, or with an action"
        + " the swimlane page cannot explain:\n" + String.join("\n", mismatches));
  }

  /**
   * The actions of {@code r}'s counterexample that the page would show without the SGLang code they model
   * (no {@code \* sglang:} comment above their definition), or null when every one has it.
   */
  private static String unexplainedActions(Workspace workspace, ModelEntry m, TlcResult r) {
    if (r.trace().isEmpty()) {
      return null;
    }
    var spec = new dev.hicachesync.report.swimlane.SpecSource(List.of(workspace.models(), workspace.spec()));
    var story = dev.hicachesync.report.swimlane.Story.of(null, null, null, m.module(), "", r.trace().get(), spec);
    List<String> bare = story.actions().values().stream().filter(a -> a.pointers().isEmpty())
        .map(a -> a.name() + " (" + a.location() + ")").toList();
    return bare.isEmpty() ? null : m.name() + ": actions without an `\\* sglang:` pointer: " + String.join(", ", bare);
  }
}
