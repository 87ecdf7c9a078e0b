package dev.hicachesync.vocabulary;

import java.util.Locale;
import java.util.Optional;

/**
 * An enum constant with a shared-vocabulary name: the string the TLA+ constant takes ({@code merged},
 * {@code page_first}, {@code attn_tp0}).
 */
public interface Labelled {

  /** Returns the shared-vocabulary name. */
  String label();

  /**
   * Returns the constant of {@code type} whose label is {@code name}, ignoring case and surrounding
   * blanks; empty for null or an unknown name (each enum words its own one-line error).
   */
  static <E extends Enum<E> & Labelled> Optional<E> find(Class<E> type, String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (E e : type.getEnumConstants()) {
      if (e.label().equals(wanted)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }
}
