package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of TLC's distributed mode for one job: a {@code tlc2.tool.distributed.TLCServer}
 * (the state queue, the fingerprint set and the error trace; it prints the verdict) and
 * {@code tlc2.tool.distributed.TLCWorker}s that fetch the spec from the server over RMI and compute
 * successor states, and, when asked, {@code tlc2.tool.distributed.fp.DistributedFPSet}s that hold the
 * fingerprint set in shares instead of the server. All come with the TLC jar. A worker on another machine
 * runs {@link #remoteWorkerCommand} there, a fingerprint set {@link #remoteFpSetCommand}.
 */
public final class DistributedTlc {

  /** TLC's own default registry port, which its workers look up unless told another. */
  public static final int TLC_DEFAULT_PORT = 10997;
  /** TLC's fingerprint-set server. */
  static final String FP_SET_CLASS = "tlc2.tool.distributed.fp.DistributedFPSet";
  /** The server checks whether the search is over once per report: 2 s instead of TLC's minute. */
  static final int REPORT_MILLIS = 2000;
  /** Java 17 closes the RMI internals a worker reads its own port from; TLC only logs a stack trace then. */
  static final List<String> WORKER_OPENS = List.of(
      "--add-opens", "java.rmi/sun.rmi.server=ALL-UNNAMED",
      "--add-opens", "java.rmi/sun.rmi.transport=ALL-UNNAMED");

  private final Path tlcJar;
  private final TlcJob job;
  private final int port;
  private final String rmiHost;
  private final int fpSets;
  private final List<String> fpSetJvmOptions;

  private DistributedTlc(Path tlcJar, TlcJob job, int port, String rmiHost, int fpSets, List<String> fpSetJvmOptions) {
    this.tlcJar = tlcJar;
    this.job = job;
    this.port = port;
    this.rmiHost = rmiHost;
    this.fpSets = fpSets;
    this.fpSetJvmOptions = fpSetJvmOptions;
  }

  /**
   * The commands of {@code job} searched as {@code search}; a port of 0 becomes a free one (so that runs
   * side by side do not share a registry).
   *
   * @throws IOException if no free port can be found
   */
  static DistributedTlc forJob(Path tlcJar, TlcJob job, TlcSearch.Distributed search) throws IOException {
    return new DistributedTlc(tlcJar, job, search.port() == 0 ? freePort() : search.port(), search.rmiHost(),
        search.fpSets(), search.fpSetJvmOptions());
  }

  /** The registry port the server listens on. */
  public int port() {
    return port;
  }

  /** The server's command, run in {@code dir} (which holds the modules and the cfg). */
  List<String> serverCommand(Path dir) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add(TlcHeap.COLLECTOR);   // the server fingerprints and queues; its workers evaluate
    command.add("-Djava.io.tmpdir=" + dir.resolve("tmp"));
    command.add("-D" + property("TLCServer", "port") + "=" + port);
    command.add("-D" + property("TLCServer", "report") + "=" + REPORT_MILLIS);
    if (!rmiHost.isEmpty()) {
      command.add("-Djava.rmi.server.hostname=" + rmiHost);
    }
    if (fpSets > 0) {
      // The server then starts the search only once that many fingerprint-set servers have registered.
      command.add("-D" + property("TLCServer", "expectedFPSetCount") + "=" + fpSets);
    }
    command.addAll(job.jvmOptions());
    // TLCServer reads TLC's options except -workers (its workers are the TLCWorker JVMs).
    command.addAll(List.of("-cp", tlcJar.toString(), "tlc2.tool.distributed.TLCServer", "-tool",
        "-metadir", dir.resolve("states").toString(),
        "-config", job.cfg().getFileName().toString(),
        job.module()));
    return command;
  }

  /** Local worker {@code i}'s command: one thread each (the workers are the parallelism). */
  List<String> workerCommand(Path dir, int i) {
    List<String> oneThread = List.of("-D" + property("TLCWorker", "threadCount") + "=1");
    return localClient(TlcHeap.optionsFor(1), dir.resolve("tmp"), oneThread, List.of(),
        "tlc2.tool.distributed.TLCWorker");
  }

  /**
   * Local fingerprint-set server {@code i}'s command: it finds the server through the registry port,
   * registers, and holds its share of the fingerprints (on its heap and in its own temporary folder) until
   * the server tells it to exit. Its own options come after the job's: HotSpot takes the last {@code -Xmx}.
   */
  List<String> fpSetCommand(Path dir, int i) {
    return localClient(List.of(TlcHeap.COLLECTOR), dir.resolve("tmp").resolve("fpset-" + i), List.of(), fpSetJvmOptions,
        FP_SET_CLASS);
  }

  /**
   * A JVM on this machine that joins the server as {@code mainClass}: {@code heap}, its temporary folder, the
   * registry port, {@code before} the job's JVM options and {@code after} them.
   */
  private List<String> localClient(List<String> heap, Path tmp, List<String> before, List<String> after,
      String mainClass) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(heap);
    command.add("-Djava.io.tmpdir=" + tmp);
    command.addAll(WORKER_OPENS);
    command.add("-D" + property("TLCServer", "port") + "=" + port);
    command.addAll(before);
    command.addAll(job.jvmOptions());
    command.addAll(after);
    command.addAll(List.of("-cp", tlcJar.toString(), mainClass, "localhost"));
    return command;
  }

  /**
   * What a machine other than this one runs to hold a share of the fingerprints, given {@code server}
   * (this machine's name as that one reaches it), {@code jar} (the TLC jar's path there) and {@code self}
   * (that machine's own name as the server and the workers reach it: they call it back).
   */
  public static String remoteFpSetCommand(String server, int port, String jar, String self) {
    return remoteClient(port, " -Djava.rmi.server.hostname=" + self, jar, FP_SET_CLASS, server);
  }

  /**
   * What a machine other than this one runs to join the search as a worker, given {@code server} (this
   * machine's name as that one reaches it) and {@code jar} (the TLC jar's path there).
   */
  public static String remoteWorkerCommand(String server, int port, String jar) {
    return remoteClient(port, "", jar, "tlc2.tool.distributed.TLCWorker", server);
  }

  private static String remoteClient(int port, String options, String jar, String mainClass, String server) {
    return "java " + String.join(" ", WORKER_OPENS) + " -D" + property("TLCServer", "port") + "=" + port + options
        + " -cp " + jar + " " + mainClass + " " + server;
  }

  private static String property(String tlcClass, String name) {
    return "tlc2.tool.distributed." + tlcClass + "." + name;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** A port no socket on this machine holds now (the OS's pick; the caller binds it soon after). */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
