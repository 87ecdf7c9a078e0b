/**
 * Real request traces as workloads: {@link dev.hicachesync.workload.MooncakeTrace} reads the Mooncake
 * FAST'25 NDJSON traces, {@link dev.hicachesync.workload.BlockTokens} expands their block hashes into
 * token ids, and {@link dev.hicachesync.workload.PrefixReuseOracle} computes a trace's own prefix-reuse
 * ratio independently of the radix tree, the figure an unbounded cache must reproduce exactly.
 */
package dev.hicachesync.workload;
