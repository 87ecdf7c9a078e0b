/**
 * Model checking with TLC: the model {@link dev.hicachesync.modelcheck.Catalogue}, the {@link
 * dev.hicachesync.modelcheck.TlcRunner} that forks TLC in a child JVM in {@code -tool} mode, {@link
 * dev.hicachesync.modelcheck.TlcOutput} that splits its output into coded {@link
 * dev.hicachesync.modelcheck.TlcMessage}s, the {@link dev.hicachesync.modelcheck.TlcOutputParser} that turns
 * its exit code and messages into a {@link dev.hicachesync.modelcheck.TlcResult} with an observed {@link
 * dev.hicachesync.modelcheck.Verdict}, {@link dev.hicachesync.modelcheck.CfgFile} (cfg files read by TLC's
 * own parser), and the {@link dev.hicachesync.modelcheck.ModelChecker} that runs catalogue and ad-hoc models.
 */
package dev.hicachesync.modelcheck;
