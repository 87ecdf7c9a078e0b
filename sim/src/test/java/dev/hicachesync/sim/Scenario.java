package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One generated simulation: topology, protocol version, policies, the environment (its seed drives every
 * rank's copy and I/O latency skew, event completion order and which storage reads fail; plus the read
 * failure rate and the pool sizes), the request script, and injected faults.
 *
 * <p>{@link #encode()} is a one-line replay string; {@code Scenario.decode(...)} rebuilds it exactly, so a
 * failure found by a property is replayed by a one-line test ({@link ReplayTest}).
 *
 * @param topology the rank grid
 * @param version protocol version
 * @param prefetchPolicy prefetch stop policy
 * @param writePolicy write policy
 * @param storage whether an L3 (in memory) is attached
 * @param seed the environment's seed (the simulator's one seed)
 * @param readFailurePercent percentage of storage read batches that fail
 * @param devicePages L1 pages per rank
 * @param hostPages L2 pages per rank
 * @param maxRunning requests running at once per replica
 * @param systemPrompts distinct system prompts shared by the sessions
 * @param systemPromptPages pages of each system prompt
 * @param sessions chat sessions in the script
 * @param turns the request script
 * @param faults injected bugs
 * @param preload per global rank, the leading pages of every system prompt already in that rank's storage
 *     shard before the run (file storage only; ranks may differ, which S7's MIN must absorb)
 * @param schedules per global rank, a generated environment schedule (latency skew, completion order,
 *     read failures, rank-local conditions); empty: the simulator's seeded schedule for {@code seed}
 */
record Scenario(Topology topology, ProtocolVersion version, PrefetchPolicy prefetchPolicy,
    WritePolicy writePolicy, StorageMode storage, long seed, int readFailurePercent, int devicePages,
    int hostPages, int maxRunning, int systemPrompts, int systemPromptPages, int sessions, List<Turn> turns,
    Set<Fault> faults, List<Integer> preload, List<RankSchedule> schedules) {

  /** Tokens per page: small, so that a page-granular tree gets many pages from short prompts. */
  static final int PAGE_SIZE = 16;
  /** Steps run after the last arrival before the drain. */
  static final int TAIL_STEPS = 8;
  /**
   * The liveness bound: steps without new requests after which every prefetch must have left {@code
   * ongoing_prefetch} ({@code PrefetchTerminates}), every ack must be consumed ({@code AcksConsumed}) and
   * every request served ({@code RequestsProgress}). {@code -Dhicache.sim.drainSteps} changes it.
   */
  static final long DRAIN_STEPS = Long.getLong("hicache.sim.drainSteps", 200);

  /** Returns the scheduler steps with arrivals (the drain comes after). */
  long steps() {
    return ScriptedWorkload.lastArrival(turns) + 1 + TAIL_STEPS;
  }

  /** Returns the longest prompt the script produces, in tokens (device pages must hold it). */
  static int maxPromptTokens(int systemPromptPages, int sessions, List<Turn> turns) {
    int[] history = new int[sessions];
    java.util.Arrays.fill(history, systemPromptPages * PAGE_SIZE);
    int max = 0;
    for (Turn t : turns) {
      int s = t.session() % sessions;
      int prompt = history[s] + t.userTokens();
      max = Math.max(max, prompt + t.outputTokens());
      history[s] = prompt + t.outputTokens();
    }
    return max;
  }

  /**
   * Returns the simulator configuration, with {@code timeout} as the collective timeout and {@code
   * storageDir} as the file backend's folder (null unless {@code storage} is {@code FILE}).
   */
  SimConfig config(Duration timeout, java.nio.file.Path storageDir) {
    int sys = systemPrompts;
    int sysTokens = systemPromptPages * PAGE_SIZE;
    int sess = sessions;
    List<Turn> script = List.copyOf(turns);
    return SimConfig.builder().topology(topology).version(version).prefetchPolicy(prefetchPolicy)
        .writePolicy(writePolicy).storage(storage).seed(seed).readFailure(readFailurePercent / 100.0)
        .pageSize(PAGE_SIZE).devicePages(devicePages).hostPages(hostPages).maxRunning(maxRunning)
        .faults(faults).steps(steps()).drainSteps(DRAIN_STEPS).collectiveTimeout(timeout)
        .fullDigestEvery(16).storageDir(storageDir)
        .timing(schedules.isEmpty() ? null : RankSchedule.factory(List.copyOf(schedules)))
        .workload((s, dp) -> new ScriptedWorkload(script, sys, sysTokens, sess, dp)).build();
  }

  /**
   * Writes the {@link #preload} pages into a file storage at {@code dir}: for rank r, the first
   * {@code preload[r]} pages of every system prompt of its replica, under r's key suffix, keyed by the same
   * hash chain the controller computes — so prefetches find storage hits that differ per rank.
   */
  void preloadStorage(java.nio.file.Path dir) {
    dev.hicachesync.storage.FileStorageBackend fs = new dev.hicachesync.storage.FileStorageBackend(dir, false);
    java.nio.ByteBuffer payload = java.nio.ByteBuffer.allocate(8);
    for (int r = 0; r < topology.worldSize() && r < preload.size(); r++) {
      int dp = topology.coords(r).dp();
      String suffix = "tp" + topology.tpRank(r) + "pp" + topology.coords(r).pp();
      ScriptedWorkload w = new ScriptedWorkload(turns, systemPrompts, systemPromptPages * PAGE_SIZE, sessions, dp);
      for (int[] prompt : w.systemPrompts()) {
        dev.hicachesync.storage.PageKey last = null;
        for (int p = 0; p < Math.min(preload.get(r), systemPromptPages); p++) {
          last = dev.hicachesync.storage.PageKey.chain(last,
              java.util.Arrays.copyOfRange(prompt, p * PAGE_SIZE, (p + 1) * PAGE_SIZE));
          payload.clear();
          payload.putLong(0, p).limit(8);
          fs.put(last.withSuffix(suffix), payload);
        }
      }
    }
  }

  /** Returns the one-line replay string. */
  String encode() {
    return String.format(Locale.ROOT,
        "dp=%d,cp=%d,tp=%d,pp=%d;v=%s;pf=%s;w=%s;st=%s;seed=%d;rf=%d;dev=%d;host=%d;run=%d;sys=%dx%d;"
            + "sess=%d;faults=%s;pre=%s;env=%s;turns=%s",
        topology.dp(), topology.cp(), topology.tp(), topology.pp(), version.label(), prefetchPolicy.name(),
        writePolicy.name(), storage.name(), seed, readFailurePercent, devicePages, hostPages, maxRunning,
        systemPrompts, systemPromptPages, sessions,
        faults.stream().map(Enum::name).sorted().collect(Collectors.joining("+")),
        preload.stream().map(String::valueOf).collect(Collectors.joining(".")),
        schedules.stream().map(RankSchedule::encode).collect(Collectors.joining("_")),
        turns.stream().map(Turn::encode).collect(Collectors.joining(",")));
  }

  /** Parses {@link #encode()}'s form. */
  static Scenario decode(String line) {
    java.util.Map<String, String> f = new java.util.HashMap<>();
    for (String part : line.strip().split(";")) {
      int eq = part.indexOf('=');
      f.put(part.substring(0, eq), part.substring(eq + 1));
    }
    Topology t = Topology.parse(line.substring(0, line.indexOf(';')));
    String[] sys = f.get("sys").split("x");
    Set<Fault> faults = EnumSet.noneOf(Fault.class);
    if (!f.get("faults").isEmpty()) {
      for (String x : f.get("faults").split("\\+")) {
        faults.add(Fault.valueOf(x));
      }
    }
    List<Turn> turns = new ArrayList<>();
    if (!f.get("turns").isEmpty()) {
      for (String x : f.get("turns").split(",")) {
        turns.add(Turn.decode(x));
      }
    }
    List<Integer> preload = new ArrayList<>();
    if (!f.getOrDefault("pre", "").isEmpty()) {
      for (String x : f.get("pre").split("\\.")) {
        preload.add(Integer.parseInt(x));
      }
    }
    List<RankSchedule> schedules = new ArrayList<>();
    if (!f.getOrDefault("env", "").isEmpty()) {
      for (String x : f.get("env").split("_")) {
        schedules.add(RankSchedule.decode(x));
      }
    }
    return new Scenario(t, ProtocolVersion.parse(f.get("v")), PrefetchPolicy.valueOf(f.get("pf")),
        WritePolicy.valueOf(f.get("w")), StorageMode.valueOf(f.get("st")), Long.parseLong(f.get("seed")),
        Integer.parseInt(f.get("rf")), Integer.parseInt(f.get("dev")), Integer.parseInt(f.get("host")),
        Integer.parseInt(f.get("run")), Integer.parseInt(sys[0]), Integer.parseInt(sys[1]),
        Integer.parseInt(f.get("sess")), turns, faults, preload, schedules);
  }

  @Override
  public String toString() {
    return encode();
  }
}
