package dev.hicachesync.cli;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;

/**
 * Receives every counterexample {@code check} found, after the text report printed it: the place
 * for another rendering (an HTML report) to hook in. Called on the command's thread, in the order
 * the rows are printed.
 */
@FunctionalInterface
interface Counterexamples {

  /** Ignores them. */
  Counterexamples NONE = (model, topology, result) -> {};

  /**
   * A model's counterexample.
   *
   * @param model the model's name
   * @param topology its parallel sizes (null if unknown)
   * @param result TLC's result; its {@code trace()} holds the parsed trace
   */
  void found(String model, Topology topology, TlcResult result);
}
