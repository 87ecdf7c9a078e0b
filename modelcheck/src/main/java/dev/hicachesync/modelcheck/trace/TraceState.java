package dev.hicachesync.modelcheck.trace;

import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One state of a TLC error trace: its number, the action that produced it ({@code <Initial
 * predicate>} for state 1) and the value of every variable.
 *
 * @param number TLC's state number, from 1
 * @param action the action's operator name ("Initial predicate" for the first state)
 * @param location where TLC says the action is ("line 6, col 9 to ... of module M"), or ""
 * @param variables variable name to value, in TLC's order
 */
public record TraceState(int number, String action, String location, Map<String, TlaValue> variables) {

  /** The action name TLC gives the first state. */
  public static final String INITIAL = "Initial predicate";

  public TraceState {
    variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
  }
}
