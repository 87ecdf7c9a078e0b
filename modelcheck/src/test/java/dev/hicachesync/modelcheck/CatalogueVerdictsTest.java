package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code ci}-tier model of {@code modelcheck/models/catalogue.json} through TLC and
 * asserts that the observed verdict is the expected one: a spec change that makes a legacy bug
 * disappear, or a fixed version fail, breaks the build.
 *
 * <p>The catalogue and the MC modules come from the specification branch; until it is merged the
 * file does not exist and this test is skipped (assumeTrue), never passed vacuously once it does.
 */
class CatalogueVerdictsTest {

  @TestFactory
  Stream<DynamicTest> ciTierModelsMatchTheirExpectedVerdicts() throws Exception {
    Workspace workspace = Workspace.fromRoot();
    Path file = workspace.catalogue();
    assumeTrue(Files.isRegularFile(file), "no model catalogue yet at " + file + " (arrives with the spec branch)");
    List<ModelEntry> models = Catalogue.load(file).tier(Tier.CI);
    assertTrue(!models.isEmpty(), "the catalogue has no ci-tier model");
    int workers = Math.min(2, Runtime.getRuntime().availableProcessors());
    ModelChecker checker = new ModelChecker(workspace, new TlcRunner(TlcJar.locate(), ProgressListener.NONE),
        workers, null, List.of());
    return models.stream().map(m -> DynamicTest.dynamicTest(m.name(), () -> {
      TlcResult r = checker.check(m);
      assertTrue(r.verdict().matches(m.expectedVerdict()),
          m.name() + ": expected " + m.expected() + ", observed " + r.verdict()
              + (r.message().isEmpty() ? "" : " (" + r.message() + ")") + "; TLC output in " + r.log());
    }));
  }
}
