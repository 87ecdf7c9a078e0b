package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Runs every {@code ci}-tier model of {@code modelcheck/models/catalogue.json} through TLC and
 * asserts that the observed verdict is the expected one: a spec change that makes a legacy bug
 * disappear, or a fixed version fail, breaks the build.
 *
 * <p>The catalogue and the MC modules come from the specification branch; until it is merged the
 * file does not exist and this test is reported as skipped (assumeTrue). Once the file exists it
 * must list at least one ci model, so the test cannot pass vacuously.
 */
class CatalogueVerdictsTest {

  @Test
  void ciTierModelsMatchTheirExpectedVerdicts() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path file = workspace.catalogue();
    assumeTrue(Files.isRegularFile(file), "no model catalogue yet at " + file + " (arrives with the spec branch)");
    List<ModelEntry> models = Catalogue.load(file).tier(Tier.CI);
    assertFalse(models.isEmpty(), "the catalogue has no ci-tier model");
    int workers = Math.min(2, Runtime.getRuntime().availableProcessors());
    ModelChecker checker = new ModelChecker(workspace, new TlcRunner(TlcJar.locate(), ProgressListener.NONE),
        workers, null, List.of());
    // Every model runs, and every mismatch is reported, not only the first.
    assertAll(models.stream().map(m -> (Executable) () -> {
      TlcResult r = checker.check(m);
      System.out.printf("%s: %s, %,d distinct states, %.1f s%n", m.name(), r.verdict(), r.distinct(), r.seconds());
      assertTrue(r.verdict().matches(m.expectedVerdict()),
          m.name() + ": expected " + m.expected() + ", observed " + r.verdict()
              + (r.message().isEmpty() ? "" : " (" + r.message() + ")") + "; TLC output in " + r.log());
    }));
  }
}
