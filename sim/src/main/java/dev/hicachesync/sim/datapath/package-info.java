/**
 * The KV bytes of a simulated rank: {@link dev.hicachesync.sim.datapath.DataPath} moves real bytes through a
 * device tier (JCuda or simulated), a host pool and the storage, and checks every arrival against the bytes
 * computed for the page's tokens; {@link dev.hicachesync.sim.datapath.DataOptions} says whether and how
 * ({@code simulate --data}); {@link dev.hicachesync.sim.datapath.PromptSeeds} shares the page seeds of a
 * prompt between the ranks of a run.
 */
package dev.hicachesync.sim.datapath;
