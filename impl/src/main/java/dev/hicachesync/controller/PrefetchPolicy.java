package dev.hicachesync.controller;

import dev.hicachesync.vocabulary.Labelled;

/** When a storage prefetch may stop and its request be scheduled (PROTOCOL.md §4, S4). */
public enum PrefetchPolicy implements Labelled {
  /** Terminate at admission, with whatever has been read (no S4). */
  BEST_EFFORT("best_effort"),
  /** Terminate only when the whole hit has been read (S4). */
  WAIT_COMPLETE("wait_complete"),
  /** Terminate when read or after a timeout on this rank's clock (S4). */
  TIMEOUT("timeout");

  private final String label;

  PrefetchPolicy(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name. */
  @Override
  public String label() {
    return label;
  }

  /** Returns the policy named {@code name}; one-line {@link IllegalArgumentException} otherwise. */
  public static PrefetchPolicy parse(String name) {
    return Labelled.find(PrefetchPolicy.class, name).orElseThrow(() -> new IllegalArgumentException(
        "unknown prefetch policy '" + name + "'; expected best_effort, wait_complete or timeout"));
  }

  @Override
  public String toString() {
    return label;
  }
}
