/**
 * The protocol's synchronization vocabulary and mechanism: {@link dev.hicachesync.sync.ProtocolVersion},
 * {@link dev.hicachesync.sync.SyncPoint}, {@link dev.hicachesync.sync.Invariant} and {@link
 * dev.hicachesync.sync.SyncLayer}, which reduces a rank's local value at a sync point the way each version
 * does (PROTOCOL.md §3–§4).
 */
package dev.hicachesync.sync;
