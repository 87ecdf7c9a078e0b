package dev.hicachesync.cli;

import dev.hicachesync.topology.Topology;
import dev.hicachesync.modelcheck.TlcResult;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Receives every counterexample {@code check} found: the place for another rendering (an HTML report)
 * to hook in. Called on the command's thread, in the order the rows are printed; the command prints
 * where the rendering went.
 */
@FunctionalInterface
interface Counterexamples {

  /** Ignores them. */
  Counterexamples NONE = (model, topology, result) -> Optional.empty();

  /**
   * A model's counterexample.
   *
   * @param model the model's name
   * @param topology its parallel sizes (null if unknown)
   * @param result TLC's result; its {@code trace()} holds the parsed trace
   * @return the file it was written to, if any
   */
  Optional<Path> found(String model, Topology topology, TlcResult result);
}
