/**
 * Real request traces as workloads of the simulator.
 *
 * <p>{@link dev.hicachesync.workload.MooncakeTrace} reads and validates the Mooncake FAST'25 NDJSON
 * traces ({@link dev.hicachesync.workload.MalformedTraceException}: one line naming line and field);
 * {@link dev.hicachesync.workload.BlockTokens} expands block hashes into collision-free token ids;
 * {@link dev.hicachesync.workload.MooncakeWorkload} replays a trace as a {@code sim.Workload}, with
 * {@link dev.hicachesync.workload.ReplayTiming} mapping timestamps to steps and
 * {@link dev.hicachesync.workload.MooncakeReplay} setting a simulation up for it;
 * {@link dev.hicachesync.workload.PrefixReuseOracle} computes a trace's own prefix-reuse ratio without
 * the radix tree (what an unbounded cache must report exactly); {@link
 * dev.hicachesync.workload.TierHits} accounts hits per tier in tokens and 512-token blocks.
 */
package dev.hicachesync.workload;
