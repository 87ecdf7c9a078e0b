package dev.hicachesync.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The system under test of the stateful model: an open {@link SimulationRun} of a {@link StatefulCase},
 * plus the per-replica session state that turns a generated {@link Turn} into the same request on every
 * rank of the replica.
 */
final class SimDriver implements AutoCloseable {
  private final SimulationRun run;
  private final ScriptedWorkload[] prompts;
  private final List<List<String>> rids = new ArrayList<>();
  private int arrivals;

  SimDriver(StatefulCase c, java.nio.file.Path storageDir) {
    Scenario s = c.base();
    int dp = s.topology().dp();
    this.prompts = new ScriptedWorkload[dp];
    for (int d = 0; d < dp; d++) {
      prompts[d] = new ScriptedWorkload(List.of(), s.systemPrompts(), s.systemPromptPages() * Scenario.PAGE_SIZE,
          s.sessions(), d);
      rids.add(new ArrayList<>());
    }
    this.run = Simulator.open(c.config(storageDir));
  }

  SimulationRun run() {
    return run;
  }

  /** Maps a generated rank onto this topology. */
  int rank(int r) {
    return r % run.ranks();
  }

  void arrive(int dp, Turn t) {
    int d = dp % prompts.length;
    String rid = "d" + d + "-i" + rids.get(d).size();
    run.arrive(d, step -> prompts[d].request(t, step, rid));
    rids.get(d).add(rid);
    arrivals++;
  }

  void abort(int dp, int nth) {
    int d = dp % prompts.length;
    List<String> mine = rids.get(d);
    if (!mine.isEmpty()) {
      run.abort(d, mine.get(nth % mine.size()));
    }
  }

  /** Returns the model as observed: the verdict's status of every invariant, by name. */
  SimModel observe() {
    SimulationRun.Verdict v = run.verdict();
    return new SimModel(arrivals, SimModel.statuses(v::holds, v.crash() != null));
  }

  /** Closes the run; every thread it started must be gone (the step API's promise, checked on every example). */
  @Override
  public void close() {
    run.close();
    if (run.liveThreads() > 0) {
      throw new IllegalStateException(run.liveThreads() + " simulation thread(s) still alive after close()");
    }
  }
}
