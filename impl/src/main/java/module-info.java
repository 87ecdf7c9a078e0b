/**
 * The core an engine embeds ({@code dev.hicachesync:hicache-sync-impl}): no dependency outside the JDK.
 *
 * <p>Exported: the API ({@code api}) and the contracts an engine implements or catches: process groups and
 * pipes with their exceptions ({@code collective}), the L3 store ({@code storage}), the device tier and host
 * pool ({@code tier}), trace recording ({@code trace}), the consensus monitor ({@code monitor}); and the
 * small packages those name in their signatures: the device tier's completion events and clocks ({@code env}),
 * rank coordinates ({@code topology}) and the spec's names ({@code vocabulary}). Everything else (the
 * controller, the sync layer, the tree, the api.internal seams) is not exported; the simulator and the
 * process-group artifact reach the packages they need through qualified exports, by their automatic module
 * names (each jar's manifest).
 *
 * <p>A GPU device tier is a service ({@code tier.GpuDeviceTierProvider}) so that the JCuda tier
 * ({@code hicache-sync-cuda}) stays out of the core.
 *
 * <p>The qualified exports name modules this one is compiled without (they depend on it), hence the
 * suppressed {@code module} warning. The project's own tools and tests run on the class path, where this
 * descriptor is not enforced.
 */
@SuppressWarnings("module")
module dev.hicachesync {
  exports dev.hicachesync.api;
  exports dev.hicachesync.collective;
  exports dev.hicachesync.env;
  exports dev.hicachesync.monitor;
  exports dev.hicachesync.storage;
  exports dev.hicachesync.tier;
  exports dev.hicachesync.topology;
  exports dev.hicachesync.trace;
  exports dev.hicachesync.vocabulary;

  exports dev.hicachesync.api.internal to dev.hicachesync.sim;
  exports dev.hicachesync.controller to dev.hicachesync.sim;
  exports dev.hicachesync.sync to dev.hicachesync.sim, dev.hicachesync.cluster;
  exports dev.hicachesync.tree to dev.hicachesync.sim;

  uses dev.hicachesync.tier.GpuDeviceTierProvider;
}
