package dev.hicachesync.controller;

/**
 * One rank's state at a lockstep point, one running hash per invariant, so the simulator can name the
 * invariant two ranks disagree on.
 *
 * @param tree the tree's mutation hash ({@code TreeAgreement})
 * @param acks counts popped from each ack and control queue ({@code AckAgreement})
 * @param prefetch prefetch decisions: issued, synced hit, revoked, terminated, inserted ({@code PrefetchAgreement})
 * @param alloc allocations and frees of the device and host pools ({@code AllocAgreement})
 */
public record ControllerDigest(long tree, long acks, long prefetch, long alloc) {}
