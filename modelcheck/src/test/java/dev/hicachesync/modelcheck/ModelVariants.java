package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A catalogue model's constants, one of them replaced where a case asks, with a test's own checks and a module
 * of the test's resources: TLC's exit code for it, run in a folder of the test's own. Shared by the tests that
 * compare two forms of one definition on catalogue models ({@link FairnessFormsTest}, {@link AgreementFormsTest}).
 */
final class ModelVariants {
  private ModelVariants() {}

  /**
   * TLC's exit code for {@code module} (from {@code resources}, beside spec/ and the models) with {@code modelCfg}'s
   * constants, {@code constant} ("NAME = value", or "") replacing the model's, and {@code checks} in place of its
   * specification, invariants and properties (and of its CHECK_DEADLOCK where {@code checks} sets one).
   */
  static int exitCode(String folder, String resources, String module, String modelCfg, String constant,
      String checks, String label) throws Exception {
    Workspace ws = Workspace.fromRoot();
    Path work = ws.work().resolve(folder);
    Files.createDirectories(work);
    String name = modelCfg.replace(".cfg", "") + constant.replaceAll("[^A-Za-z0-9]", "") + "-" + label;
    CfgFile.Section[] sections = checks.contains("CHECK_DEADLOCK")
        ? new CfgFile.Section[] {CfgFile.Section.INVARIANTS, CfgFile.Section.PROPERTIES, CfgFile.Section.SPECIFICATION,
            CfgFile.Section.CHECK_DEADLOCK}
        : new CfgFile.Section[] {CfgFile.Section.INVARIANTS, CfgFile.Section.PROPERTIES, CfgFile.Section.SPECIFICATION};
    String constants = CfgFile.read(ws.models().resolve(modelCfg)).without(sections).render();
    if (!constant.isEmpty()) {
      String left = constant.substring(0, constant.indexOf('=')).trim();
      String replaced = constants.replaceFirst("\\b" + left + "\\s*=\\s*[^\\s]+", constant);
      assertEquals(false, replaced.equals(constants), "the model sets no " + left);
      constants = replaced;
    }
    Path cfg = work.resolve(name + ".cfg");
    Files.writeString(cfg, constants + "\n" + checks);
    Path forms = TestSpecs.root().resolve(resources);
    TlcJob job = new TlcJob(name, module, cfg, List.of(ws.spec(), ws.models(), forms), work, 1,
        Duration.ofMinutes(5), List.of("-Xmx1g", "-XX:TieredStopAtLevel=1"));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE, TlcBatch.RESIDENT).run(job).exitCode();
  }
}
