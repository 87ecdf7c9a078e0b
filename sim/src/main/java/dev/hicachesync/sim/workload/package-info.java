/**
 * Where a simulation's requests come from: {@link dev.hicachesync.sim.workload.Workload} (one attention-DP
 * replica's requests per step, a pure function of its seed), {@link dev.hicachesync.sim.workload.Request},
 * {@link dev.hicachesync.sim.workload.SyntheticWorkload} (multi-turn chat sessions sharing long prefixes) and
 * {@link dev.hicachesync.sim.workload.ForwardingWorkload} (the base of decorators such as a soak's aborts).
 * Replayed Mooncake traces implement the same interface ({@code dev.hicachesync.workload}).
 */
package dev.hicachesync.sim.workload;
