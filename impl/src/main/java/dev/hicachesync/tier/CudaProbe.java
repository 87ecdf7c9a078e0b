package dev.hicachesync.tier;

/**
 * What probing CUDA found: whether a usable device exists, how many, and a one-line explanation (the
 * driver's version, or why not).
 */
public record CudaProbe(boolean available, int deviceCount, String detail) {}
