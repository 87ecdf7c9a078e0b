/**
 * Java replays of TLC counterexamples ({@code check --replay}): the schedule of a counterexample (which rank's
 * GPU copy completes when, which request arrives, what each rank's prefetch thread and storage find, its
 * batch-full condition) drives the implementation's step API ({@code sim.Simulator.open} →
 * {@code sim.SimulationRun}, spec-shaped), and the implementation must reach the same violation, by the same
 * invariant name, at the same step; or the replay names the step, rank and value where code and spec part
 * ways, or the action, knob or module it has no seam for.
 *
 * <p>{@link dev.hicachesync.modelcheck.replay.CatalogueReplays} picks the models (every ci bug model and its
 * fixed twin) and the driver per module; {@link dev.hicachesync.modelcheck.replay.ModelConstants} has TLC
 * evaluate a model's constants (its cfg and {@code MC} module); {@link
 * dev.hicachesync.modelcheck.replay.CachedCounterexample} reuses the counterexample a catalogue run already
 * printed; {@link dev.hicachesync.modelcheck.replay.SpecSchedule} reads the schedule and the spec's per-step
 * observations out of a {@code HiCacheSync} error trace; {@link
 * dev.hicachesync.modelcheck.replay.ScheduledEnvironment} is the seam into the simulator (each rank's {@code
 * Timing}); {@link dev.hicachesync.modelcheck.replay.UnifiedSchedule} and {@link
 * dev.hicachesync.modelcheck.replay.UnifiedEnvironment} are the same for a {@code HiCacheUnified} trace; {@link dev.hicachesync.modelcheck.replay.JavaReplay}
 * and {@link dev.hicachesync.modelcheck.replay.UnifiedReplay} drive the run and compare; {@link
 * dev.hicachesync.modelcheck.replay.ReplayReport} says what happened. A {@code HiCacheReplicas} trace (DP &gt; 1)
 * runs on the topology, collectives and sync layer without the simulator: {@link
 * dev.hicachesync.modelcheck.replay.ReplicasSchedule} reads its environment events, {@link
 * dev.hicachesync.modelcheck.replay.ReplicaRank} is one rank's thread, {@link
 * dev.hicachesync.modelcheck.replay.ReplicasReplay} runs and compares. {@code docs/reference/replays.md} lists
 * every covered model's outcome, checked by the replay tests.
 */
package dev.hicachesync.modelcheck.replay;
