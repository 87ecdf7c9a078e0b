/**
 * CPU collectives between ranks: {@link dev.hicachesync.collective.ProcessGroup} (element-wise all-reduce
 * of {@code long[]}, barrier, broadcast), {@link dev.hicachesync.collective.PipeChannel} (point-to-point
 * pipeline traffic) and the in-JVM {@link dev.hicachesync.collective.LocalFabric} where ranks are threads.
 *
 * <p>Every call names its call site ({@code "S1"}, {@code "S123"}, {@code "RECV"}, ...). A group pairs the
 * k-th call of every member with the k-th call of every other member (gloo semantics) and checks INV-1
 * (CollectiveMatching) at run time: differing kinds, call sites or payload lengths fail every member with
 * {@link dev.hicachesync.collective.CollectiveMismatchException}; a member that never arrives fails the
 * others with {@link dev.hicachesync.collective.CollectiveTimeoutException}, which says where every rank of
 * the fabric is waiting. After either failure the group is broken: every later call fails at once.
 */
package dev.hicachesync.collective;
