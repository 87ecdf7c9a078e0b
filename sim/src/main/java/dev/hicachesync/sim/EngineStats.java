package dev.hicachesync.sim;

/**
 * Request-level counters of one rank's engine; equal on every rank of a sync domain. Rank thread only.
 *
 * <p>The engine and its intakes count events through the methods named by the event; the run's figures
 * ({@link SimStats}) and a rank process's report read them through the getters.
 */
final class EngineStats {
  private long arrived;
  private long admitted;
  private long finished;
  private long aborted;
  /** Of {@link #aborted}, the requests aborted while they ran. */
  private long abortedRunning;
  private long promptTokens;
  private long deviceHitTokens;
  private long hostHitTokens;
  private long storageHitTokens;
  private long computedTokens;
  private long recvCollectives;
  private long stepsRun;

  // ---------------------------------------------------------------- counting (the rank's engine)

  /** Step {@code step} (from 0) has run. */
  void stepRan(long step) {
    stepsRun = step + 1;
  }

  void requestArrived() {
    arrived++;
  }

  void requestAborted() {
    aborted++;
  }

  /** A running request was aborted (also counted by {@link #requestAborted}). */
  void runningAborted() {
    abortedRunning++;
  }

  void requestFinished() {
    finished++;
  }

  /** The intake's agreement on arrivals took one collective. */
  void collectiveReceived() {
    recvCollectives++;
  }

  /** A request was admitted: its prompt's tokens by where they came from. */
  void admitted(long prompt, long deviceHit, long hostHit, long storageHit, long computed) {
    admitted++;
    promptTokens += prompt;
    deviceHitTokens += deviceHit;
    hostHitTokens += hostHit;
    storageHitTokens += storageHit;
    computedTokens += computed;
  }

  // ---------------------------------------------------------------- a rank process's report

  /** Writes the counters into a rank process's report. */
  void putInto(RankReport r) {
    r.put("steps_run", stepsRun).put("arrived", arrived).put("admitted", admitted)
        .put("finished", finished).put("aborted", aborted).put("aborted_running", abortedRunning)
        .put("prompt_tokens", promptTokens)
        .put("device_hit_tokens", deviceHitTokens).put("host_hit_tokens", hostHitTokens)
        .put("storage_hit_tokens", storageHitTokens).put("computed_tokens", computedTokens)
        .put("recv_collectives", recvCollectives);
  }

  /** Reads the counters back from a rank process's report. */
  static EngineStats of(RankReport r) {
    EngineStats e = new EngineStats();
    e.stepsRun = r.num("steps_run");
    e.arrived = r.num("arrived");
    e.admitted = r.num("admitted");
    e.finished = r.num("finished");
    e.aborted = r.num("aborted");
    e.abortedRunning = r.num("aborted_running");
    e.promptTokens = r.num("prompt_tokens");
    e.deviceHitTokens = r.num("device_hit_tokens");
    e.hostHitTokens = r.num("host_hit_tokens");
    e.storageHitTokens = r.num("storage_hit_tokens");
    e.computedTokens = r.num("computed_tokens");
    e.recvCollectives = r.num("recv_collectives");
    return e;
  }

  // ---------------------------------------------------------------- reading

  long arrived() { return arrived; }
  long admitted() { return admitted; }
  long finished() { return finished; }
  long aborted() { return aborted; }
  long abortedRunning() { return abortedRunning; }
  long promptTokens() { return promptTokens; }
  long deviceHitTokens() { return deviceHitTokens; }
  long hostHitTokens() { return hostHitTokens; }
  long storageHitTokens() { return storageHitTokens; }
  long computedTokens() { return computedTokens; }
  long recvCollectives() { return recvCollectives; }
  long stepsRun() { return stepsRun; }
}
