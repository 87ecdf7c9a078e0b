package dev.hicachesync.monitor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * SGLang's rank consensus checker ({@code utils/rank_consensus_checker.py}) over one sync domain, as {@code
 * spec/ConsensusMonitor.tla} models it: each rank queues an event before and after every decorated call ({@link
 * ConsensusTap}), and the k-th event of every rank is compared with the k-th of every other as soon as every rank
 * has queued one. The first position where two ranks differ raises {@link ConsensusAlarm.Kind#NoConsensusAlarm}
 * (the checker would exit the process there); the alarm stays, and nothing more is compared.
 *
 * <p>A rank that stops queueing (it is blocked in a collective its peers never make) leaves its peers' events
 * uncompared: the checker cannot see that hang. {@link #hang} is how an engine that detected the hang (a
 * collective's timeout) asks whether the checker saw it; if not, it gets {@link ConsensusAlarm.Kind#NoSilentHang}
 * with what each rank queued that its peers did not, which names the call one rank skipped.
 *
 * <p>Comparing as soon as every rank has an event is the checker's batching with no worker delay: the alarm is
 * raised at the earliest point the real checker can detect the divergence. Thread-safe: each rank's thread
 * queues its own events.
 */
public final class ConsensusMonitor {

  /** The decorated functions of SGLang's unified radix cache, by their Python names. */
  public static final String MATCH_PREFIX = "match_prefix";
  /** {@code check_prefetch_progress}: compares the request and its boolean result. */
  public static final String CHECK_PREFETCH_PROGRESS = "check_prefetch_progress";
  /** {@code release_aborted_request}: compares the request only (its barrier is inside the body). */
  public static final String RELEASE_ABORTED_REQUEST = "release_aborted_request";

  /** An event and the step of the rank that queued it. */
  private record Queued(ConsensusEvent event, long step) {}

  private final List<ArrayDeque<Queued>> queues = new ArrayList<>();
  private final Consumer<ConsensusAlarm> onAlarm;
  private long compared;
  private ConsensusAlarm alarm;

  /** A monitor of {@code ranks} ranks (indices 0 to ranks - 1) that only records its alarm ({@link #alarm()}). */
  public ConsensusMonitor(int ranks) {
    this(ranks, a -> {});
  }

  /** A monitor of {@code ranks} ranks that also tells {@code onAlarm} of its alarm, once, on the raising thread. */
  public ConsensusMonitor(int ranks, Consumer<ConsensusAlarm> onAlarm) {
    if (ranks < 1) {
      throw new IllegalArgumentException("a consensus monitor needs at least one rank, got " + ranks);
    }
    for (int r = 0; r < ranks; r++) {
      queues.add(new ArrayDeque<>());
    }
    this.onAlarm = Objects.requireNonNull(onAlarm, "onAlarm");
  }

  /** Returns the number of ranks. */
  public int ranks() {
    return queues.size();
  }

  /** Returns rank {@code rank}'s hook: the decorated calls of that rank go through it. */
  public ConsensusTap rank(int rank) {
    checkRank(rank);
    return new ConsensusTap(this, rank);
  }

  /**
   * Rank {@code rank} queues {@code event} at its step {@code step}; compares every position all ranks have
   * reached. Ignored once an alarm was raised (the checker's process is gone).
   */
  public void queue(int rank, long step, ConsensusEvent event) {
    checkRank(rank);
    Objects.requireNonNull(event, "event");
    ConsensusAlarm raised;
    synchronized (this) {
      if (alarm != null) {
        return;
      }
      queues.get(rank).add(new Queued(event, step));
      raised = compare();
    }
    if (raised != null) {
      onAlarm.accept(raised);
    }
  }

  /** Whether the checker has fired ({@code ConsensusCheckerFires}). */
  public synchronized boolean fired() {
    return alarm != null && alarm.kind() == ConsensusAlarm.Kind.NoConsensusAlarm;
  }

  /** The alarm raised so far, or null. */
  public synchronized ConsensusAlarm alarm() {
    return alarm;
  }

  /** The number of positions compared and found equal on every rank. */
  public synchronized long compared() {
    return compared;
  }

  /** Each rank's events not compared yet, oldest first. */
  public synchronized List<List<ConsensusEvent>> pending() {
    return queues.stream().map(q -> q.stream().map(Queued::event).toList()).toList();
  }

  /**
   * The engine found its ranks unable to go on at step {@code step} ({@code where}: a collective's timeout or
   * mismatch, a watchdog): returns the {@link ConsensusAlarm.Kind#NoSilentHang} alarm when the checker had not
   * fired (the hang is silent to it), or null when it had (it reported the divergence itself).
   */
  public ConsensusAlarm hang(long step, String where) {
    ConsensusAlarm raised;
    synchronized (this) {
      if (alarm != null) {
        return alarm.kind() == ConsensusAlarm.Kind.NoSilentHang ? alarm : null;
      }
      StringBuilder b = new StringBuilder("the ranks hang (" + where + ") and the checker has not fired: ");
      b.append(compared).append(" positions agreed; not compared yet:");
      for (int r = 0; r < queues.size(); r++) {
        b.append(" rank ").append(r).append(' ').append(queues.get(r).stream().map(q -> q.event().toString()).toList())
            .append(r + 1 < queues.size() ? ";" : "");
      }
      alarm = new ConsensusAlarm(ConsensusAlarm.Kind.NoSilentHang, step, b.toString());
      raised = alarm;
    }
    onAlarm.accept(raised);
    return raised;
  }

  /** Compares while every rank has an event at the oldest position; returns the alarm it raised, or null. */
  private ConsensusAlarm compare() {
    while (queues.stream().noneMatch(ArrayDeque::isEmpty)) {
      ConsensusEvent first = queues.get(0).peek().event();
      int other = -1;
      for (int r = 1; r < queues.size() && other < 0; r++) {
        if (!queues.get(r).peek().event().equals(first)) {
          other = r;
        }
      }
      if (other >= 0) {
        long step = queues.stream().mapToLong(q -> q.peek().step()).max().orElse(0);
        StringBuilder b = new StringBuilder("event " + (compared + 1) + " differs:");
        for (int r = 0; r < queues.size(); r++) {
          Queued q = queues.get(r).peek();
          b.append(" rank ").append(r).append(" queued ").append(q.event()).append(" at step ").append(q.step())
              .append(r + 1 < queues.size() ? ";" : "");
        }
        alarm = new ConsensusAlarm(ConsensusAlarm.Kind.NoConsensusAlarm, step, b.toString());
        return alarm;
      }
      queues.forEach(ArrayDeque::poll);
      compared++;
    }
    return null;
  }

  private void checkRank(int rank) {
    if (rank < 0 || rank >= queues.size()) {
      throw new IllegalArgumentException("rank " + rank + " is not one of the monitor's " + queues.size() + " ranks");
    }
  }
}
