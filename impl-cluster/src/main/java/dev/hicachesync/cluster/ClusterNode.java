package dev.hicachesync.cluster;

import dev.hicachesync.api.RankGroups;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.sync.GroupRegistry;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;

/**
 * One rank process's membership in its world: a JGroups channel, the start-up handshake, and the state behind
 * every {@link ProcessGroup} and {@link PipeChannel} it hands out.
 *
 * <p>Liveness: a killed process closes its sockets and the failure detector drops it at once; a stopped one
 * ({@code SIGSTOP}) keeps them open, and would look like a peer that merely does not call. So every node sends a
 * small {@code BEAT} to the world every {@link Liveness#beatIntervalMillis} from a thread of its own, and remembers
 * when it last heard from each rank: past a collective's timeout, a missing member that has been silent for {@link
 * Liveness#silenceMillis} is lost (named, like a killed one), while one whose beats still arrive is alive but elsewhere,
 * and the timeout stands (a protocol hang).
 *
 * <p>Threads: JGroups' delivery threads call {@link Inbound}'s {@code receive} and {@code viewAccepted}; each group handle is
 * used by one thread of this rank (its owner, as with the in-JVM fabric); one lock guards all of the node's
 * state and one condition wakes every waiter when anything changes (calls are few and small, so a waiter
 * re-checking its own predicate costs nothing worth a finer scheme).
 *
 * <p>The node's state is split by concern, all under that one lock: {@link Membership} (the handshake, the view,
 * the lost ranks), {@link Liveness} (beats and silence), {@link Mailboxes} (calls and pipe messages received),
 * {@link Inbound} (what arrives, dispatched to those); this class opens the channel and hands out the groups.
 */
public final class ClusterNode implements AutoCloseable {
  // Held strongly once quietened: java.util.logging keeps loggers weakly and would forget the level.
  private static final Logger JGROUPS_LOG = Logger.getLogger("org.jgroups");

  /**
   * Routes JGroups' own logging to java.util.logging switched off. Its warnings about peers that vanish are
   * exactly the events this package turns into named errors, so a command-line tool or a test that prints
   * those errors calls this before the first node is built; an engine with its own logging leaves it alone.
   */
  public static void quietJGroupsLogging() {
    org.jgroups.logging.LogFactory.useJdkLogger(true);
    JGROUPS_LOG.setLevel(Level.OFF);
  }

  private final ClusterConfig cfg;
  private final JChannel channel;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // Guarded by lock.
  private final Membership members;
  private final Liveness liveness;
  private final Mailboxes mail = new Mailboxes();
  private final Inbound inbound;
  private boolean closed;

  private ClusterNode(ClusterConfig cfg, JChannel channel) {
    this.cfg = cfg;
    this.channel = channel;
    this.members = new Membership(cfg);
    this.liveness = new Liveness(cfg, channel, lock, changed, members);
    this.inbound = new Inbound(cfg, channel, lock, changed, members, liveness, mail);
  }

  /**
   * Opens the channel, joins the world and waits until every rank has said hello with the same identity.
   *
   * @param startTimeout how long to wait for the whole world to assemble
   * @throws ClusterStartException on a handshake refusal (naming both sides), a rank claimed twice, a world
   *     that did not assemble in time, or a channel that could not open (a port in use, say)
   */
  public static ClusterNode join(ClusterConfig cfg, Duration startTimeout) throws ClusterStartException {
    JChannel channel;
    try {
      channel = new JChannel(ClusterStack.of(cfg)).name("rank-" + cfg.rank());
    } catch (Exception e) {
      throw new ClusterStartException("rank " + cfg.rank() + ": cannot build the JGroups stack: " + e.getMessage(), e);
    }
    ClusterNode node = new ClusterNode(cfg, channel);
    channel.setReceiver(node.inbound);
    channel.setDiscardOwnMessages(true);
    try {
      channel.connect(cfg.clusterName());
    } catch (Exception e) {
      channel.close();
      throw new ClusterStartException("rank " + cfg.rank() + ": cannot join cluster " + cfg.clusterName() + " on "
          + cfg.host() + ":" + cfg.ports().get(cfg.rank()) + ": " + e.getMessage(), e);
    }
    try {
      node.awaitWorld(startTimeout);
    } catch (ClusterStartException e) {
      node.close();
      throw e;
    }
    node.liveness.start();
    return node;
  }

  /** Returns this process's rank. */
  public int rank() {
    return cfg.rank();
  }

  /** Returns the ranks that left the world so far (crash, kill, partition), ascending. Any thread. */
  public List<Integer> lostRanks() {
    lock.lock();
    try {
      return List.copyOf(members.lostLocked());
    } finally {
      lock.unlock();
    }
  }

  /** Returns the configuration this node joined with. */
  public ClusterConfig config() {
    return cfg;
  }

  /**
   * Returns this rank's handle on the group {@code name} with {@code members}. Every member must ask for the
   * group under the same name with the same members; one handle belongs to one thread of this rank.
   */
  public ProcessGroup group(String name, List<Integer> members) {
    List<Integer> sorted = new ArrayList<>(new TreeSet<>(members));
    if (!sorted.contains(cfg.rank())) {
      throw new IllegalArgumentException("rank " + cfg.rank() + " is not a member of " + name + " " + sorted);
    }
    for (int m : sorted) {
      if (m < 0 || m >= cfg.world()) {
        throw new IllegalArgumentException("member " + m + " of " + name + " is outside the world 0.." + (cfg.world() - 1));
      }
    }
    return new RemoteGroup(this, name, sorted);
  }

