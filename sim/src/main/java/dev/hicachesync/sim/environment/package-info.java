/**
 * A simulated rank's environment, and what can go wrong in it: how long its copies and background I/O take
 * and which storage reads fail ({@link dev.hicachesync.sim.environment.Timing}, seeded by default: {@link
 * dev.hicachesync.sim.environment.SeededTiming}), the rank's event queue in virtual time ({@link
 * dev.hicachesync.sim.environment.RankEnv}), the faults of a soak ({@link
 * dev.hicachesync.sim.environment.EnvironmentFaults}) and the deliberate protocol bugs a run can inject
 * ({@link dev.hicachesync.sim.environment.Fault}). Everything here is a pure function of (seed, rank, the
 * rank's own virtual time), which is why a seed replays.
 */
package dev.hicachesync.sim.environment;
