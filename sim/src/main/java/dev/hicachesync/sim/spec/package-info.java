/**
 * Spec-shaped runs, whose traces TLC can check event by event ({@code simulate --trace}, {@code
 * validate-trace}): {@link dev.hicachesync.sim.spec.SpecShaped} is the request stream and the bounds of a run
 * shaped like {@code spec/HiCacheSync.tla} or {@code spec/HiCacheUnified.tla}; {@link
 * dev.hicachesync.sim.spec.SpecTraces} writes the trace's header and makes copies end where the spec lets
 * them. The scheduler loop that runs them is the simulator's own ({@code sim.RankEngine} with the spec's
 * {@code LoopShape} and {@code SpecIntake}).
 */
package dev.hicachesync.sim.spec;
