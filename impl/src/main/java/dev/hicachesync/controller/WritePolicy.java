package dev.hicachesync.controller;

import dev.hicachesync.vocabulary.Labelled;

/** When device pages are backed up to the host (PROTOCOL.md §1). */
public enum WritePolicy implements Labelled {
  /** Back up every inserted node (hit threshold 1). */
  WRITE_THROUGH("write_through", 1),
  /** Back up a node once it has been hit twice. */
  WRITE_THROUGH_SELECTIVE("write_through_selective", 2),
  /** Back up only when evicting from the device, synchronously. */
  WRITE_BACK("write_back", Integer.MAX_VALUE);

  private final String label;
  private final int hitThreshold;

  WritePolicy(String label, int hitThreshold) {
    this.label = label;
    this.hitThreshold = hitThreshold;
  }

  /** Returns the shared-vocabulary name. */
  @Override
  public String label() {
    return label;
  }

  /** Returns the hits after which a node is written through. */
  public int hitThreshold() {
    return hitThreshold;
  }

  /** Returns the policy named {@code name}; one-line {@link IllegalArgumentException} otherwise. */
  public static WritePolicy parse(String name) {
    return Labelled.find(WritePolicy.class, name).orElseThrow(() -> new IllegalArgumentException(
        "unknown write policy '" + name
        + "'; expected write_through, write_through_selective or write_back"));
  }

  @Override
  public String toString() {
    return label;
  }
}
