package dev.hicachesync.controller;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import java.util.List;

/**
 * Stage 0's prefetch tickets with pipeline parallelism (SGLang #36700: {@code PPPrefetchTicket}, {@code
 * submit_prefetch} on PP0, {@code pp_prefetch_command_thread_func} on the later stages; {@code
 * HiCacheUnifiedPipeline.tla} knob {@code tickets}, actions {@code PfQuery} and {@code S7Complete}).
 *
 * <p>Only stage 0's prefetch thread queries storage. Its S7 reduces over its own stage's CP x TP grid (no
 * cross-PP hit collective), and the result, the ticket's {@code storage_hit_count}, goes to the rank of the same
 * CP x TP position on every later stage. A later stage's ticket worker prefetches that many pages without a query
 * of its own, so every stage allocates and reads the same hit. With {@code ownHit} (knob {@code own_hit}: the
 * question "what if a stage decides its own hit", not SGLang's code) a later stage's worker takes its own
 * storage hit instead, and the stages may disagree.
 *
 * <p>Threads: the prefetch thread of its rank only (it sends or receives on its channels).
 */
public final class PpPrefetchTicket {
  private final List<PipeChannel> toLaterStages;
  private final PipeChannel fromPp0;
  private final boolean ownHit;

  private PpPrefetchTicket(List<PipeChannel> toLaterStages, PipeChannel fromPp0, boolean ownHit) {
    this.toLaterStages = List.copyOf(toLaterStages);
    this.fromPp0 = fromPp0;
    this.ownHit = ownHit;
  }

  /** Stage 0's side: submits each ticket on {@code toLaterStages}, one channel per later stage. */
  public static PpPrefetchTicket source(List<PipeChannel> toLaterStages) {
    return new PpPrefetchTicket(toLaterStages, null, false);
  }

  /** A later stage's ticket worker: takes each ticket from {@code fromPp0}, or its own hit with {@code ownHit}. */
  public static PpPrefetchTicket worker(PipeChannel fromPp0, boolean ownHit) {
    return new PpPrefetchTicket(List.of(), fromPp0, ownHit);
  }

  /** Whether this rank is stage 0's (it queries storage and reduces S7). */
  boolean isSource() {
    return fromPp0 == null;
  }

  /** Whether this later stage's worker takes its own storage hit (knob {@code own_hit}). */
  boolean ownHit() {
    return ownHit;
  }

  /** Stage 0: sends {@code op}'s ticket, its synced hit {@code hit}, to every later stage ({@code submit_prefetch}). */
  void submit(PrefetchOperation op, int hit) {
    long[] ticket = {op.rid().hashCode(), hit};
    for (PipeChannel c : toLaterStages) {
      c.send(ticket);
    }
  }

  /**
   * A later stage: the hit of {@code op}'s ticket, waiting until stage 0 submitted it ({@code
   * pp_prefetch_command_thread_func}'s broadcast). Every stage issues its prefetches in one order, so tickets
   * arrive in the order of the worker's own queue; a ticket of another request is a mismatch.
   */
  int take(PrefetchOperation op) {
    long[] ticket = fromPp0.recv();
    if (ticket.length != 2 || ticket[0] != op.rid().hashCode()) {
      throw new InvariantViolation(Invariant.CollectiveMatching, "prefetch ticket of " + op.rid()
          + " expected from stage 0, got " + java.util.Arrays.toString(ticket));
    }
    return (int) ticket[1];
  }
}
