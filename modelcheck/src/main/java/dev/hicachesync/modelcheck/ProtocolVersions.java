package dev.hicachesync.modelcheck;

import java.util.List;

/** The protocol versions the specification knows (TLA+ constant {@code Version}). */
public final class ProtocolVersions {

  /** Every version, in historical order. */
  public static final List<String> ALL = List.of("pre20460", "post20460", "merged", "pipelined");

  /**
   * Every version a catalogue model may name: {@link #ALL} (module HiCacheSync and its
   * siblings) and {@code unified}, SGLang's unified radix cache since #35081, which has its own
   * module (spec/HiCacheUnified.tla) and so no ad-hoc model here.
   */
  public static final List<String> CATALOGUE = List.of("pre20460", "post20460", "merged", "pipelined", "unified");

  /** The prefetch policies (TLA+ constant {@code Policy}). */
  public static final List<String> POLICIES = List.of("best_effort", "wait_complete", "timeout");

  private ProtocolVersions() {}
}
