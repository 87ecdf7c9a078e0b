package dev.hicachesync.modelcheck;

import java.util.List;

/** The protocol versions the specification knows (TLA+ constant {@code Version}). */
public final class ProtocolVersions {

  /** Every version, in historical order. */
  public static final List<String> ALL = List.of("pre20460", "post20460", "merged", "pipelined");

  /** The prefetch policies (TLA+ constant {@code Policy}). */
  public static final List<String> POLICIES = List.of("best_effort", "wait_complete", "timeout");

  private ProtocolVersions() {}
}
