package dev.hicachesync.controller;

/**
 * How {@code unified}'s runtime attach of a storage backend runs step by step, as the controller does it
 * ({@code HybridCacheController.attach_storage_backend} then {@code BaseHiCacheController.attach_storage_backend}
 * @db570fe6; HiCacheUnified.tla Knob {@code attach_steps}): backend creation, the group creation collective
 * ({@code SyncPoint.GROUPS}), the rest of the attach and {@code register_mem_host_pool_v2}, then the outcome.
 *
 * @param failsBeforeGroups Bug {@code ATT_EARLY}: a rank whose backend fails (or whose controller is half
 *     attached) returns failure before the group creation, so its peers wait in {@code GROUPS}; fixed: the
 *     groups are created before anything that can fail
 * @param registerV2Raises Knob {@code attach_register_v2}: a failing attach raises in {@code
 *     register_mem_host_pool_v2}, after the base attach returned and outside its cleanup, and leaves the
 *     controller half attached (threads and groups up, {@code enable_storage} off)
 * @param agree the fix of F1: the outcome MIN-reduced ({@code SyncPoint.ATTACH}) and, when some rank failed,
 *     every rank rolls back; without it each rank sets {@code enable_storage} from its own outcome (Bug {@code
 *     ATT})
 * @param partialRollback Bug {@code ROLLBACK_PARTIAL} (with {@code agree}): only the ranks whose own attach
 *     returned success roll back, a half-attached controller stays half attached
 */
public record StorageAttachSteps(boolean failsBeforeGroups, boolean registerV2Raises, boolean agree,
    boolean partialRollback) {}
