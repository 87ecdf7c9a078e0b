package dev.hicachesync.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;


/**
 * Starts the W rank processes of one world on this machine (loopback only, ports chosen free), collects their
 * output, and ends them all: when one fails the others get a grace period to report their own named error,
 * then are killed. Nothing is left running when {@link #await} returns or {@link #close} is called. Each rank's
 * standard input is a pipe this process holds and never writes: if this process dies, even by {@code kill -9},
 * the pipe closes, and a rank that watches it ({@link LauncherWatch}) ends too.
 */
public final class LocalWorld implements AutoCloseable {
  /**
   * What one rank process printed and how it ended; {@code exitNanos} is when it ended ({@link System#nanoTime}),
   * for measuring how fast the others noticed a failure.
   */
  public record RankExit(int rank, int exitCode, List<String> output, boolean killed, long exitNanos) {}

  private final List<Process> processes = new ArrayList<>();
  private final List<List<String>> outputs = new ArrayList<>();
  private final List<Thread> readers = new ArrayList<>();
  private final List<java.util.concurrent.CompletableFuture<Long>> exitTimes = new ArrayList<>();

  private LocalWorld() {}

  /**
   * Starts {@code world} JVMs running {@code mainClass} on this JVM's class path; {@code args} gives each rank's
   * arguments from its rank, the ports of all ranks and a cluster name of its own.
   */
  public static LocalWorld start(int world, String mainClass, List<String> jvmArgs, RankArgs args) throws IOException {
    List<Integer> ports = freePorts(world);
    String cluster = "hicache-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    LocalWorld w = new LocalWorld();
    String java = ProcessHandle.current().info().command().orElse("java");
    try {
      for (int r = 0; r < world; r++) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args.of(r, ports, cluster));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        w.processes.add(p);
        w.exitTimes.add(p.onExit().thenApply(x -> System.nanoTime()));
        List<String> out = new ArrayList<>();
        w.outputs.add(out);
        Thread reader = new Thread(() -> read(p, out), "rank-" + r + "-output");
        reader.setDaemon(true);
        reader.start();
        w.readers.add(reader);
      }
    } catch (IOException | RuntimeException e) {
      w.close();
      throw e;
    }
    return w;
  }

  /** Each rank's arguments. */
  @FunctionalInterface
  public interface RankArgs {
    List<String> of(int rank, List<Integer> ports, String clusterName);
  }

  /** Returns the rank processes, in rank order (for fault tests: kill or stop one). */
  public List<Process> processes() {
    return List.copyOf(processes);
  }

  /**
   * Waits until every rank has exited or {@code limit} has passed. After the first rank fails, the others have
   * {@code grace} to exit on their own (with their named errors) before they are killed.
   */
  public List<RankExit> await(Duration limit, Duration grace) throws InterruptedException {
    return await(limit, grace, r -> false);
  }

  /**
   * As {@link #await(Duration, Duration)}, but the grace ends as soon as every rank still running is one that
   * {@code abandoned} says the others gave up on (every rank that ended named it lost): a stopped process
   * ({@code SIGSTOP}) never ends on its own, and waiting out the grace for it would only delay the report.
   */
  public List<RankExit> await(Duration limit, Duration grace, java.util.function.IntPredicate abandoned)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    long graceEnd = Long.MAX_VALUE;
    boolean[] killed = new boolean[processes.size()];
    while (true) {
      boolean allDone = true;
      for (Process p : processes) {
        if (p.isAlive()) {
          allDone = false;
        } else if (p.exitValue() != 0 && graceEnd == Long.MAX_VALUE) {
          graceEnd = System.nanoTime() + grace.toNanos();
        }
      }
      long now = System.nanoTime();
      if (allDone) {
        break;
      }
      if (graceEnd != Long.MAX_VALUE && onlyAbandonedAlive(abandoned)) {
        graceEnd = now;
      }
      if (now >= deadline || now >= graceEnd) {
        for (int r = 0; r < processes.size(); r++) {
          if (processes.get(r).isAlive()) {
            processes.get(r).destroyForcibly();
            killed[r] = true;
          }
        }
        for (Process p : processes) {
          p.waitFor(10, TimeUnit.SECONDS);
        }
        break;
      }
      processes.get(firstAlive()).waitFor(Math.min(100, Math.max(1, TimeUnit.NANOSECONDS.toMillis(
          Math.min(deadline, graceEnd) - now))), TimeUnit.MILLISECONDS);
    }
    for (Thread t : readers) {
      t.join(TimeUnit.SECONDS.toMillis(5));
    }
    List<RankExit> exits = new ArrayList<>();
    for (int r = 0; r < processes.size(); r++) {
      synchronized (outputs.get(r)) {
        exits.add(new RankExit(r, processes.get(r).exitValue(), List.copyOf(outputs.get(r)), killed[r],
            exitTimes.get(r).getNow(System.nanoTime())));
      }
    }
    return exits;
  }

  private boolean onlyAbandonedAlive(java.util.function.IntPredicate abandoned) {
    for (int r = 0; r < processes.size(); r++) {
      if (processes.get(r).isAlive() && !abandoned.test(r)) {
        return false;
      }
    }
    return true;
  }

  private int firstAlive() {
    for (int r = 0; r < processes.size(); r++) {
      if (processes.get(r).isAlive()) {
        return r;
      }
    }
    return 0;
  }

  /**
   * Blocks until rank {@code rank} has printed a line containing {@code text}, or {@code limit} has passed, or
   * the process has ended; returns whether the line came.
   */
  public boolean awaitOutput(int rank, String text, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    List<String> out = outputs.get(rank);
    synchronized (out) {
      while (out.stream().noneMatch(l -> l.contains(text))) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0 || !processes.get(rank).isAlive()) {
          return out.stream().anyMatch(l -> l.contains(text));
        }
        out.wait(Math.min(left, 200)); // woken by each new line; the bound re-checks liveness
      }
      return true;
    }
  }

  /** Kills every rank process still running and waits for it. */
  @Override
  public void close() {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    for (Process p : processes) {
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Returns {@code n} ports that were free on loopback a moment ago. */
  public static List<Integer> freePorts(int n) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      List<Integer> ports = new ArrayList<>();
      for (ServerSocket s : sockets) {
        ports.add(s.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find free loopback ports: " + e.getMessage(), e);
    } finally {
      for (ServerSocket s : sockets) {
        try {
          s.close();
        } catch (IOException ignored) {
          // a probe socket
        }
      }
    }
  }

  private static void read(Process p, List<String> out) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        synchronized (out) {
          out.add(line);
          out.notifyAll();
        }
      }
    } catch (IOException e) {
      // the process ended; what it printed so far is kept
    }
  }

}
