package dev.hicachesync.workload;

import dev.hicachesync.sim.workload.Request;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The requests of a replay expanded once for all ranks of a run: the first rank that needs trace request
 * {@code i} expands its tokens, the others of the same run take the same (immutable) {@link Request}.
 *
 * <p>Why: every rank of a replay expands every prompt from its block ids ({@link BlockTokens}), and the
 * data path seeds each prompt's pages again per rank; a shared request lets them share that per-token work
 * ({@code sim.PromptSeeds} keys on the prompt array). Correctness does not depend on it: an expansion is a
 * pure function of the trace request, so a rank that finds another request in the slot (the ranks drifted
 * more than {@link #SLOTS} arrivals apart) expands its own copy, equal element for element.
 *
 * <p>Any thread: slots are published through an {@link AtomicReferenceArray}, and a request's arrays are
 * never written after it is built.
 */
final class SharedArrivals {
  /** Arrivals kept; the ranks of a domain are at most a few steps apart (RECV is a collective per step). */
  static final int SLOTS = 256;

  private record Slot(int index, Request request) {}

  private final AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(SLOTS);

  /** Returns trace request {@code index}, taking another rank's expansion or making it with {@code expand}. */
  Request get(int index, Supplier<Request> expand) {
    int at = Math.floorMod(index, SLOTS);
    Slot s = slots.get(at);
    if (s != null && s.index == index) {
      return s.request;
    }
    Request r = expand.get();
    slots.set(at, new Slot(index, r));
    return r;
  }
}
