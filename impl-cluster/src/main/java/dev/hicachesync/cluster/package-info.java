/**
 * Process groups across processes and machines, on JGroups.
 *
 * <p>A rank process joins the cluster of its world with a {@link dev.hicachesync.cluster.ClusterNode}: one
 * JGroups channel (TCP, bound to the address the configuration names; loopback in tests and in
 * {@code simulate --processes}), a start-up handshake that refuses a peer running another protocol version or
 * topology, and JGroups' failure detection (a closed socket is noticed at once, a silent peer by heartbeats).
 * Over that channel the node hands out {@link dev.hicachesync.collective.ProcessGroup}s and
 * {@link dev.hicachesync.collective.PipeChannel}s with the in-JVM fabric's contract: the k-th call of every
 * member pairs with the k-th call of every other member; calls that differ in kind, site or payload length
 * fail every member with the same {@link dev.hicachesync.collective.CollectiveMismatchException}; a member
 * that does not arrive in time fails the others with a
 * {@link dev.hicachesync.collective.CollectiveTimeoutException}; a member that leaves fails them at once with
 * a {@link dev.hicachesync.collective.CollectivePeerLostException}. Never a hang.
 *
 * <p>Why JGroups rather than a home-made transport: membership, failure detection, reliable FIFO delivery
 * per sender and fragmentation are what a rendezvous over sockets needs, and they are the hard part.
 */
package dev.hicachesync.cluster;
