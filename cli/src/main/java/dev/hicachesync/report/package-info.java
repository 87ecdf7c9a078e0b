/**
 * Reports of workload replays: {@link dev.hicachesync.report.SweepPoint} is one replay of a capacity
 * sweep, {@link dev.hicachesync.report.SweepTable} prints a sweep, {@link
 * dev.hicachesync.report.HitRatioChart} draws it as a PNG with JFreeChart (headless).
 */
package dev.hicachesync.report;
