/**
 * TLC error traces: {@link dev.hicachesync.modelcheck.trace.TraceParser} reads them from TLC's
 * {@code -tool} messages into an {@link dev.hicachesync.modelcheck.trace.ErrorTrace}; {@link
 * dev.hicachesync.modelcheck.trace.TraceAnalysis} splits them by rank and finds where ranks
 * diverged; {@link dev.hicachesync.modelcheck.trace.TraceTable} prints them as a per-step,
 * per-rank table.
 */
package dev.hicachesync.modelcheck.trace;
