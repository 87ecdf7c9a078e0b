/**
 * {@code ./hicache-sync bench} (issue 13): measurements of the project's own hot paths, each beside a
 * baseline measured in the same run on the same machine, so that a figure is read as a ratio and not as
 * an absolute that depends on the load of the moment.
 *
 * <p>These are wall-clock timings with warm-up, not JMH runs: the JMH benchmarks of the same paths live in
 * {@code impl/src/jmh} (profile {@code jmh}); this package is what a user runs without a build profile,
 * and what CI runs in {@code --smoke} mode so that it cannot rot.
 */
package dev.hicachesync.bench;
