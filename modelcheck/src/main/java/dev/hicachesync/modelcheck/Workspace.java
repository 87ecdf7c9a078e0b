package dev.hicachesync.modelcheck;

import java.nio.file.Path;

/**
 * Where things are: the repository root, the models directory (catalogue, cfgs, {@code MC*.tla},
 * the ad-hoc template), the specification and the directory TLC runs in.
 *
 * @param models {@code modelcheck/models}
 * @param spec {@code spec}
 * @param work {@code modelcheck/target/tlc}
 */
public record Workspace(Path models, Path spec, Path work) {

  /** System property holding the repository root (set by the launcher and by surefire). */
  public static final String ROOT_PROPERTY = "hicache.root";
  /** The ad-hoc cfg template of {@link AdhocModule#SYNC}, in the models directory. */
  public static final String ADHOC_TEMPLATE = "adhoc.cfg.template";

  /** The standard layout under the root named by {@value #ROOT_PROPERTY} (else the working directory). */
  public static Workspace fromRoot() {
    Path root = Path.of(System.getProperty(ROOT_PROPERTY, ".")).toAbsolutePath().normalize();
    return new Workspace(root.resolve("modelcheck/models"), root.resolve("spec"), root.resolve("modelcheck/target/tlc"));
  }

  /** This workspace with other models and spec directories (null keeps the current one). */
  public Workspace with(Path otherModels, Path otherSpec) {
    return new Workspace(otherModels == null ? models : otherModels.toAbsolutePath(),
        otherSpec == null ? spec : otherSpec.toAbsolutePath(), work);
  }

  /** The catalogue file. */
  public Path catalogue() {
    return models.resolve(Catalogue.FILE_NAME);
  }

  /** The ad-hoc cfg template of {@code module}. */
  public Path adhocTemplate(AdhocModule module) {
    return models.resolve(module.template());
  }
}
