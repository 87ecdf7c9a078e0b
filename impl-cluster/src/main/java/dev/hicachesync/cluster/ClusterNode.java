package dev.hicachesync.cluster;

import dev.hicachesync.api.RankGroups;
import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.sync.GroupRegistry;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/**
 * One rank process's membership in its world: a JGroups channel, the start-up handshake, and the state behind
 * every {@link ProcessGroup} and {@link PipeChannel} it hands out.
 *
 * <p>Liveness: a killed process closes its sockets and the failure detector drops it at once; a stopped one
 * ({@code SIGSTOP}) keeps them open, and would look like a peer that merely does not call. So every node sends a
 * small {@code BEAT} to the world every {@link #beatIntervalMillis} from a thread of its own, and remembers when
 * it last heard from each rank: past a collective's timeout, a missing member that has been silent for {@link
 * #silenceMillis} is lost (named, like a killed one), while one whose beats still arrive is alive but elsewhere,
 * and the timeout stands (a protocol hang).
 *
 * <p>Threads: JGroups' delivery threads call {@link #receive} and {@link #viewAccepted}; each group handle is
 * used by one thread of this rank (its owner, as with the in-JVM fabric); one lock guards all of the node's
 * state and one condition wakes every waiter when anything changes (calls are few and small, so a waiter
 * re-checking its own predicate costs nothing worth a finer scheme).
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
  private final Address[] addressOf;
  private final Map<Address, Integer> rankOf = new HashMap<>();
  private final TreeSet<Integer> lost = new TreeSet<>();
  /** Peers this node has answered a hello from (each gets one direct hello back). */
  private final java.util.Set<Address> greeted = new java.util.HashSet<>();
  private String refusal;
  private boolean closed;
  /** When this node last heard anything from each rank ({@link System#nanoTime}); set at join for all. */
  private final long[] lastHeard;
  /** Ranks declared lost for their silence (a subset of {@link #lost}), for the error's wording. */
  private final TreeSet<Integer> silent = new TreeSet<>();
  private volatile java.util.concurrent.ScheduledExecutorService beats;
  /** Group name → call number → contributions by rank (the own one included). */
  private final Map<String, Map<Long, Map<Integer, WireCall>>> contributions = new HashMap<>();
  /** "from>to" → messages received and not yet taken. */
  private final Map<String, ArrayDeque<long[]>> pipeInbox = new HashMap<>();

  private ClusterNode(ClusterConfig cfg, JChannel channel) {
    this.cfg = cfg;
    this.channel = channel;
    this.addressOf = new Address[cfg.world()];
    this.lastHeard = new long[cfg.world()];
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
      channel = new JChannel(stack(cfg)).name("rank-" + cfg.rank());
    } catch (Exception e) {
      throw new ClusterStartException("rank " + cfg.rank() + ": cannot build the JGroups stack: " + e.getMessage(), e);
    }
    ClusterNode node = new ClusterNode(cfg, channel);
    channel.setReceiver(node.receiver());
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
    node.startBeats();
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
      return List.copyOf(lost);
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
    if (beats != null) {
      beats.shutdownNow();
    }
    channel.close();
  }

  /** Starts this node's beats: one small message to the world per {@link #beatIntervalMillis}. */
  private void startBeats() {
    long now = System.nanoTime();
    lock.lock();
    try {
      java.util.Arrays.fill(lastHeard, now); // everyone said hello just now
    } finally {
      lock.unlock();
    }
    byte[] beat = Wire.beat(cfg.rank());
    beats = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "cluster-beat-" + cfg.rank());
      t.setDaemon(true);
      return t;
    });
    long every = beatIntervalMillis(cfg);
    beats.scheduleAtFixedRate(() -> {
      try {
        Message m = new BytesMessage(null, beat);
        m.setFlag(Message.Flag.OOB, Message.Flag.DONT_BUNDLE, Message.Flag.NO_RELIABILITY);
        channel.send(m);
      } catch (Exception e) {
        // closing: the peers see this node leave instead
      }
    }, every, every, TimeUnit.MILLISECONDS);
  }

  /** How often a node beats: a tenth of the collective timeout, between 50 and 500 ms. */
  static long beatIntervalMillis(ClusterConfig cfg) {
    return Math.max(50, Math.min(500, cfg.timeout().toMillis() / 10));
  }

  /**
   * How long a rank must have been silent (no beat, no message) to be lost rather than late: five beats, at least
   * two seconds (a loaded machine delays a beat; it does not stop five in a row).
   */
  static long silenceMillis(ClusterConfig cfg) {
    return Math.max(2_000, 5 * beatIntervalMillis(cfg));
  }

  // ---- used by RemoteGroup and RemotePipe ----

  ReentrantLock lock() {
    return lock;
  }

  Duration timeout() {
    return cfg.timeout();
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

  /** Returns the contributions to {@code group}'s call {@code seq} so far, by rank. Caller holds the lock. */
  Map<Integer, WireCall> contributionsLocked(String group, long seq) {
    return contributions.computeIfAbsent(group, g -> new HashMap<>()).computeIfAbsent(seq, s -> new HashMap<>());
  }

  /** Forgets a completed call. Caller holds the lock. */
  void forgetLocked(String group, long seq) {
    Map<Long, Map<Integer, WireCall>> calls = contributions.get(group);
    if (calls != null) {
      calls.remove(seq);
    }
  }

  /** Returns the members that left the world, ascending. Caller holds the lock. */
  TreeSet<Integer> lostLocked() {
    return lost;
  }

  /** Whether {@code rank} was declared lost for its silence (not seen leaving). Caller holds the lock. */
  boolean silentLocked(int rank) {
    return silent.contains(rank);
  }

  /**
   * Past a collective's deadline: declares lost the {@code missing} members silent for {@link #silenceMillis}
   * (added to the lost ranks, every waiter woken, every peer told with a {@code LOST} message so that it names
   * them too) and returns them; empty when none is. Caller holds the lock.
   */
  List<Integer> declareSilentLocked(List<Integer> missing) {
    long now = System.nanoTime();
    long silence = TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg));
    List<Integer> gone = new ArrayList<>();
    for (int r : missing) {
      if (now - lastHeard[r] >= silence && !lost.contains(r)) {
        gone.add(r);
      }
    }
    for (int r : gone) {
      lost.add(r);
      silent.add(r);
      sendLater(Wire.lost(cfg.rank(), r));
    }
    if (!gone.isEmpty()) {
      changed.signalAll();
    }
    return gone;
  }

  /**
   * When a waiter past its deadline stops waiting for members it still hears from: after {@link #silenceMillis}
   * and two beats more, a member stopped at the deadline is silent long enough to be named, and a member stopped
   * elsewhere is named by the peer that waits for it (its {@code LOST} message arrives here).
   */
  long aliveGraceNanos() {
    return TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg) + 2 * beatIntervalMillis(cfg));
  }

  /** When {@code rank} could next be found silent ({@link System#nanoTime}). Caller holds the lock. */
  long silentAtLocked(int rank) {
    return lastHeard[rank] + TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg));
  }

  /** Sends {@code bytes} to the world from the beat thread (the caller holds the lock; a send may block). */
  private void sendLater(byte[] bytes) {
    java.util.concurrent.ScheduledExecutorService b = beats;
    Runnable send = () -> {
      try {
        channel.send(new BytesMessage(null, bytes));
      } catch (Exception e) {
        // closing: nothing to tell
      }
    };
    if (b != null) {
      try {
        b.execute(send);
        return;
      } catch (java.util.concurrent.RejectedExecutionException e) {
        return; // closed
      }
    }
    send.run();
  }

  /** How long ago this node last heard from {@code rank}, in ms. Caller holds the lock. */
  long silentForMillisLocked(int rank) {
    return millis(System.nanoTime() - lastHeard[rank]);
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

  /** Returns the inbox of pipe {@code from->to}. Caller holds the lock. */
  ArrayDeque<long[]> inboxLocked(int from, int to) {
    return pipeInbox.computeIfAbsent(from + ">" + to, k -> new ArrayDeque<>());
  }

  // ---- JGroups side ----

  private void send(int toRank, byte[] bytes) {
    Address to;
    lock.lock();
    try {
      to = addressOf[toRank];
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
      contributionsLocked(group, seq).put(rank, call);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private Receiver receiver() {
    return new Receiver() {
      @Override
      public void receive(Message msg) {
        ClusterNode.this.receive(msg);
      }

      @Override
      public void viewAccepted(View view) {
        ClusterNode.this.viewAccepted(view);
      }
    };
  }

  private void receive(Message msg) {
    Wire.Decoded d;
    try {
      d = Wire.read(msg.getArray(), msg.getOffset(), msg.getLength());
    } catch (RuntimeException e) {
      return; // not ours: another application on the cluster name; nothing to pair it with
    }
    if (d.type() == Wire.HELLO) {
      // Answer a peer's first hello directly, before acting on it: greetings sent on a view change can
      // miss a peer whose view arrives later, and a node that refuses the handshake closes at once, so
      // without this answer the peer would wait out its start-up timeout instead of refusing too.
      boolean first;
      lock.lock();
      try {
        first = greeted.add(msg.getSrc());
      } finally {
        lock.unlock();
      }
      if (first) {
        sendHello(msg.getSrc());
      }
    }
    lock.lock();
    try {
      if (d.rank() >= 0 && d.rank() < cfg.world()) {
        lastHeard[d.rank()] = System.nanoTime(); // a PIPE's rank is its sender, as every other type's
      }
      switch (d.type()) {
        case Wire.BEAT:
          return; // heard: nobody waits on a beat
        case Wire.LOST:
          if (d.to() >= 0 && d.to() < cfg.world() && d.to() != cfg.rank() && lost.add(d.to())) {
            silent.add(d.to()); // a peer found it silent past a timeout: this rank names it too
          }
          break;
        case Wire.HELLO:
          hello(msg.getSrc(), d.rank(), d.identity());
          break;
        case Wire.CALL:
          contributionsLocked(d.group(), d.seq()).put(d.rank(), d.call());
          break;
        case Wire.PIPE:
          inboxLocked(d.rank(), d.to()).addLast(d.values());
          break;
        default:
          break;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void hello(Address src, int rank, String identity) {
    if (rank < 0 || rank >= cfg.world()) {
      refusal = "a process claims rank " + rank + ", outside this world of " + cfg.world() + " (rank "
          + cfg.rank() + " runs " + cfg.identity() + ")";
      return;
    }
    if (!identity.equals(cfg.identity())) {
      refusal = "handshake refused: rank " + rank + " runs " + identity + "; rank " + cfg.rank() + " runs "
          + cfg.identity();
      return;
    }
    if (rank == cfg.rank() || (addressOf[rank] != null && !addressOf[rank].equals(src))) {
      refusal = "two processes claim rank " + rank;
      return;
    }
    addressOf[rank] = src;
    rankOf.put(src, rank);
  }

  private void viewAccepted(View view) {
    lock.lock();
    try {
      for (Map.Entry<Address, Integer> e : rankOf.entrySet()) {
        if (!view.containsMember(e.getKey())) {
          lost.add(e.getValue());
        }
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    // A process that joined after our first hello has not heard it: say it again to everyone.
    sendHello(null);
  }

  /** Sends this node's hello to {@code to} (null: everyone), past the bundler: it must leave before a close. */
  private void sendHello(Address to) {
    try {
      Message m = new BytesMessage(to, Wire.hello(cfg.rank(), cfg.identity()));
      m.setFlag(Message.Flag.DONT_BUNDLE);
      channel.send(m);
    } catch (Exception e) {
      // closing; nothing to greet
    }
  }

  private void awaitWorld(Duration startTimeout) throws ClusterStartException {
    long deadline = System.nanoTime() + startTimeout.toNanos();
    lock.lock();
    try {
      while (true) {
        if (refusal != null) {
          throw new ClusterStartException("rank " + cfg.rank() + ": " + refusal);
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < cfg.world(); r++) {
          if (r != cfg.rank() && addressOf[r] == null) {
            missing.add(r);
          }
        }
        if (missing.isEmpty()) {
          return;
        }
        if (!lost.isEmpty()) {
          throw new ClusterStartException("rank " + cfg.rank() + ": rank(s) " + lost + " left during start-up");
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

  /**
   * The protocol stack: TCP bound to the configured host (loopback in tests: nothing leaves the machine), a
   * fixed list of peers instead of multicast discovery, socket-based failure detection (a killed process closes
   * its sockets: noticed at once) plus heartbeats (a stopped process: noticed after the timeout), reliable FIFO
   * delivery and fragmentation.
   */
  private static Protocol[] stack(ClusterConfig cfg) throws Exception {
    InetAddress host = InetAddress.getByName(cfg.host());
    List<InetSocketAddress> peers = new ArrayList<>();
    for (int p : cfg.ports()) {
      peers.add(new InetSocketAddress(host, p));
    }
    long heartbeatTimeout = Math.max(2_000, cfg.timeout().toMillis());
    return new Protocol[] {
      new TCP().setBindAddress(host).setBindPort(cfg.ports().get(cfg.rank())).setPortRange(0),
      new TCPPING().setInitialHosts(peers).setPortRange(0),
      new MERGE3(),
      new FD_SOCK2().setBindAddress(host),
      new FD_ALL3().setTimeout(heartbeatTimeout).setInterval(Math.max(200, heartbeatTimeout / 8)),
      new VERIFY_SUSPECT2().setTimeout(500),
      new NAKACK2(),
      new UNICAST3(),
      new STABLE(),
      new GMS().setJoinTimeout(1_000).printLocalAddress(false),
      new FRAG4()
    };
  }

  static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }
}
