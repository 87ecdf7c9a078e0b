package dev.hicachesync.modelcheck;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs TLC on one model in a child JVM and parses what it printed.
 *
 * <p>TLC runs in its own JVM because it calls {@code System.exit} and keeps static state. The run
 * directory {@code target/tlc/<model>/} gets fresh copies of the modules and the cfg, TLC's
 * fingerprint files ({@code -metadir states}) and its temporary files (the standard modules it
 * unpacks), so runs never share files. The child is killed, with any children of its own, at the
 * time limit, when the calling thread is interrupted, and when this JVM shuts down. A distributed
 * search ({@link TlcSearch.Distributed}) runs TLC's server as that child and its local workers beside
 * it ({@link DistributedHelpers}: the local workers and fingerprint-set servers, each with its own log); the server is
 * stopped when a fingerprint-set server exits before it (it would wait for that share of the fingerprints for ever).
 * A runner given a {@link TlcJvmPool}
 * runs an exhaustive one-worker search in a resident TLC JVM ({@link ResidentTlc}) started with the JVM options the
 * child would have had, and reads that run's output the same way; the standard modules TLC unpacks then go to that
 * JVM's own temporary folder.
 */
public final class TlcRunner {

  /**
   * TLC's fingerprint polynomial, fixed. TLC draws one at random unless told, and the polynomial orders
   * the liveness checker's state graph: two runs of one model then print different lassos, and a replay
   * judging a lasso would judge a different one each run.
   */
  public static final int FINGERPRINT_POLYNOMIAL = 0;
  /** TLC's seed for a breadth-first run, fixed for the same reason (a simulation brings its own). */
  public static final long EXHAUSTIVE_SEED = 0;

  private final Path tlcJar;
  private final ProgressListener listener;
  private final TlcJvmPool pool;

  /** A runner forking {@code tlcJar} and reporting TLC's output to {@code listener}. */
  public TlcRunner(Path tlcJar, ProgressListener listener) {
    this(tlcJar, listener, null);
  }

  /** A runner that also reuses the resident TLC JVMs of {@code pool} (null: a JVM per run). */
  public TlcRunner(Path tlcJar, ProgressListener listener, TlcJvmPool pool) {
    this.tlcJar = tlcJar;
    this.listener = listener;
    this.pool = pool;
  }

