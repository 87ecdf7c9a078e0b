/**
 * The rank grid (dp, cp, tp, pp) and the process groups derived from it with SGLang's formula:
 * {@link dev.hicachesync.topology.Topology}, {@link dev.hicachesync.topology.RankCoord}, {@link
 * dev.hicachesync.topology.GroupKind} and {@link dev.hicachesync.topology.InvalidTopologyException}.
 *
 * <p>Within one pipeline stage {@code tp_rank = (dp·CP + cp)·TP + tp} (attn_tp varies fastest); the global
 * rank is {@code pp·tpSize + tp_rank}. All types are immutable and safe to share between threads.
 */
package dev.hicachesync.topology;
