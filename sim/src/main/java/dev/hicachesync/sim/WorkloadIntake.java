package dev.hicachesync.sim;

import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sync.SyncPoint;
import java.util.List;

/**
 * The simulator's RECV: each rank reads its replica's workload for the step (the same stream on every
 * member, by seed), and the domain's root broadcasts {@code [step, arrivals, stop]} (SGLang broadcasts the
 * received requests from the first TP rank); a member whose own count differs has a non-deterministic
 * workload, which is a bug of the harness. Drain steps (after the run proper) admit no new requests.
 */
final class WorkloadIntake implements Intake {
  private final RankEngine engine;
  private final long steps;
  private final ProcessGroup recv;
  private final int recvRoot;

  WorkloadIntake(RankEngine engine, long steps, ProcessGroup recv) {
    this.engine = engine;
    this.steps = steps;
    this.recv = recv;
    this.recvRoot = recv.members().get(0);
  }

  @Override
  public List<Request> receive(long s, boolean stop) {
    List<Request> arrivals = s < steps ? engine.workload().arrivals(s) : List.of();
    if (engine.injections() != null) {
      arrivals = engine.injections().arrivals(s, arrivals);
    }
    long[] head = {s, arrivals.size(), stop ? 1 : 0};
    long[] mine = head;
    // The RECV line's snapshot, when traced; with running aborts on, also how many this rank made so far.
    engine.api().beforeRecv(engine.waitingCount(), engine.runningCount(), engine.abortedRunningLogged());
    if (recv.size() > 1) {
      head = recv.broadcast(SyncPoint.RECV.name(), recvRoot, head);
      engine.stats().collectiveReceived();
    } else if (recv instanceof dev.hicachesync.trace.TracingProcessGroup traced) {
      traced.broadcastAlone(SyncPoint.RECV.name(), head); // a one-rank domain's RECV, in its trace only
    }
    if (head[2] != 0) {
      return null;
    }
    if (head[0] != s || head[1] != arrivals.size()) {
      throw new IllegalStateException("rank " + engine.rank() + " has " + arrivals.size() + " arrivals at step " + s
          + ", the root " + head[1] + " at step " + head[0] + ": the workload is not deterministic");
    }
    engine.recorder().afterSync(SyncPoint.RECV);
    if (engine.log() != null) {
      engine.log().add(SyncPoint.RECV.name(), mine, head);
    }
    return arrivals;
  }
}
