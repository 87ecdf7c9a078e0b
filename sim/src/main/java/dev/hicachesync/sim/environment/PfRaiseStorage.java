package dev.hicachesync.sim.environment;

import dev.hicachesync.storage.ForwardingStorageBackend;
import dev.hicachesync.storage.PageKey;
import dev.hicachesync.storage.StorageBackend;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The L3 store of a rank whose storage hit query can raise (knob {@code pf_raise}, spec action {@code PfRaise}):
 * before each {@link #leadingHits} (S7's query, {@code _storage_hit_query}'s {@code batch_exists}) it asks the
 * rank's timing ({@link Timing#storageHitQueryRaises}) and throws {@link StorageQueryRaised} when told to; every
 * other call goes to the store it wraps. Only the faults {@link Fault#PF_RAISE} and {@link
 * Fault#PF_RAISE_THREAD_DIES} wrap a store, so a run without them queries its store as before.
 */
public final class PfRaiseStorage extends ForwardingStorageBackend {

  /** What a raising storage hit query throws. */
  public static final class StorageQueryRaised extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StorageQueryRaised() {
      super("the storage hit query raised (PfRaise)");
    }
  }

  private final BooleanSupplier raises;

  private PfRaiseStorage(StorageBackend store, BooleanSupplier raises) {
    super(store);
    this.raises = raises;
  }

  /** {@code store} as a rank sees it under {@code faults}: wrapped when a pf_raise fault is on, else itself. */
  public static StorageBackend wrap(Set<Fault> faults, StorageBackend store, BooleanSupplier raises) {
    boolean on = faults.contains(Fault.PF_RAISE) || faults.contains(Fault.PF_RAISE_THREAD_DIES);
    return on && store != null ? new PfRaiseStorage(store, raises) : store;
  }

  @Override
  public int leadingHits(List<PageKey> keys) {
    if (raises.getAsBoolean()) {
      throw new StorageQueryRaised();
    }
    return inner().leadingHits(keys);
  }

  @Override
  public String describe() {
    return inner().describe();
  }
}
