/**
 * The memory tiers of HiCache: the device pool L1 ({@link dev.hicachesync.tier.DeviceTier}, on a GPU
 * through a {@link dev.hicachesync.tier.GpuDeviceTierProvider} (JCuda, in the {@code hicache-sync-cuda}
 * artifact), in host memory, or simulated, chosen by {@link dev.hicachesync.tier.DeviceTiers#open}), the host
 * pool L2 ({@link
 * dev.hicachesync.tier.HostPool} with a {@link dev.hicachesync.tier.HostLayout}) and the deterministic
 * {@link dev.hicachesync.tier.PageAllocator} both pools use.
 *
 * <p>A page holds {@code layers} slices of {@code layerBytes} bytes. Its canonical byte order, used by
 * every {@code read}/{@code write} of a whole page, is layer 0's bytes, then layer 1's, and so on,
 * whatever the physical layout.
 */
package dev.hicachesync.tier;
