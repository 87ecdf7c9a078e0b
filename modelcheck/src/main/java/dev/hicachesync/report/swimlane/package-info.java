/**
 * Counterexamples and recorded traces as self-contained HTML swimlane pages: one lane per
 * rank, each action a box on its rank's lane, each collective a bar across the lanes of its group with
 * what every member sent and what it returned, the violating state and the first divergence marked.
 *
 * <p>{@link dev.hicachesync.report.swimlane.CounterexampleView} reads a TLC error trace (through
 * {@link dev.hicachesync.modelcheck.trace.TraceAnalysis}); {@link
 * dev.hicachesync.report.swimlane.SwimlanePage} renders it; {@link
 * dev.hicachesync.report.swimlane.TracePage} renders a {@code validate-trace} run; {@link
 * dev.hicachesync.report.swimlane.ReportDirectory} names and writes the files. A page is one file
 * with its CSS, script and states inline: it loads nothing, so it opens offline in any browser.
 */
package dev.hicachesync.report.swimlane;
