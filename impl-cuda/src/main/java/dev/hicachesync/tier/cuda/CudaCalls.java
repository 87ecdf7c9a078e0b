package dev.hicachesync.tier.cuda;

import jcuda.runtime.cudaError;

/**
 * Return-code checks for the CUDA runtime. Why not {@code JCuda.setExceptionsEnabled}: it is a global
 * switch, and {@code cudaEventQuery} legitimately returns {@code cudaErrorNotReady}.
 */
final class CudaCalls {
  private CudaCalls() {}

  /** Throws {@link IllegalStateException} naming {@code what} unless {@code rc} is {@code cudaSuccess}. */
  static void check(int rc, String what) {
    if (rc != cudaError.cudaSuccess) {
      throw new IllegalStateException("CUDA " + what + " failed: " + cudaError.stringFor(rc));
    }
  }
}
