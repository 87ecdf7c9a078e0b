/**
 * {@code ./hicache-sync bench}: measurements of the project's own hot paths, each beside a baseline
 * measured in the same run on the same machine, so that a figure is read as a ratio and not as an absolute
 * that depends on the load of the moment.
 *
 * <p>The benchmarks are JMH benchmarks ({@code *Benchmark}: collectives, host-pool copies, file storage,
 * simulator, replay, the API's event check, storage keys); {@link dev.hicachesync.bench.BenchSuite} runs
 * them through JMH's Runner API with fixed iterations and turns the results into the table's rows. {@code
 * bench --jmh ARGS} runs them with JMH's own command line instead (profilers, other iteration counts).
 * {@code bench --smoke} runs each once in seconds, in the tool's JVM, so that CI keeps every path alive.
 */
package dev.hicachesync.bench;
