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
 * time limit, when the calling thread is interrupted, and when this JVM shuts down.
 */
public final class TlcRunner {

  private final Path tlcJar;
  private final ProgressListener listener;

  /** A runner forking {@code tlcJar} and reporting TLC's output to {@code listener}. */
  public TlcRunner(Path tlcJar, ProgressListener listener) {
    this.tlcJar = tlcJar;
    this.listener = listener;
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
    // Liveness checking with several workers is unsound in this TLC (tlaplus #971).
    int workers = cfg.hasProperties() ? 1 : Math.max(1, job.workers());
    List<String> command = command(job, dir, workers);
    Path log = dir.resolve("tlc.log");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);

    long start = System.nanoTime();
    Process process = builder.start();
    Thread killOnExit = new Thread(() -> killTree(process), "tlc-kill-on-exit");
    Runtime.getRuntime().addShutdownHook(killOnExit);
    TlcOutput output = new TlcOutput();
    listener.started(job.name(), workers);
    Thread reader = new Thread(() -> pump(process, output, log), "tlc-output-" + job.name());
    reader.setDaemon(true);
    reader.start();
    boolean timedOut = false;
    try {
      if (job.timeLimit() == null) {
        process.waitFor();
      } else if (!process.waitFor(job.timeLimit().toMillis(), TimeUnit.MILLISECONDS)) {
        timedOut = true;
        killTree(process);
        process.waitFor();
      }
      // The stream ends when the child is gone; the reader has then seen every line. The bound
      // only guards against a grandchild that kept the pipe open after the kill.
      reader.join(TimeUnit.SECONDS.toMillis(30));
    } catch (InterruptedException e) {
      killTree(process);
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
    synchronized (output) {
      return TlcOutputParser.parse(exit, timedOut, output, cfg.properties(), seconds, log);
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

  private List<String> command(TlcJob job, Path dir, int workers) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:+UseParallelGC");
    command.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
    command.addAll(job.jvmOptions());
    // -tool: every message between delimiters with its code (TlcOutput), which is what the parsers read.
    command.addAll(List.of("-cp", tlcJar.toString(), "tlc2.TLC", "-tool",
        "-workers", Integer.toString(workers),
        "-metadir", dir.resolve("states").toString(),
        "-config", job.cfg().getFileName().toString(),
        job.module()));
    return command;
  }

  /** Reads TLC's output into {@code output} and the log, and passes each message to the listener. */
  private void pump(Process process, TlcOutput output, Path log) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
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

  private static void killTree(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private static void deleteTree(Path dir) throws IOException {
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
