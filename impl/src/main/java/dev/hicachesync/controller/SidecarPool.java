package dev.hicachesync.controller;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One rank's sidecar pool: a second per-page host pool that a prefetch reads from storage beside its KV
 * pages (SGLang's extra pools, {@code hiradix_cache.py::_get_extra_pools}: the indexer pool of a {@code
 * DSATokenToKVPool}). A rank has one iff its own KV pool does, so it is a per-rank fact: a rank without one
 * sends a shorter S5 vector (knob {@code local_extra_pools}, {@code CollectiveMatching}).
 *
 * <p>What it changes, as the fix of #31443 and #27550 has it: the I/O thread reads the sidecar page of every
 * hit page one by one, independently of the KV pages, and goes on after a failed one ({@link
 * #storageReadsSidecarPage}); a prefetch whose sidecar read is pending may not stop ({@link #pending}, S4: with
 * {@code best_effort} too, which then takes S4's MAX instead of skipping it); S5 reduces {@code [KV tokens,
 * sidecar tokens]} counting only the leading run of sidecar successes ({@link #s5Value}); and no page is
 * inserted without its sidecar page ({@link #checkCoverage}, {@code SidecarCoverage}). The sidecar's host
 * slots are not tracked: only how many pages were read matters to the protocol.
 */
final class SidecarPool {
  private final RankState s;
  private final SidecarFaults faults;
  /** Each reading prefetch's sidecar progress, by request id. I/O thread writes, scheduler reads. */
  private final Map<String, Progress> reads = new ConcurrentHashMap<>();

  SidecarPool(RankState s, SidecarFaults faults) {
    this.s = s;
    this.faults = faults;
  }

  SidecarFaults faults() {
    return faults;
  }

  /** The sidecar reads of one prefetch: pages attempted, the leading run read, all read (the spec's sn, sc, ss). */
  private static final class Progress {
    private int attempted;
    private int leading;
    private int succeeded;

    synchronized int land(boolean ok) {
      if (ok && leading == attempted) {
        leading++;
      }
      succeeded += ok ? 1 : 0;
      return ++attempted;
    }

    synchronized int attempted() {
      return attempted;
    }

    synchronized int leading() {
      return leading;
    }

    synchronized int succeeded() {
      return succeeded;
    }
  }

  /** The S7 outcome reached this rank and its KV read begins: the sidecar read of the hit begins too. I/O thread. */
  void startReads(PrefetchOperation op) {
    Progress p = new Progress();
    reads.put(op.rid(), p);
    readNext(op, p);
  }

  private void readNext(PrefetchOperation op, Progress p) {
    s.env().background(TransferKind.SIDECAR_READ, 1, ok -> storageReadsSidecarPage(op, p, ok));
  }

  /**
   * {@code StorageReadsSidecarPage}: the next sidecar page landed ({@code ok}) or failed; the reader goes on to
   * the next page either way, while the prefetch is reading (a terminated one reads no more). I/O thread.
   */
  private void storageReadsSidecarPage(PrefetchOperation op, Progress p, boolean ok) {
    if (op.state() != PrefetchState.READING) {
      return;
    }
    if (p.land(ok) < op.hitPages()) {
      readNext(op, p);
    }
  }

  /** {@code SidecarPending}: a sidecar page of this reading prefetch is still to come on this rank. */
  boolean pending(PrefetchOperation op) {
    Progress p = reads.get(op.rid());
    return op.state() == PrefetchState.READING && (p == null ? 0 : p.attempted()) < op.hitPages();
  }

  /** S5's local vector: {@code [kvTokens]} (B14), with the sidecar's successes by sum (B14sum) or leading run. */
  long[] s5Value(PrefetchOperation op, long kvTokens) {
    if (faults.minKvOnly()) {
      return new long[] {kvTokens};
    }
    Progress p = reads.get(op.rid());
    int pages = p == null ? 0 : faults.sumCount() ? p.succeeded() : p.leading();
    return new long[] {kvTokens, (long) pages * s.config().pageSize()};
  }

  /**
   * {@code SidecarCoverage}: S5 inserted {@code pages} pages of {@code op}; each must have its sidecar page read
   * here (the leading run), else the host tree pairs KV pages with stale sidecar data. Forgets the prefetch.
   */
  void checkCoverage(PrefetchOperation op, int pages) {
    Progress p = reads.remove(op.rid());
    int covered = p == null ? 0 : p.leading();
    if (pages > covered) {
      throw new InvariantViolation(Invariant.SidecarCoverage, "prefetch " + op.rid() + " inserted " + pages
          + " host pages, " + (pages - covered) + " of them without their sidecar page read on this rank");
    }
  }
}
