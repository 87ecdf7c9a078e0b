/**
 * <b>Not part of the API</b>: what the simulator and the tests reach inside a rank through ({@link
 * dev.hicachesync.api.internal.Seam}), and the trace instrumentation {@code HiCacheRankBuilder.trace} turns
 * on ({@link dev.hicachesync.api.internal.TraceInstrumentation}). An engine never names this package (the
 * worked example's import test rejects it); a module descriptor would not export it.
 */
package dev.hicachesync.api.internal;
