package dev.hicachesync.controller;

/**
 * Deliberate bugs of the sidecar pool ({@link SidecarPool}), a simulator and test seam like {@link
 * ControllerFaults}; {@link #NONE} is the protocol as fixed (#31443, #27550).
 *
 * @param minKvOnly B14 (#31443 before its fix): S5 reduces the KV page count alone, so a rank inserts pages
 *     whose sidecar page it has not read ({@code SidecarCoverage})
 * @param sumCount B14sum: S5 counts the sidecar's successful pages by sum, not by their leading run, so a
 *     failed sidecar page followed by a successful one still counts as covered ({@code SidecarCoverage})
 * @param earlyReturn B15 (#27550 before its fix): {@code best_effort} returns from {@code
 *     check_prefetch_progress} on a rank whose sidecar transfer is pending, rank-local, before S5's MIN; the
 *     peers are left in the collective ({@code CollectiveMatching})
 */
public record SidecarFaults(boolean minKvOnly, boolean sumCount, boolean earlyReturn) {
  /** No fault: the fixed protocol. */
  public static final SidecarFaults NONE = new SidecarFaults(false, false, false);
}
