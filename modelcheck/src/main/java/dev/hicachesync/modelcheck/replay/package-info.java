/**
 * Java replays of TLC counterexamples: the schedule of a {@code HiCacheSync.tla}
 * counterexample (which rank's GPU copy completes when, which request arrives) drives the implementation's
 * step API ({@code sim.Simulator.open} → {@code sim.SimulationRun}, spec-shaped), and the implementation
 * must reach the same violation, by the same invariant name, at the same step; or the replay names the
 * step, rank and value where code and spec part ways, or the action it has no seam for.
 *
 * <p>{@link dev.hicachesync.modelcheck.replay.ModelConstants} has TLC evaluate a model's constants (its cfg
 * and {@code MC} module); {@link dev.hicachesync.modelcheck.replay.SpecSchedule} reads the schedule and the
 * spec's per-step observations out of the error trace; {@link dev.hicachesync.modelcheck.replay.ScheduledCopies}
 * is the one seam into the simulator (its {@code Timing}); {@link dev.hicachesync.modelcheck.replay.JavaReplay}
 * drives the run and compares; {@link dev.hicachesync.modelcheck.replay.ReplayReport} says what happened.
 */
package dev.hicachesync.modelcheck.replay;
