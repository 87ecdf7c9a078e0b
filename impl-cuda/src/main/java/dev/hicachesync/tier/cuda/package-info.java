/**
 * The device tier on real GPUs through JCuda ({@link dev.hicachesync.tier.cuda.JCudaDeviceTier}), in its own
 * artifact ({@code dev.hicachesync:hicache-sync-cuda}) so that the core pulls no native library. {@code
 * DeviceTiers.open} finds it through {@link dev.hicachesync.tier.cuda.JCudaDeviceTierProvider}; without this
 * artifact, or without a driver, every rank runs on the simulated tier.
 */
package dev.hicachesync.tier.cuda;
