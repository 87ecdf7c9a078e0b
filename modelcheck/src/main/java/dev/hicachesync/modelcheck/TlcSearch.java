package dev.hicachesync.modelcheck;

import java.util.List;

/**
 * How TLC searches a model: the whole state space in one JVM (the default), random behaviours of a
 * bounded depth ({@code -simulate}), or the whole state space shared out among TLC's own distributed
 * workers ({@code tlc2.tool.distributed}).
 */
public sealed interface TlcSearch {

  /** The default: breadth-first over every reachable state, in one TLC JVM. */
  TlcSearch EXHAUSTIVE = new Exhaustive();

  /** Every reachable state ({@code tlc2.TLC}): a verdict of {@code holds} is a proof. */
  record Exhaustive() implements TlcSearch {}

  /**
   * TLC's random simulation ({@code -simulate num=N -depth D -seed S}, one worker so that the seed
   * replays the run): {@code behaviours} behaviours of at most {@code depth} steps, each step a random
   * successor. A violation found is a real counterexample (not a shortest one); finding none proves
   * nothing.
   */
  record Simulation(long behaviours, int depth, long seed) implements TlcSearch {
    public Simulation {
      if (behaviours < 1 || depth < 1) {
        throw new IllegalArgumentException("a simulation needs at least one behaviour of at least one step");
      }
    }
  }

  /**
   * TLC's distributed mode: a {@code TLCServer} holding the queue and the fingerprints, and
   * {@code localWorkers} {@code TLCWorker} JVMs on this machine computing successors; workers on other
   * machines may join through {@code port} (TLC's RMI registry) while it runs. TLC skips temporal
   * properties in this mode without a word, so a cfg with properties is refused ({@link TlcRunner}).
   *
   * <p>With fingerprint-set servers ({@code tlc2.tool.distributed.fp.DistributedFPSet}) the server keeps
   * no fingerprints itself: they are spread over {@code localFpSets + remoteFpSets} JVMs, each holding a
   * share, so that a state space too large for one machine's memory still fits. The server waits for all of
   * them to register before the search starts, which is why those on other machines are counted in advance.
   *
   * @param localWorkers workers started here (0: only workers from other machines)
   * @param port the RMI registry port, or 0 for a free one
   * @param rmiHost the server's name as other machines reach it ({@code java.rmi.server.hostname}), or
   *     "" for the JVM's default (local workers only)
   * @param localFpSets fingerprint-set servers started here (0: none, unless remote ones are expected)
   * @param remoteFpSets fingerprint-set servers the server also waits for, started by hand on other machines
   * @param fpSetJvmOptions JVM options of the local fingerprint-set servers only (their heap holds their share),
   *     after the job's own
   */
  record Distributed(int localWorkers, int port, String rmiHost, int localFpSets, int remoteFpSets,
      List<String> fpSetJvmOptions) implements TlcSearch {
    public Distributed {
      if (localWorkers < 0 || port < 0 || port > 65535) {
        throw new IllegalArgumentException("workers >= 0 and a port in 0..65535");
      }
      if (localFpSets < 0 || remoteFpSets < 0) {
        throw new IllegalArgumentException("fingerprint-set servers >= 0");
      }
      rmiHost = rmiHost == null ? "" : rmiHost;
      fpSetJvmOptions = List.copyOf(fpSetJvmOptions);
    }

    /** The server keeps the fingerprint set itself. */
    public Distributed(int localWorkers, int port, String rmiHost) {
      this(localWorkers, port, rmiHost, 0, 0, List.of());
    }

    /** How many fingerprint-set servers the server waits for (0: it keeps the fingerprints itself). */
    public int fpSets() {
      return localFpSets + remoteFpSets;
    }
  }
}
