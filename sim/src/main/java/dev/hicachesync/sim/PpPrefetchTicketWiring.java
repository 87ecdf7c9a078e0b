package dev.hicachesync.sim;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.PpPrefetchTicket;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Wires stage 0's prefetch tickets ({@link Fault#PP_PREFETCH_TICKETS}, SGLang #36700) into a rank: the ticket
 * channels from each stage-0 rank to the rank of the same CP x TP position on every later stage, and which of the
 * storage threads' reductions leave the pp group (S7 always, the completion MIN under {@link
 * Fault#TICKET_STAGE_COMPLETION}).
 */
final class PpPrefetchTicketWiring {
  /** The channel name of the tickets (its own: the scheduler's request relay uses "pp"). */
  static final String CHANNEL = "pp_prefetch_command";

  private PpPrefetchTicketWiring() {}

  /** Whether a run with {@code faults} on {@code t} sends prefetch tickets. */
  static boolean on(Set<Fault> faults, Topology t) {
    return t.pp() > 1 && faults.contains(Fault.PP_PREFETCH_TICKETS);
  }

  /** Whether the prefetch thread's S7 reduces over the pp group (no tickets: every stage queries). */
  static boolean s7SpansStages(Set<Fault> faults, Topology t) {
    return t.pp() > 1 && !on(faults, t);
  }

  /** Whether the completion sync's MIN (S5) reduces over the pp group (not under bug TKLOCAL). */
  static boolean completionSpansStages(Set<Fault> faults, Topology t) {
    return t.pp() > 1 && !(on(faults, t) && faults.contains(Fault.TICKET_STAGE_COMPLETION));
  }

  /** Gives rank {@code r}'s controller its side of the tickets, when the run has them. */
  static void wire(Set<Fault> faults, Topology t, int r, GroupSource fabric, CacheController controller) {
    if (!on(faults, t)) {
      return;
    }
    RankCoord c = t.coords(r);
    if (c.pp() == 0) {
      List<PipeChannel> out = new ArrayList<>();
      for (int stage = 1; stage < t.pp(); stage++) {
        out.add(fabric.channel(CHANNEL, r, t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), stage))));
      }
      controller.usePpPrefetchTicket(PpPrefetchTicket.source(out));
    } else {
      int source = t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), 0));
      controller.usePpPrefetchTicket(PpPrefetchTicket.worker(fabric.channel(CHANNEL, source, r),
          faults.contains(Fault.TICKET_OWN_HIT)));
    }
  }
}
