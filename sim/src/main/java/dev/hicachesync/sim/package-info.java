/**
 * The deterministic multi-rank simulator: every rank of a topology runs the real controller in one JVM,
 * in lockstep through an in-JVM collective fabric, against a seeded environment, and the ranks' digests
 * are compared at every lockstep point.
 *
 * <p>Core types: {@link dev.hicachesync.sim.Simulator}, {@link dev.hicachesync.sim.SimConfig}, {@link
 * dev.hicachesync.sim.SimResult}, {@link dev.hicachesync.sim.Divergence}, {@link
 * dev.hicachesync.sim.workload.Workload} (the request source: synthetic sessions, later replayed traces), {@link
 * dev.hicachesync.sim.environment.Timing} (each rank's environment schedule: seeded, scripted or generated) and {@link
 * dev.hicachesync.sim.environment.Fault} (deliberate protocol bugs, off by default), {@link
 * dev.hicachesync.sim.datapath.DataOptions} (whether each rank's {@code DataPath} moves and checks real KV bytes).
 * A divergence's readable views come from a replay of the same seed ({@code ExactViews}).
 *
 * <p>This package is the run itself: building the ranks and stepping them ({@code Simulator}, {@code
 * SimulationRun}), each rank's scheduler loop ({@code RankEngine}), the checks of their digests ({@code
 * RankRecorder}, {@code DomainChecker}, {@code ExactViews}, {@code EventLog}, {@code DigestLog}) and ranks run
 * as processes ({@code HostedRank}, {@code RankReport}, {@code ProcessReports}, {@code DigestLogs}). The jobs
 * around it have packages of their own: {@code sim.environment} (timing and faults), {@code sim.datapath}
 * (the KV bytes), {@code sim.workload} (the requests) and {@code sim.spec} (spec-shaped runs for trace
 * validation).
 *
 * <p>Each rank's scheduler loop ({@code RankEngine}, one loop for every run; a {@code LoopShape} orders its
 * phases and sets its limits, an {@code Intake} says what RECV carries, {@code SpecShaped} runs for {@code
 * --trace} being one configuration of it) makes its cache calls through the public {@link dev.hicachesync.api.HiCacheRank}, the object an engine
 * embeds; the simulator builds the controller behind it itself ({@link dev.hicachesync.api.internal.Seam}: its seeded
 * environment, observers, data path and {@code Fault}s) and reads it for its checks.
 *
 * <p>Why outcomes do not depend on thread timing: everything a rank sees from its environment (copy and
 * I/O completion, storage latency, read failures, rank-local conditions) is a pure function of (seed, rank,
 * the rank's own virtual time), run on the rank's own thread from a per-rank event queue ordered by (tick,
 * seq); ranks interact only through collectives, whose results do not depend on arrival order.
 */
package dev.hicachesync.sim;
