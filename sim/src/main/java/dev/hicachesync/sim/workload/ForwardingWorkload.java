package dev.hicachesync.sim.workload;

import java.util.List;

/**
 * A {@link Workload} that asks another for everything: the base of decorators that change the requests
 * (a soak's aborted requests) and pass the rest through. {@link #delegate} lets a report find the
 * workload underneath (a trace replay's per-request tiers live in it).
 */
public abstract class ForwardingWorkload implements Workload {
  private final Workload inner;

  protected ForwardingWorkload(Workload inner) {
    this.inner = inner;
  }

  /** Returns the workload this one forwards to. */
  public Workload delegate() {
    return inner;
  }

  /** Returns the innermost workload under any number of forwarding decorators. */
  public static Workload unwrap(Workload w) {
    Workload out = w;
    while (out instanceof ForwardingWorkload f) {
      out = f.inner;
    }
    return out;
  }

  @Override
  public List<Request> arrivals(long step) {
    return inner.arrivals(step);
  }

  @Override
  public void admitted(Request r, int deviceTokens, int hostTokens, int storageTokens) {
    inner.admitted(r, deviceTokens, hostTokens, storageTokens);
  }

  @Override
  public String describe() {
    return inner.describe();
  }
}
