/**
 * Traces as NDJSON files: {@link dev.hicachesync.trace.ndjson.NdjsonTraceRecorder} writes what a {@code
 * trace.TraceRecorder} is given, {@link dev.hicachesync.trace.ndjson.TraceReader} reads a file back strictly
 * (for {@code ./hicache-sync validate-trace}). In its own artifact ({@code dev.hicachesync:hicache-sync-trace})
 * because it pulls Jackson; the format is described in {@code dev.hicachesync.trace}.
 */
package dev.hicachesync.trace.ndjson;
