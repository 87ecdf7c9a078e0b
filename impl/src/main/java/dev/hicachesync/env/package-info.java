/**
 * The environment seams through which a simulator controls time and completion: {@link
 * dev.hicachesync.env.Ticker} (logical clock), {@link dev.hicachesync.env.TransferEvent} (completion of an
 * asynchronous copy) and {@link dev.hicachesync.env.LatencyModel} (how long a simulated copy takes).
 *
 * <p>Production code never reads wall time on its own; whatever decides "now" or "done" comes in through
 * these interfaces, so that a simulator can replay a run tick for tick.
 */
package dev.hicachesync.env;
