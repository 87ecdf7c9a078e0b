package dev.hicachesync.tier;

import dev.hicachesync.vocabulary.Labelled;

/** The physical order of a host pool's bytes (PROTOCOL.md §7, SGLang {@code memory_pool_host.py}). */
public enum HostLayout implements Labelled {
  /** {@code layer_first}: [layer][page], like the GPU pool; a page is {@code layers} separate slices. */
  LAYER_FIRST("layer_first"),
  /** {@code page_first}: [page][layer]; a page's layers are contiguous, so storage I/O is zero-copy. */
  PAGE_FIRST("page_first");

  private final String label;

  HostLayout(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code page_first}. */
  @Override
  public String label() {
    return label;
  }

  /** Parses {@code layer_first} or {@code page_first}; throws {@link IllegalArgumentException} otherwise. */
  public static HostLayout parse(String s) {
    return Labelled.find(HostLayout.class, s).orElseThrow(() -> new IllegalArgumentException(
        "unknown host layout '" + s + "'; expected layer_first or page_first"));
  }
}