  /**
   * Prepares the run directory, runs TLC to the end (or the time limit) and parses its output.
   *
   * @throws BadInputException if the module or cfg cannot be found
   * @throws IOException if the run directory cannot be prepared or TLC cannot be started
   * @throws InterruptedException if the calling thread is interrupted (TLC is then killed)
   */
  public TlcResult run(TlcJob job) throws BadInputException, IOException, InterruptedException {
    Path dir = prepare(job);
    CfgFile cfg = CfgFile.read(job.cfg());
    if (cfg.hasProperties() && cfg.reduction() != null) {
      // TLC only warns (SYMMETRY) or says nothing (VIEW); a liveness verdict on merged states
      // can be wrong either way.
      throw new BadInputException(job.cfg().getFileName() + ": " + cfg.reduction()
          + " with temporal properties is unsound; check the properties in a cfg without " + cfg.reduction());
    }
    if (job.search() instanceof TlcSearch.Distributed && cfg.hasProperties()) {
      // The distributed server never checks temporal properties and still reports "No error has been found".
      throw new BadInputException(job.cfg().getFileName() + " has temporal properties (" + String.join(", ", cfg.properties())
          + "), which TLC's distributed mode skips without a word; check them without --distributed");
    }
    // Liveness checking with several workers is unsound in this TLC (tlaplus #971). A simulation runs one
    // worker so that its seed replays it.
    int workers = cfg.hasProperties() || job.search() instanceof TlcSearch.Simulation ? 1 : Math.max(1, job.workers());
    if (pool != null && workers == 1 && job.search() instanceof TlcSearch.Exhaustive) {
      return runResident(job, dir, cfg);
    }
    DistributedHelpers helpers = DistributedHelpers.NONE;
    List<String> command;
    if (job.search() instanceof TlcSearch.Distributed distributed) {
      DistributedTlc tlc = DistributedTlc.forJob(tlcJar, job, distributed);
      command = tlc.serverCommand(dir);
      workers = distributed.localWorkers();
      // Started with the server: each waits for its registry, so the workers join as soon as the initial
      // states are computed.
      helpers = DistributedHelpers.start(tlc, dir, distributed);
    } else {
      command = command(job, dir, workers);
    }
    TlcClassArchive archive = job.search() instanceof TlcSearch.Distributed ? null : withClassArchive(command, job);
    Path log = dir.resolve("tlc.log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);

    long start = System.nanoTime();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      helpers.kill();
      throw e;
    }
    DistributedHelpers started = helpers;
    Thread killOnExit = new Thread(() -> {
      killTree(process);
      started.kill();
    }, "tlc-kill-on-exit");
    Runtime.getRuntime().addShutdownHook(killOnExit);
    TlcOutput output = new TlcOutput();
    listener.started(job.name(), workers);
    Thread reader = new Thread(() -> pump(process, output, log), "tlc-output-" + job.name());
    reader.setDaemon(true);
    reader.start();
    boolean timedOut = false;
    String lostFpSet = null;
    try {
      long deadline = job.timeLimit() == null ? Long.MAX_VALUE : start + job.timeLimit().toNanos();
      while (!process.waitFor(Math.max(1, Math.min(POLL_MILLIS, (deadline - System.nanoTime()) / 1_000_000)),
          TimeUnit.MILLISECONDS)) {
        long now = System.nanoTime();
        lostFpSet = helpers.lost(now);
        if (lostFpSet != null || now >= deadline) {
          timedOut = lostFpSet == null;
          killTree(process);
          process.waitFor();
          break;
        }
      }
      // The stream ends when the child is gone; the reader has then seen every line. The bound
      // only guards against a grandchild that kept the pipe open after the kill.
      reader.join(TimeUnit.SECONDS.toMillis(30));
      helpers.finish(timedOut || lostFpSet != null);
    } catch (InterruptedException e) {
      killTree(process);
      helpers.kill();
      throw e;
    } finally {
      listener.finished();
      try {
        Runtime.getRuntime().removeShutdownHook(killOnExit);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running or has run; nothing to remove.
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int exit = timedOut ? -1 : process.exitValue();
    if (archive != null) {
      // TLC exits with its verdict's code; a killed JVM (time limit, 137) writes no archive worth keeping.
      archive.finish(!timedOut && exit < 128);
    }
    synchronized (output) {
      TlcResult result = TlcOutputParser.parse(exit, timedOut, output, cfg.properties(), seconds, log, job.search());
      return lostFpSet == null ? result : result.failed(lostFpSet);
    }
  }

  /** How often a run looks whether the server's helpers still run, and whether the time limit is reached, in ms. */
  private static final long POLL_MILLIS = 500;

  /** {@link #run} in a resident JVM of the pool, or in a new one that then joins the pool. */
  private TlcResult runResident(TlcJob job, Path dir, CfgFile cfg) throws IOException, InterruptedException {
    List<String> options = new ArrayList<>(TlcHeap.optionsFor(1));
    options.addAll(job.jvmOptions());
    ResidentTlc jvm = pool.take(options, () -> {
      // Its own temporary folder, not the run's: the JVM outlives the run that started it.
      Path tmp = Files.createTempDirectory("hicache-sync-tlc-");
      List<String> command = jvmCommand(job, 1, tmp);
      command.add(TlcMain.RESIDENT);
      return ResidentTlc.start(options, command, tmp, withClassArchive(command, job));
    });
    ResidentTlc running = jvm;
    Path log = dir.resolve("tlc.log");
    TlcOutput output = new TlcOutput();
    listener.started(job.name(), 1);
    Thread reader = new Thread(() -> pump(running::readLine, output, log), "tlc-output-" + job.name());
    reader.setDaemon(true);
    long start = System.nanoTime();
    reader.start();
    boolean timedOut = false;
    try {
      try {
        jvm.send(tlcArguments(job, dir, 1, true));
      } catch (IOException e) {
        // The JVM is gone (a JVM option it refused, say): the reader gets its output and exit code.
      }
      reader.join(job.timeLimit() == null ? 0 : Math.max(1, job.timeLimit().toMillis()));
      if (reader.isAlive()) {
        timedOut = true;
        pool.discard(jvm);
        reader.join(TimeUnit.SECONDS.toMillis(30));
      }
    } catch (InterruptedException e) {
      pool.discard(jvm);
      throw e;
    } finally {
      listener.finished();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int exit = timedOut ? -1 : jvm.lastExit();
    if (!timedOut) {
      if (jvm.alive()) {
        pool.give(jvm);
      } else {
        pool.discard(jvm);
      }
    }
    synchronized (output) {
      return TlcOutputParser.parse(exit, timedOut, output, cfg.properties(), seconds, log, job.search());
    }
  }

  private Path prepare(TlcJob job) throws BadInputException, IOException {
    if (!Files.isRegularFile(job.cfg())) {
      throw new BadInputException("model configuration not found: " + job.cfg());
    }
    Path dir = job.runDir();
    deleteTree(dir);
    Files.createDirectories(dir.resolve("tmp"));
    for (Path source : job.sourceDirs()) {
      if (!Files.isDirectory(source)) {
        continue;
      }
      try (Stream<Path> files = Files.list(source)) {
        for (Path tla : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".tla"))::iterator) {
          Files.copy(tla, dir.resolve(tla.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    if (!Files.isRegularFile(dir.resolve(job.module() + ".tla"))) {
      throw new BadInputException("module " + job.module() + ".tla not found in " + job.sourceDirs());
    }
    Files.copy(job.cfg(), dir.resolve(job.cfg().getFileName()), StandardCopyOption.REPLACE_EXISTING);
    return dir;
  }

  /** A plain TLC JVM's class path: TLC's jar and the jar of {@link TlcMain}, its main class. */
  private List<Path> classPath(TlcJob job) throws IOException {
    return List.of(tlcJar, TlcMain.jarIn(job.workRoot()));
  }

  /** TLC's command line for {@code job} in {@code dir}: the JVM's options, then TLC's. */
  List<String> command(TlcJob job, Path dir, int workers) throws IOException {
    List<String> command = jvmCommand(job, workers, dir.resolve("tmp"));
    command.addAll(tlcArguments(job, dir, workers, false));
    return command;
  }

  /**
   * A TLC JVM's command up to its main class: {@code java}, the heap for {@code workers}, the temporary folder
   * {@code tmp}, the job's JVM options (after those, so they win), the class path and {@link TlcMain}.
   */
  private List<String> jvmCommand(TlcJob job, int workers, Path tmp) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(TlcHeap.optionsFor(workers));
    command.add("-Djava.io.tmpdir=" + tmp);
    command.addAll(job.jvmOptions());
    command.addAll(List.of("-cp", classPath(job).stream().map(Path::toString)
            .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator)),
        TlcMain.class.getName()));
    return command;
  }

  /**
   * Puts the options of {@code job}'s class archive ({@link TlcClassArchive}) into a TLC JVM's {@code command},
   * right after {@code java}; returns the archive, or null where there is none.
   */
  private TlcClassArchive withClassArchive(List<String> command, TlcJob job) throws IOException {
    TlcClassArchive archive = TlcClassArchive.in(job.workRoot(), classPath(job), job.jvmOptions());
    if (archive != null) {
      command.addAll(1, archive.jvmOptions());
    }
    return archive;
  }

  /**
   * TLC's own arguments for {@code job} in {@code dir}; the cfg and module by absolute path where TLC does not run in
   * {@code dir} (a resident JVM).
   */
  static List<String> tlcArguments(TlcJob job, Path dir, int workers, boolean absolutePaths) {
    // -tool: every message between delimiters with its code (TlcOutput), which is what the parsers read.
    List<String> arguments = new ArrayList<>(List.of("-tool",
        "-workers", Integer.toString(workers),
        "-metadir", dir.resolve("states").toString(),
        "-fp", Integer.toString(FINGERPRINT_POLYNOMIAL)));
    if (job.search() instanceof TlcSearch.Simulation simulation) {
      arguments.addAll(List.of("-simulate", "num=" + simulation.behaviours(),
          "-depth", Integer.toString(simulation.depth()), "-seed", Long.toString(simulation.seed())));
    } else {
      arguments.addAll(List.of("-seed", Long.toString(EXHAUSTIVE_SEED)));
    }
    String cfgName = job.cfg().getFileName().toString();
    arguments.addAll(absolutePaths
        ? List.of("-config", dir.resolve(cfgName).toAbsolutePath().toString(), dir.resolve(job.module()).toAbsolutePath().toString())
        : List.of("-config", cfgName, job.module()));
    return arguments;
  }

  /** One line of a TLC run's output, or null at its end. */
  private interface Lines {
    String next() throws IOException;
  }

  /** Reads TLC's output into {@code output} and the log, and passes each message to the listener. */
  private void pump(Process process, TlcOutput output, Path log) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      pump(in::readLine, output, log);
    } catch (IOException e) {
      // Closing a stream that has ended: nothing was lost.
    }
  }

  private void pump(Lines in, TlcOutput output, Path log) {
    try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.next()) != null) {
        List<TlcMessage> completed;
        synchronized (output) {
          completed = output.accept(line);
        }
        out.write(line);
        out.newLine();
        completed.forEach(listener::message);
      }
    } catch (IOException e) {
      // The child was killed mid-line or the log became unwritable: keep what was read.
      synchronized (output) {
        output.accept("Error: cannot read TLC's output: " + e.getMessage());
      }
    }
  }

  static void killTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
