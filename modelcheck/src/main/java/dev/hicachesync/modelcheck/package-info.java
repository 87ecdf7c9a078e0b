/**
 * Model checking with TLC: the model {@link dev.hicachesync.modelcheck.Catalogue}, the {@link
 * dev.hicachesync.modelcheck.TlcRunner} that forks TLC in a child JVM, the {@link
 * dev.hicachesync.modelcheck.TlcOutputParser} that turns its exit code and output into a {@link
 * dev.hicachesync.modelcheck.TlcResult} with an observed {@link dev.hicachesync.modelcheck.Verdict},
 * and the {@link dev.hicachesync.modelcheck.ModelChecker} that runs catalogue and ad-hoc models.
 */
package dev.hicachesync.modelcheck;
