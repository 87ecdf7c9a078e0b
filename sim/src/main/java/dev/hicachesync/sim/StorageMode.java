package dev.hicachesync.sim;

import java.util.Locale;

/** Which L3 storage backend a simulation attaches. */
public enum StorageMode {
  /** No L3: no prefetch, no storage backup, no S3/S7. */
  OFF,
  /** The in-memory backend. */
  MEMORY,
  /** The file backend under a temporary (or given) folder. */
  FILE;

  /** Returns the mode named {@code name} (off, memory, file); one-line error otherwise. */
  public static StorageMode parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unknown storage '" + name + "'; expected file, memory or off");
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
