package dev.hicachesync.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One generated stateful test: the simulation's configuration (a {@link Scenario} without a script: its
 * requests arrive by command) and the command list. {@link #encode()} is its one-line replay string:
 * the scenario's line, {@code |}, the commands.
 *
 * @param base topology, version, policies, pools, environment seed and schedules, faults; no turns
 * @param commands the steps and environment actions, in order
 */
record StatefulCase(Scenario base, List<SimCommand> commands) {
  /** Steps the rank threads could run: more than any command list reaches (they are closed before). */
  static final long STEPS = 1L << 40;

  /** Returns the case, with device pages raised so that the longest injected prompt (plus output) fits. */
  static StatefulCase of(Scenario s, List<SimCommand> commands) {
    List<Turn> turns = new ArrayList<>();
    for (SimCommand c : commands) {
      if (c instanceof SimCommand.Arrive a) {
        turns.add(a.turn());
      }
    }
    int pages = (Scenario.maxPromptTokens(s.systemPromptPages(), s.sessions(), turns) + Scenario.PAGE_SIZE - 1)
        / Scenario.PAGE_SIZE;
    Scenario b = new Scenario(s.topology(), s.version(), s.prefetchPolicy(), s.writePolicy(), s.storage(),
        s.seed(), s.readFailurePercent(), s.devicePages() + pages, s.hostPages(), s.maxRunning(),
        s.systemPrompts(), s.systemPromptPages(), s.sessions(), List.of(), s.faults(), s.preload(),
        s.schedules());
    return new StatefulCase(b, List.copyOf(commands));
  }

  /** Returns the simulator configuration: the scenario's, with no end (the test closes the run). */
  SimConfig config(java.nio.file.Path storageDir) {
    SimConfig c = base.config(timeout(), storageDir);
    return new SimConfig(c.topology(), STEPS, c.seed(), c.version(), c.storage(), c.storageDir(),
        c.storagePages(), c.prefetchPolicy(), c.writePolicy(), c.faults(), c.pageSize(), c.devicePages(), c.hostPages(),
        c.maxRunning(), c.readFailure(), c.collectiveTimeout(), c.workload(), c.fullDigestEvery(), 0,
        c.timing(), null, c.data(), c.specShaped(), c.storageDurable(), c.hostBufferOnly(),
        c.abortRunning(), c.consensusMonitor());
  }

  static Duration timeout() {
    return SimOracle.TIMEOUT;
  }

  /** Returns the one-line replay string. */
  String encode() {
    return base.encode() + "|" + commands.stream().map(SimCommand::encode).collect(Collectors.joining(","));
  }

  /** Parses {@link #encode()}'s form. */
  static StatefulCase decode(String line) {
    String[] parts = line.strip().split("\\|", -1);
    List<SimCommand> commands = new ArrayList<>();
    if (!parts[1].isEmpty()) {
      for (String c : parts[1].split(",")) {
        commands.add(SimCommand.decode(c));
      }
    }
    return new StatefulCase(Scenario.decode(parts[0]), commands);
  }

  @Override
  public String toString() {
    return encode();
  }
}
