package dev.hicachesync.monitor;

/**
 * What the consensus monitor reports: the spec's invariant it breaks ({@code spec/ConsensusMonitor.tla}), the
 * scheduler step at which it broke, and a readable account of every rank's queue there.
 *
 * @param kind the invariant, by its TLA+ name
 * @param step the step of the event that completed the compared position ({@link Kind#NoConsensusAlarm}), or the
 *     step the engine said the hang happened at ({@link Kind#NoSilentHang})
 * @param detail one paragraph: which position differs and what each rank queued there, or what each rank queued
 *     that its peers have not
 */
public record ConsensusAlarm(Kind kind, long step, String detail) {

  /** The monitor's invariants, named as {@code ConsensusMonitor.tla} names them. */
  public enum Kind {
    /**
     * The checker fired: every rank has queued an event at the oldest uncompared position and two of them differ
     * (SGLang's {@code _check_for_consensus} then logs and exits the process).
     */
    NoConsensusAlarm,
    /**
     * A run that can go no further (a collective that failed or timed out: every rank blocked) while the checker
     * has not fired: the hang is silent to the checker, whose workers wait for events the blocked ranks never queue.
     */
    NoSilentHang
  }

  /** Returns e.g. {@code NoConsensusAlarm at step 3: ...}. */
  @Override
  public String toString() {
    return kind + " at step " + step + ": " + detail;
  }
}
