/**
 * The rank consensus monitor (SGLang's {@code rank_consensus_checker}, {@code spec/ConsensusMonitor.tla}): an
 * observer of a sync domain's decorated scheduler calls that compares the k-th event of every rank and raises the
 * spec's alarms by the spec's names, {@code NoConsensusAlarm} (two ranks made different calls, or got different
 * results) and {@code NoSilentHang} (the ranks hang and the checker did not see it). {@link
 * dev.hicachesync.monitor.ConsensusMonitor} compares, {@link dev.hicachesync.monitor.ConsensusTap} is one rank's
 * hook around {@code api.HiCacheRank}'s calls, {@link dev.hicachesync.monitor.ConsensusAlarm} what it reports.
 */
package dev.hicachesync.monitor;
