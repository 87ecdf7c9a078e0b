package dev.hicachesync.modelcheck;

import java.util.List;

/** The protocol versions the specification knows (TLA+ constant {@code Version}). */
public final class ProtocolVersions {

  /** Every version, in historical order. */
  public static final List<String> ALL = List.of("pre20460", "post20460", "merged", "pipelined");

  /**
   * Every version a catalogue model may name: {@link #ALL} (module HiCacheSync and its
   * siblings) and {@code unified}, SGLang's unified radix cache since #35081, which has its own
   * module (spec/HiCacheUnified.tla).
   */
  public static final List<String> CATALOGUE = List.of("pre20460", "post20460", "merged", "pipelined", "unified");

  /** SGLang's unified radix cache (#35081): its own module, {@code HiCacheUnified} (PP 1, DP 1). */
  public static final String UNIFIED = "unified";

  /**
   * The version of an ad-hoc {@code check} that names none: the protocol SGLang runs today.
   * The catalogue keeps every earlier model and verdict.
   */
  public static final String ADHOC_DEFAULT = UNIFIED;

  /** Every version an ad-hoc model may name: {@link #ALL} and {@link #UNIFIED}. */
  public static final List<String> ADHOC = CATALOGUE;

  /** The prefetch policies (TLA+ constant {@code Policy}). */
  public static final List<String> POLICIES = List.of("best_effort", "wait_complete", "timeout");

  private ProtocolVersions() {}
}
