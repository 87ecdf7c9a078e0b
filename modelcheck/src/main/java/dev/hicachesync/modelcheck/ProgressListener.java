package dev.hicachesync.modelcheck;

/** Receives TLC's output while a model runs (called from the runner's reader thread). */
public interface ProgressListener {

  /** Ignores everything. */
  ProgressListener NONE = new ProgressListener() {};

  /** TLC was started for the model {@code name}. */
  default void started(String name) {}

  /** TLC was started for the model {@code name} with {@code workers} workers. */
  default void started(String name, int workers) {
    started(name);
  }

  /** TLC printed {@code message} (its {@code -tool} output; see {@link TlcOutput}). */
  default void message(TlcMessage message) {}

  /** TLC ended (or was stopped). */
  default void finished() {}
}
