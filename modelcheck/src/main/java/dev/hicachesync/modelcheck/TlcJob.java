package dev.hicachesync.modelcheck;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What to check: a module and cfg, the directories whose {@code .tla} files it needs, and how to
 * run TLC.
 *
 * @param name the model's name; its run directory is {@code workRoot/name}
 * @param module the module TLC runs
 * @param cfg the cfg file (copied into the run directory)
 * @param sourceDirs directories whose {@code *.tla} are copied, later ones overriding earlier
 * @param workRoot parent of the run directory ({@code modelcheck/target/tlc})
 * @param workers TLC workers; forced to 1 when the cfg has temporal properties
 * @param timeLimit kill TLC after this long (verdict {@code timeout}), or null for no limit
 * @param jvmOptions extra options for TLC's JVM (e.g. {@code -Xmx2g})
 * @param search how TLC searches (exhaustive unless asked otherwise)
 */
public record TlcJob(
    String name,
    String module,
    Path cfg,
    List<Path> sourceDirs,
    Path workRoot,
    int workers,
    Duration timeLimit,
    List<String> jvmOptions,
    TlcSearch search) {

  public TlcJob {
    sourceDirs = List.copyOf(sourceDirs);
    jvmOptions = List.copyOf(jvmOptions);
    search = search == null ? TlcSearch.EXHAUSTIVE : search;
  }

  /** An exhaustive search. */
  public TlcJob(String name, String module, Path cfg, List<Path> sourceDirs, Path workRoot, int workers,
      Duration timeLimit, List<String> jvmOptions) {
    this(name, module, cfg, sourceDirs, workRoot, workers, timeLimit, jvmOptions, TlcSearch.EXHAUSTIVE);
  }

  /** This job searched as {@code other}. */
  public TlcJob with(TlcSearch other) {
    return new TlcJob(name, module, cfg, sourceDirs, workRoot, workers, timeLimit, jvmOptions, other);
  }

  /** The directory TLC runs in. */
  public Path runDir() {
    return workRoot.resolve(name);
  }
}
