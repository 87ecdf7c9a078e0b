package dev.hicachesync.collective;

/** Element-wise reduction of an all-reduce. */
public enum ReduceOp {
  MIN {
    @Override
    public long apply(long a, long b) {
      return Math.min(a, b);
    }
  },
  MAX {
    @Override
    public long apply(long a, long b) {
      return Math.max(a, b);
    }
  },
  /** Overflow wraps, as a {@code long} sum does; payloads are counts, far from the limit. */
  SUM {
    @Override
    public long apply(long a, long b) {
      return a + b;
    }
  };

  /** Returns the reduction of two elements. */
  public abstract long apply(long a, long b);
}