  /** Returns this rank's end of the pipeline channel from {@code from} to {@code to} (one of them is this rank). */
  public PipeChannel pipe(int from, int to) {
    if (from != cfg.rank() && to != cfg.rank()) {
      throw new IllegalArgumentException("rank " + cfg.rank() + " is neither end of pipe " + from + "->" + to);
    }
    return new RemotePipe(this, from, to);
  }

  /**
   * Returns this rank's groups for HiCache on the grid {@code topology}, named as the in-JVM cluster names them
   * ({@code attn_tp}, {@code attn_cp}, {@code sched}, the prefetch thread's {@code pf_*} and the completion-sync
   * thread's {@code pfc_*}, in {@link GroupRegistry}'s order), with the pipeline
   * channels to the neighbouring stages. Call once; every rank of the world calls it with the same grid.
   *
   * @throws IllegalArgumentException if the grid's world size is not this world's
   */
  public RankGroups rankGroups(Topology topology) {
    if (topology.worldSize() != cfg.world()) {
      throw new IllegalArgumentException("grid " + topology + " has " + topology.worldSize() + " ranks, this world "
          + cfg.world());
    }
    int r = cfg.rank();
    RankCoord c = topology.coords(r);
    PipeChannel fromPrev = c.pp() == 0 ? null
        : pipe(topology.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() - 1)), r);
    PipeChannel toNext = c.pp() == topology.pp() - 1 ? null
        : pipe(r, topology.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() + 1)));
    return new RankGroups(group("attn_tp", topology.attnTpGroup(r)), group("attn_cp", topology.attnCpGroup(r)),
        group("sched", topology.cpTpGroup(r)), group("pf_attn_tp", topology.attnTpGroup(r)),
        group("pf_attn_cp", topology.attnCpGroup(r)), group("pf_cp_tp", topology.cpTpGroup(r)),
        topology.pp() > 1 ? group("pf_pp", topology.ppGroup(r)) : null, fromPrev, toNext,
        group(GroupRegistry.PFC_ATTN_TP, topology.attnTpGroup(r)),
        group(GroupRegistry.PFC_ATTN_CP, topology.attnCpGroup(r)), group(GroupRegistry.PFC_CP_TP, topology.cpTpGroup(r)),
        topology.pp() > 1 ? group(GroupRegistry.PFC_PP, topology.ppGroup(r)) : null);
  }

  /** Leaves the world; peers see this rank leave (their waits fail with a named error). Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    liveness.stop();
    channel.close();
  }

  // ---- used by RemoteGroup and RemotePipe ----

  ReentrantLock lock() {
    return lock;
  }

  Duration timeout() {
    return cfg.timeout();
  }

  /** The members' calls and pipe messages received. Guarded by {@link #lock()}. */
  Mailboxes mail() {
    return mail;
  }

  /** The lost ranks, ascending. Caller holds the lock. */
  TreeSet<Integer> lostLocked() {
    return members.lostLocked();
  }

  /** Beats and silence: which missing members are stopped rather than late. Guarded by {@link #lock()}. */
  Liveness liveness() {
    return liveness;
  }

  /** Records this rank's contribution and sends it to the other members. Caller holds no lock. */
  void contribute(String group, long seq, List<Integer> members, WireCall call) {
    byte[] bytes = Wire.call(group, seq, cfg.rank(), call);
    deposit(group, seq, cfg.rank(), call);
    for (int m : members) {
      if (m != cfg.rank()) {
        send(m, bytes);
      }
    }
  }

  boolean closedLocked() {
    return closed;
  }

  /** Waits for a change until {@code deadline} (System.nanoTime); false once it has passed. Caller holds the lock. */
  boolean awaitChangeLocked(long deadline) throws InterruptedException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      return false;
    }
    changed.awaitNanos(left);
    return true;
  }

  void sendPipe(int from, int to, long seq, long[] values) {
    send(to, Wire.pipe(from, to, seq, values));
  }

  // ---- JGroups side ----

  private void send(int toRank, byte[] bytes) {
    Address to;
    lock.lock();
    try {
      to = members.addressLocked(toRank);
    } finally {
      lock.unlock();
    }
    if (to == null) {
      return; // a rank that never joined or has left: the waiters' checks name it
    }
    try {
      channel.send(new BytesMessage(to, bytes));
    } catch (Exception e) {
      // The channel is closing or the peer is gone: the waiters see it as a lost member or a timeout.
    }
  }

  private void deposit(String group, long seq, int rank, WireCall call) {
    lock.lock();
    try {
      mail.contributionsLocked(group, seq).put(rank, call);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void awaitWorld(Duration startTimeout) throws ClusterStartException {
    long deadline = System.nanoTime() + startTimeout.toNanos();
    lock.lock();
    try {
      while (true) {
        if (members.refusalLocked() != null) {
          throw new ClusterStartException("rank " + cfg.rank() + ": " + members.refusalLocked());
        }
        List<Integer> missing = members.missingLocked();
        if (missing.isEmpty()) {
          return;
        }
        if (!members.lostLocked().isEmpty()) {
          throw new ClusterStartException("rank " + cfg.rank() + ": rank(s) " + members.lostLocked() + " left during start-up");
        }
        if (!awaitChangeLocked(deadline)) {
          throw new ClusterStartException("rank " + cfg.rank() + ": the world did not assemble within "
              + startTimeout.toMillis() + " ms: no hello from rank(s) " + missing);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClusterStartException("rank " + cfg.rank() + ": interrupted while joining");
    } finally {
      lock.unlock();
    }
  }
}
