package dev.hicachesync.sim;

import dev.hicachesync.collective.PipeChannel;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import dev.hicachesync.sync.SyncGroups;
import dev.hicachesync.sync.SyncPoint;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The scheduler's group under fault {@link Fault#PP_WORLD_ALLREDUCE} (B6's rejected fix, B19): one symmetric
 * all_reduce over the whole sync domain, every stage, on the scheduler thread, while a later stage still needs
 * its upstream stage's step before it can run its own (the micro-batch's activations, which the simulator's
 * stages otherwise do not exchange: their RECV spans every stage). A stage sends "step k done" down the pipeline
 * when it starts step k + 1's event check, and waits, before its own event check of step k, for its upstream
 * stage's "step k done": so stage 0 waits in the world collective of step k for a later stage that waits for
 * stage 0 to finish step k, the circular wait that the collective's timeout reports ({@code CollectiveMatching}).
 */
final class WorldSyncGate implements ProcessGroup {

  /** The message a stage sends down the pipeline when it has run a step (the stop signal is {@code -1}). */
  private static final long STEP_DONE = -2;
  private static final Set<String> EVENT_CHECKS = Set.of(SyncPoint.S1.name(), SyncPoint.S123.name());

  private final ProcessGroup world;
  private final PipeChannel fromPrev;
  private final PipeChannel toNext;
  private long steps;

  private WorldSyncGate(ProcessGroup world, PipeChannel fromPrev, PipeChannel toNext) {
    this.world = world;
    this.fromPrev = fromPrev;
    this.toNext = toNext;
  }

  /**
   * The scheduler's sync groups of a rank: the stage's own groups with the pipeline channels (forwarded counts,
   * the protocol since #27285), without them under {@link Fault#PP_STAGE_LOCAL_SYNC} (B6: each stage decides
   * alone), or the world group ({@code world}, made only then) under {@link Fault#PP_WORLD_ALLREDUCE}.
   */
  static SyncGroups schedulerGroups(Set<Fault> faults, ProcessGroup attnTp, ProcessGroup attnCp, ProcessGroup cpTp,
      PipeChannel fromPrev, PipeChannel toNext, Supplier<ProcessGroup> world) {
    if (faults.contains(Fault.PP_WORLD_ALLREDUCE)) {
      ProcessGroup gate = new WorldSyncGate(world.get(), fromPrev, toNext);
      return new SyncGroups(attnTp, gate, gate, null, null, null);
    }
    // B6 (HiCachePipeline's stage_local) and the unified drain before #37562: every stage decides over its own grid
    boolean stageLocal = faults.contains(Fault.PP_STAGE_LOCAL_SYNC) || faults.contains(Fault.PP_DRAIN_STAGE_LOCAL);
    return stageLocal ? new SyncGroups(attnTp, attnCp, cpTp, null, null, null)
        : new SyncGroups(attnTp, attnCp, cpTp, null, fromPrev, toNext);
  }

  @Override
  public long[] allReduce(String callSite, ReduceOp op, long[] values) {
    if (EVENT_CHECKS.contains(callSite)) {
      if (toNext != null && steps > 0) {
        toNext.send(new long[] {STEP_DONE});
      }
      steps++;
      if (fromPrev != null) {
        long[] msg = fromPrev.recv();
        if (msg.length != 1 || msg[0] != STEP_DONE) {
          throw new InvariantViolation(Invariant.CollectiveMatching, "stage waited for its upstream stage's step "
              + (steps - 1) + " before " + callSite + " on the world group, got an abort");
        }
      }
    }
    return world.allReduce(callSite, op, values);
  }

  @Override
  public int size() {
    return world.size();
  }

  @Override
  public List<Integer> members() {
    return world.members();
  }

  @Override
  public int rank() {
    return world.rank();
  }

  @Override
  public String name() {
    return world.name();
  }

  @Override
  public void barrier(String callSite) {
    world.barrier(callSite);
  }

  @Override
  public long[] broadcast(String callSite, int rootRank, long[] values) {
    return world.broadcast(callSite, rootRank, values);
  }
}
