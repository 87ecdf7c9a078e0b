/**
 * Trace validation: {@link dev.hicachesync.modelcheck.validate.SpecEvents} merges the per-rank lines of a
 * trace into the spec's steps, {@link dev.hicachesync.modelcheck.validate.TraceModule} writes them as the
 * TLA+ module {@code TraceLog} with the cfg of {@code spec/TraceHiCacheSync.tla}, and {@link
 * dev.hicachesync.modelcheck.validate.TraceValidator} runs TLC on it and says whether the trace is a
 * behaviour of the spec ({@link dev.hicachesync.modelcheck.validate.Validation}).
 */
package dev.hicachesync.modelcheck.validate;
