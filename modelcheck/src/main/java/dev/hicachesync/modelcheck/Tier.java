package dev.hicachesync.modelcheck;

import java.util.Locale;

/** Which catalogue run a model belongs to. */
public enum Tier {
  /** The default catalogue: every model, in all, within 10 minutes on 2 cores. */
  CI,
  /** Larger models, run on demand ({@code check --tier deep}). */
  DEEP;

  /** The catalogue spelling ({@code ci}, {@code deep}). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code ci} or {@code deep}; throws {@link IllegalArgumentException} otherwise. */
  public static Tier parse(String text) {
    for (Tier t : values()) {
      if (t.label().equals(text)) {
        return t;
      }
    }
    throw new IllegalArgumentException("tier '" + text + "' is not one of: ci, deep");
  }
}
