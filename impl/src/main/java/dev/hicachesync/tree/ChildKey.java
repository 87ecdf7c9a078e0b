package dev.hicachesync.tree;

import java.util.Arrays;

/** The first page of a child's key: how a node finds the child a token sequence continues into. */
final class ChildKey {
  private final int[] page;
  private final int hash;

  ChildKey(int[] tokens, int from, int pageSize) {
    this.page = Arrays.copyOfRange(tokens, from, from + pageSize);
    this.hash = Arrays.hashCode(page);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChildKey k && k.hash == hash && Arrays.equals(k.page, page);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
