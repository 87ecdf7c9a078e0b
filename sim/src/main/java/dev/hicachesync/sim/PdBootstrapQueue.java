package dev.hicachesync.sim;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.topology.RankCoord;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PD prefill's bootstrap queue and its consensus ring, one per rank (fault {@link Fault#PD_PREFILL_BOOTSTRAP};
 * {@code HiCacheUnifiedPP.tla}'s {@code Bootstrapped}, {@code Stage0Step} and {@code Stage1Step}): RECV's
 * requests (their storage prefetch already issued, as {@code _add_request_to_queue} does before {@code
 * disagg_prefill_bootstrap_queue.add}) wait here; after each RECV the ring ({@link #ppPdGetBootstrappedIds})
 * decides which of them enter the waiting queue, where admission ({@code check_prefetch_progress}) finds them.
 *
 * <p>Why a ring and not each rank's own poll: a KV bootstrap completes on each rank's own clock, so a stage
 * that moved a request on its own poll could run it in another batch than its peers. Stage 0 polls its queue
 * and sends the ready requests down the pipe ({@code _pp_send_pyobj_to_next_stage}); a later stage receives
 * them ({@code _pp_recv_pyobj_from_prev_stage}) and forwards them. Every stage moves the requests of its
 * step's message at the same step index: the spec's per-stage admission, where the ring's round trip is one
 * message. Not modelled, as in the spec: a later stage's own poll ({@code _pp_ordered_intersection}), failed
 * bootstraps (the bad list) and the consensus's way back from the last stage. A request is named on the pipe
 * by its arrival number, which RECV's broadcast makes the same on every stage.
 *
 * <p>Rank thread only; in one JVM (a cluster node routes a pipe by its ends alone, so this ring would share
 * the request relay's channel).
 */
final class PdBootstrapQueue implements Intake {
  /** The channel name of the ring (its own: the scheduler's S123 forward uses "pp"). */
  static final String CHANNEL = "pp_pd_bootstrap";

  private final Intake recv;
  private final RankEnv env;
  /** The previous stage's end of the ring, or null on stage 0. */
  private final PipeChannel fromPrev;
  /** The next stage's end of the ring, or null on the last stage. */
  private final PipeChannel toNext;
  /** {@code disagg_prefill_bootstrap_queue}: the requests received and not moved on, by arrival number. */
  private final Map<Long, String> bootstrapping = new LinkedHashMap<>();
  /** The requests the ring moved into the waiting queue. */
  private final Set<String> waiting = new HashSet<>();
  private long arrivals;

  PdBootstrapQueue(Intake recv, RankEnv env, PipeChannel fromPrev, PipeChannel toNext) {
    this.recv = recv;
    this.env = env;
    this.fromPrev = fromPrev;
    this.toNext = toNext;
  }

  /**
   * Gives rank {@code r}'s engine its bootstrap queue in front of its RECV, when the run has {@link
   * Fault#PD_PREFILL_BOOTSTRAP}; the ring's channels run from each rank to the same CP x TP position of the
   * next stage.
   */
  static void wire(SimConfig cfg, int r, GroupSource fabric, RankEngine engine) {
    if (!cfg.faults().contains(Fault.PD_PREFILL_BOOTSTRAP)) {
      return;
    }
    Topology t = cfg.topology();
    RankCoord c = t.coords(r);
    PipeChannel fromPrev = c.pp() == 0 ? null
        : fabric.channel(CHANNEL, t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() - 1)), r);
    PipeChannel toNext = c.pp() == t.pp() - 1 ? null
        : fabric.channel(CHANNEL, r, t.rankOf(new RankCoord(c.dp(), c.cp(), c.tp(), c.pp() + 1)));
    engine.intake(new PdBootstrapQueue(engine.intake(), engine.env(), fromPrev, toNext));
  }

  @Override
  public List<Request> receive(long s, boolean stop) {
    List<Request> got = recv.receive(s, stop);
    if (got == null) {
      return null; // every rank stops at this RECV: no ring message is left unreceived
    }
    for (Request r : got) {
      bootstrapping.put(arrivals++, r.rid());
    }
    ppPdGetBootstrappedIds();
    return got;
  }

  @Override
  public boolean waitingQueueHolds(String rid) {
    return waiting.contains(rid);
  }

  /**
   * {@code scheduler_pp_mixin.py::_pp_pd_get_bootstrapped_ids} with {@code process_bootstrapped_queue}: the
   * ready requests (stage 0: its own poll; a later stage: the previous stage's message), forwarded to the next
   * stage and moved into this stage's waiting queue.
   */
  private void ppPdGetBootstrappedIds() {
    long[] good;
    if (fromPrev == null) {
      List<Long> ready = new ArrayList<>();
      bootstrapping.forEach((n, rid) -> {
        if (env.bootstrapped(rid)) { // get_ready_bootstrapped_rids_for_pp: KVPoll.WaitingForInput
          ready.add(n);
        }
      });
      good = ready.stream().mapToLong(Long::longValue).toArray();
    } else {
      good = java.util.Arrays.stream(fromPrev.recv()).filter(bootstrapping::containsKey).toArray();
    }
    if (toNext != null) {
      toNext.send(good);
    }
    for (long n : good) {
      waiting.add(bootstrapping.remove(n));
    }
  }
}
