package dev.hicachesync.monitor;

import java.util.Objects;

/**
 * One event a rank queues for the consensus checker: a decorated call's {@code called} event (before its body)
 * or its {@code returns} event (after it), with the compared payload. {@code spec/ConsensusMonitor.tla}'s
 * {@code Event(fn, phase, request, value)}; two events agree when all four are equal.
 *
 * @param fn the decorated function ({@link ConsensusMonitor#MATCH_PREFIX}, ...)
 * @param phase {@link #CALLED} or {@link #RETURNS}
 * @param request the request the call is about (its rid)
 * @param value the compared payload as text: a result ({@code "True"}, a hit length), or {@link #NO_CHECK}
 */
public record ConsensusEvent(String fn, String phase, String request, String value) {

  /** The phase of the event queued before the call's body. */
  public static final String CALLED = "called";
  /** The phase of the event queued after the call's body. */
  public static final String RETURNS = "returns";
  /** The payload of an event whose call compares nothing (SGLang's {@code "<no check>"}). */
  public static final String NO_CHECK = "<no check>";

  public ConsensusEvent {
    Objects.requireNonNull(fn, "fn");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(value, "value");
  }

  /** The event queued before {@code fn}'s body. */
  public static ConsensusEvent called(String fn, String request) {
    return new ConsensusEvent(fn, CALLED, request, NO_CHECK);
  }

  /** The event queued after {@code fn}'s body, with its compared result. */
  public static ConsensusEvent returns(String fn, String request, String value) {
    return new ConsensusEvent(fn, RETURNS, request, value);
  }

  /** Returns e.g. {@code check_prefetch_progress returns (request r1) True}. */
  @Override
  public String toString() {
    return fn + " " + phase + " (request " + request + ")" + (value.equals(NO_CHECK) ? "" : " " + value);
  }
}
