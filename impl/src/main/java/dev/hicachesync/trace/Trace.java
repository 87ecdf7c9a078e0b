package dev.hicachesync.trace;

import java.util.List;

/**
 * A trace read from a file: its header and its events, each with its line number.
 *
 * @param header the run's constants
 * @param events the events in file order
 */
public record Trace(TraceHeader header, List<Line> events) {

  public Trace {
    events = List.copyOf(events);
  }

  /**
   * One event and where it is.
   *
   * @param number 1-based line number in the file
   * @param record the event
   */
  public record Line(int number, TraceRecord record) {}
}
