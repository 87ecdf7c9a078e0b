package dev.hicachesync.modelcheck;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A TLC JVM that checks models one after another ({@link TlcMain#RESIDENT}): the runner sends a run's TLC arguments
 * and reads its output up to {@link TlcMain#END_OF_RUN}. The JVM options are fixed when it starts, so a {@link
 * TlcJvmPool} hands it only runs that would have started a JVM with the same ones. A run that ends without that line
 * (TLC ended the JVM itself, or it was killed) leaves this JVM dead; it is then never used again.
 */
final class ResidentTlc {

  /** Seconds the JVM gets to exit (and write its class archive) once its standard input is closed. */
  private static final int EXIT_GRACE_SECONDS = 10;

  private final List<String> options;
  private final Process process;
  private final BufferedReader output;
  private final BufferedWriter runs;
  private final TlcClassArchive archive;
  private final Thread killOnExit;
  private final Path tmp;
  private int lastExit = -1;

  private ResidentTlc(List<String> options, Process process, TlcClassArchive archive, Path tmp) {
    this.options = List.copyOf(options);
    this.process = process;
    this.archive = archive;
    this.tmp = tmp;
    this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.runs = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    this.killOnExit = new Thread(() -> {
      TlcRunner.killTree(process);
      deleteTmp();
    }, "tlc-resident-kill-on-exit");
    Runtime.getRuntime().addShutdownHook(killOnExit);
  }

  /**
   * Starts a resident TLC JVM with {@code command} (ending in {@link TlcMain} and {@link TlcMain#RESIDENT}) in its
   * temporary folder {@code tmp}, which it deletes when it ends; {@code options} are its JVM options as the pool's key.
   */
  static ResidentTlc start(List<String> options, List<String> command, Path tmp, TlcClassArchive archive)
      throws IOException {
    try {
      Process process = new ProcessBuilder(command).directory(tmp.toFile()).redirectErrorStream(true).start();
      return new ResidentTlc(options, process, archive, tmp);
    } catch (IOException e) {
      TlcRunner.deleteTree(tmp);
      throw e;
    }
  }

  /** The JVM options it was started with (its key in the pool). */
  List<String> options() {
    return options;
  }

  /** Sends one run's TLC arguments (none may hold a tab or a line break). */
  void send(List<String> tlcArguments) throws IOException {
    for (String argument : tlcArguments) {
      if (argument.contains("\t") || argument.contains("\n") || argument.contains("\r")) {
        throw new IOException("a TLC argument with a tab or line break cannot go to a resident TLC: " + argument);
      }
    }
    runs.write(String.join("\t", tlcArguments));
    runs.newLine();
    runs.flush();
  }

  /**
   * The next line of the current run's output, or null when the run has ended: at {@link TlcMain#END_OF_RUN} (its
   * exit code then in {@link #lastExit}) or because the JVM ended (its exit code there).
   */
  String readLine() throws IOException {
    String line = output.readLine();
    if (line == null) {
      try {
        lastExit = process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        lastExit = -1;
      }
      return null;
    }
    if (line.startsWith(TlcMain.END_OF_RUN)) {
      lastExit = Integer.parseInt(line.substring(TlcMain.END_OF_RUN.length()).trim());
      return null;
    }
    return line;
  }

  /** TLC's exit code for the run whose output {@link #readLine} finished. */
  int lastExit() {
    return lastExit;
  }

  /** Whether the JVM can take another run. */
  boolean alive() {
    return process.isAlive();
  }

  /** Stops the JVM now (time limit, interrupt, a run that went wrong). */
  void kill() {
    TlcRunner.killTree(process);
    cleanUp(false);
  }

  /** Lets the JVM exit (it writes its class archive if it was asked to), killing it if it does not. */
  void close() {
    boolean normal;
    try {
      runs.close();
      normal = process.waitFor(EXIT_GRACE_SECONDS, TimeUnit.SECONDS) && process.exitValue() == 0;
    } catch (IOException e) {
      normal = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      normal = false;
    }
    if (!normal) {
      TlcRunner.killTree(process);
    }
    cleanUp(normal);
  }

  private void cleanUp(boolean normalExit) {
    if (archive != null) {
      archive.finish(normalExit);
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or has run.
    }
    deleteTmp();
  }

  private void deleteTmp() {
    try {
      TlcRunner.deleteTree(tmp);
    } catch (IOException | RuntimeException e) {
      // Left in the system's temporary folder.
    }
  }
}
