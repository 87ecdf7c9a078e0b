/**
 * Trace recording for trace validation: {@link dev.hicachesync.trace.TraceRecorder} (off by
 * default: {@link dev.hicachesync.trace.TraceRecorder#NONE}) and the records: {@link dev.hicachesync.trace.TraceHeader}, {@link dev.hicachesync.trace.CollectiveRecord},
 * {@link dev.hicachesync.trace.RankFailedRecord}; event names are {@link dev.hicachesync.trace.TraceEvent}.
 * {@link dev.hicachesync.trace.TracingProcessGroup} records an engine's collectives by wrapping its group
 * handles. The NDJSON writer ({@code trace.ndjson.NdjsonTraceRecorder}) and the strict reader ({@code
 * trace.ndjson.TraceReader}) are in the {@code hicache-sync-trace} artifact, which adds Jackson.
 *
 * <p>The format, one JSON object a line: the first line is the header (the run's constants, the same names
 * as the TLA+ constants of {@code spec/HiCacheSync.tla}); every later line is one event of one rank,
 * {@code ev} naming the spec action it is an instance of. {@code ./hicache-sync validate-trace FILE} checks
 * the file against {@code spec/TraceHiCacheSync.tla}.
 */
package dev.hicachesync.trace;
