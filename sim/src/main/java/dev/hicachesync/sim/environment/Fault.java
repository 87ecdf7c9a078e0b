package dev.hicachesync.sim.environment;

import dev.hicachesync.controller.ControllerFaults;

/**
 * Deliberate protocol bugs the simulator can inject so that tests prove the invariant checks catch them.
 * Off by default; each applies to every rank (a code bug), and the ranks' timing skew makes it
 * bite.
 */
public enum Fault {
  /** B3 (#10127): {@code writing_check} returns before its collective when no write ack is ready here. */
  SKIP_IDLE_WRITE_CHECK,
  /** B5: {@code loading_check} pops this rank's own count of ready load acks, without the MIN. */
  UNSYNCED_LOADING_CHECK,
  /**
   * B10 (#30760): the admission loop breaks on a rank-local "batch full" condition before it has checked
   * the prefetches of the requests behind, so ranks make different numbers of S4/S5 collectives.
   */
  EARLY_ADMISSION_EXIT,
  /**
   * B7 before #27010: a stopped prefetch hands back its unread host slots at once, while the rank's I/O
   * thread may still be writing them ({@code HostSlotSafety}).
   */
  EARLY_TAIL_RELEASE,
  /**
   * {@link #EARLY_TAIL_RELEASE} in a build whose host slot ledger does not check frees: the slots go back
   * to the pool and are reused while the read still lands in them, so only the data path's integrity
   * checks (corrupted bytes, reported as {@code HostSlotSafety}) can see it.
   */
  EARLY_SLOT_REUSE,
  /**
   * Knob {@code uneven_capacity} (and {@code local_pool_sizes} with pools one page apart): rank 0's host pool
   * is one page larger than its peers', a pool sized per rank (from the memory that rank has free) instead of
   * the size agreed at start-up; an allocation that fails on the peers then succeeds on rank 0 ({@code
   * AllocAgreement}).
   */
  LARGER_HOST_POOL_ON_RANK0,
  /**
   * Knob {@code shared_group}: the prefetch thread reduces S7 on the scheduler's groups (the same group
   * objects) instead of groups of its own, so its calls pair with the scheduler's calls of a peer whose
   * prefetch thread has not run yet ({@code CollectiveMatching}).
   */
  SHARED_PREFETCH_GROUPS,
  /**
   * Knob {@code local_payload}: S3's vector ends at the rank's last non-empty storage control queue, so its
   * length is rank-local data and the peers' calls do not match ({@code CollectiveMatching}).
   */
  LOCAL_S3_PAYLOAD,
  /**
   * Knob {@code local_clock}: a rank's clock orders the LRU timestamps of its nodes the other way from its
   * peers' (timestamps within the clock's resolution, or taken on another thread), from the step its timing
   * says ({@code Timing.lruClockSkewed}: the odd ranks, seeded); it then evicts the most recently used leaf
   * first, and the trees differ ({@code TreeAgreement}).
   */
  LOCAL_LRU_CLOCK,
  /**
   * B6 (before #27285, {@code HiCachePipeline.tla}'s PPSync {@code stage_local}, model {@code b6_stage_local}):
   * with PP, each stage reduces its event checks (S1/S2/S3, S123) and prefetch decisions (S4, S5) over its own
   * CP×TP groups and pops what its own ranks have ready, instead of stage 0 deciding and forwarding the counts
   * down the pipeline; stages whose acks complete at different times pop different counts ({@code TreeAgreement}).
   */
  PP_STAGE_LOCAL_SYNC,
  /**
   * Knob {@code local_pool_sizes} with PP ({@code pp_knob_local_pool_sizes}): a later stage sizes its device pool
   * from its own free memory (it holds other layers), twice the pages agreed at start-up, instead of the MIN over
   * the world; with its own pool it need not evict what stage 0 evicts ({@code TreeAgreement}).
   */
  LARGER_DEVICE_POOL_ON_LATER_STAGES,
  /**
   * B19 and B6's rejected fix ({@code HiCachePipeline.tla}'s PPSync {@code world_allreduce}, models {@code
   * b6_world_allreduce}, {@code b19_world_collective}): the scheduler's sync points reduce in one symmetric
   * all_reduce over the whole sync domain, every stage, while a later stage waits for its upstream stage's step
   * before its own: a circular wait ({@code CollectiveMatching}, by the collective's timeout).
   */
  PP_WORLD_ALLREDUCE,
  /**
   * Knob {@code local_order}: a rank's schedule policy orders the waiting queue from rank-local state (SGLang's
   * random policy shuffling on a random state this rank drew from differently), from the step its timing says
   * ({@code Timing.queueOrderSkewed}: the odd ranks, seeded); its admission loop then looks at the newest
   * waiting request first, and with two waiting the ranks admit different ones ({@code TreeAgreement}).
   */
  LOCAL_QUEUE_ORDER,
  /**
   * Knob {@code release_whole} (#9797 before its fix): an aborted prefetch's host slots go to the release queue
   * as one entry per call, the scheduler's (the pages this rank has read) and the I/O thread's (the rest), so
   * the number of entries depends on how far this rank's read got and S3's MIN frees different slots on the
   * ranks ({@code AckAgreement}, then {@code AllocAgreement}).
   */
  RELEASE_WHOLE,
  /**
   * Knob {@code abort_unlock_load}: the abort of a running request (its timing's {@code Timing.abortsRunning}, or
   * the run's seeded aborts of running requests) drops its load-back's lock along with the request's, before S2
   * pops the load ack; an admission can then evict the pages the load still writes ({@code HostSlotSafety}).
   */
  ABORT_UNLOCKS_LOAD,
  /**
   * Knob {@code sidecar} (a scenario, not a bug): every rank's KV pool has a sidecar pool, a second per-page pool
   * a prefetch reads from storage beside its KV pages ({@code controller.SidecarPool}, as the indexer pool of a
   * {@code DSATokenToKVPool}), with the fixed protocol (#31443, #27550). The versions before {@code unified}.
   */
  SIDECAR_POOL,
  /**
   * Knob {@code local_extra_pools}: {@link #SIDECAR_POOL} on every rank but rank 0, whose KV pool has no indexer
   * pool; its S5 vector is one entry shorter than its peers' ({@code CollectiveMatching}).
   */
  LOCAL_EXTRA_POOLS,
  /** B14 (#31443 before its fix), with {@link #SIDECAR_POOL}: S5 reduces the KV page count only ({@code SidecarCoverage}). */
  SIDECAR_MIN_KV_ONLY,
  /** B14sum, with {@link #SIDECAR_POOL}: S5 counts sidecar successes by sum, not by leading run ({@code SidecarCoverage}). */
  SIDECAR_SUM_COUNT,
  /**
   * B15 (#27550 before its fix), with {@link #SIDECAR_POOL}: {@code best_effort} returns early, rank-local, on a
   * rank whose sidecar read is pending, before S5's MIN, which its peers then wait in ({@code CollectiveMatching}).
   */
  SIDECAR_EARLY_RETURN,
  /**
   * Knob {@code pf_thread_dies} (spec action {@code PrefetchThreadDies}): a rank's storage query raises and its
   * prefetch thread ends silently ({@code prefetch_thread_func}'s loop catches only {@code queue.Empty}), at the
   * step its timing says ({@code Timing.prefetchThreadDies}: rank 0 before its first pass, seeded); a peer that
   * posted S7 for an operation this rank never queries waits there for ever ({@code PrefetchThreadNeverStuck}),
   * which the implementation reports as S7's collective timeout ({@code CollectiveMatching}).
   */
  PREFETCH_THREAD_DIES,
  /**
   * B7 before #27010 ({@code HiCachePipeline.tla}'s bug {@code B7}, model {@code b7_hit_cp_tp_only}): with PP, the
   * prefetch thread's S7 reduces over its stage's CP×TP groups only, not the pp group as well; each stage queries
   * its own storage keys, so stages whose hits differ read different prefixes ({@code PrefetchAgreement}).
   */
  PP_STAGE_LOCAL_PREFETCH_HITS,

  // ---- version unified (HiCacheUnified.tla, docs/explanation/unified.md): each bug TLC found, and where the bug is a
  // scenario that does not happen without it (a waiting timeout, a runtime attach, a raising backend), the
  // same scenario with the fix, so the fixed twin runs the same path.

  /**
   * #36425 with a rank-local terminate (model {@code unified_s4_short_circuit_io_term}): a failed read marks
   * the operation terminated on its rank only, and the {@code is_terminated()} short-circuit skips S4 there.
   */
  LOCAL_TERMINATE,
  /**
   * PD decode before #29483 ({@code unified_pd_decode_load_back}): a rank whose own load-back event is done
   * runs {@code loading_check}'s MIN (S2) right after S123; its peers never join it.
   */
  PD_DECODE_LOAD_READINESS,
  /**
   * PD decode's local restores (knob {@code pd_decode}, {@code unified_pd_decode_fixed}; a scenario, not a bug):
   * each request's prompt is on the rank's host tier when it arrives ({@code CacheController#restoreOnHost}),
   * so its admission loads it back ({@code init_load_back}) and the load-back's event is what S123's load count
   * and, with {@link #PD_DECODE_LOAD_READINESS}, {@code is_load_back_event_done} poll.
   */
  PD_DECODE_RESTORE,
  /**
   * #27221 ({@code unified_wait_timeout_local_clock}): {@code _abort_on_waiting_timeout} aborts a request
   * that waited {@link #WAITING_TIMEOUT} ticks on each rank's own clock.
   */
  WAITING_TIMEOUT_LOCAL_CLOCK,
  /**
   * #37143, the fix of {@link #WAITING_TIMEOUT_LOCAL_CLOCK} ({@code unified_wait_timeout_fixed}): the same
   * timeout decided once and broadcast, modelled as the waited step count, identical on every rank.
   */
  WAITING_TIMEOUT_BROADCAST,
  /**
   * #38428 ({@code unified_b38428_backup_dies}): rank 0's storage backend raises at its first backup and
   * its backup thread dies; no later backup of that rank is ever acked ({@code AcksConsumed} after a drain).
   */
  BACKUP_THREAD_DIES,
  /** #38427, the fix of {@link #BACKUP_THREAD_DIES}: the same raise, caught, and the backup acked. */
  BACKUP_RAISE_ACKED,
  /** Knob {@code backup} (a scenario): each admission queues its node's storage backup ({@code write_backup_storage}). */
  BACKUP_AT_ADMISSION,
  /** Knob {@code stage_extra_pools}: stage 0's extra host pool lengthens its S123 vector ({@code PipeMatching}). */
  STAGE_EXTRA_POOLS,
  /** Knob {@code pad_pools}, the fix of {@link #STAGE_EXTRA_POOLS}: every stage's vector has the entry (0). */
  PADDED_POOL_VECTORS,
  /** Knob {@code buffer_only}'s write staging (a scenario): each backup through a staging page ({@code BufFlush}). */
  BUFFER_WRITE_STAGING,
  /** Bug {@code STAGE_LOCAL}: {@link #BUFFER_WRITE_STAGING} with each page freed on the backup thread (AllocAgreement). */
  STAGING_FREED_ON_BACKUP_THREAD,
  /**
   * F1, docs/explanation/findings/F1-attach-outcome-per-rank.md ({@code unified_attach_local_outcome}): storage starts detached and is attached at
   * runtime at step {@link #ATTACH_STEP}; the backend fails to initialise on the odd ranks, each rank sets
   * {@code enable_storage} from its own outcome, and S123's payload length differs across ranks.
   */
  ATTACH_FAILS_LOCALLY,
  /**
   * The fix of {@link #ATTACH_FAILS_LOCALLY} ({@code unified_attach_fixed}): the same failing attach, its
   * outcome MIN-reduced before {@code enable_storage} flips (every rank stays detached).
   */
  ATTACH_AGREED,
  // ---- version unified with PP > 1 (HiCacheUnifiedPipeline.tla, docs/explanation/pipeline.md). Both put the later
  // stages' storage threads behind their schedulers ({@link ControllerFaults#lateDeposits()}); they differ in
  // how a later stage drains stage 0's forwarded S123 counts.
  /**
   * F2, docs/explanation/findings/F2-pp-drain-nowait.md ({@code unipp_forwarded_nowait}): a later stage drains stage 0's counts with {@code
   * _drain_queue}'s {@code get_nowait}, stopping at an entry its own prefetch thread has not queued yet.
   */
  PP_DRAIN_NOWAIT,
  /**
   * The fix of {@link #PP_DRAIN_NOWAIT} ({@code unipp_forwarded_blocking}): the same late threads, and the
   * later stage waits until its own queues hold the forwarded counts (the protocol's own drain).
   */
  PP_DRAIN_BLOCKING,
  /**
   * The runtime attach that succeeds everywhere ({@code unified_attach_all_ok}): storage starts detached and
   * is attached at step {@link #ATTACH_STEP} as today's code does it (each rank keeps its own outcome, no
   * agreement), with every rank's backend initialising: S123 grows from 4 to 8 entries on every rank at that
   * step, and nothing diverges. A scenario, not a bug.
   */
  ATTACH_ALL_OK,
  /**
   * Knob {@code sync_shared_group} ({@code unified_sync_shared_group}): the completion-sync thread reduces its
   * batch acks (S5) on the scheduler's group objects instead of groups of its own, so its calls pair with the
   * scheduler's calls of a peer whose thread has not run yet ({@code CollectiveMatching}).
   */
  SHARED_COMPLETION_GROUPS,
  /**
   * The drain before #37562 ({@code unipp_stage_local_drain}, HiCacheUnifiedPipeline.tla's Drain {@code
   * stage_local}): a later stage does not take stage 0's forwarded S123 counts; its scheduler reduces over its
   * own stage's grid ({@code drain_storage_control_queues} with {@code _all_reduce_attn_groups} @db570fe6), so
   * each stage drains its own storage queues by its own MIN.
   */
  PP_DRAIN_STAGE_LOCAL,
  /**
   * Knob {@code s7_stage_mask} ({@code unipp_s7_stage_mask}, #39267 open; HiCacheUnifiedPipeline.tla's PfQuery):
   * S7's payload is a per-page hit mask as long as the stage's own prefetch key, so stage 0, whose matched key
   * is one page longer here, posts one element more on the pp-spanning group than the later stages ({@code
   * CollectiveMatching}: the collective's size check).
   */
  S7_STAGE_MASK,
  // ---- version unified: the runtime attach step by step (HiCacheUnified.tla's attach section), with one of
  // attach_fails_locally / attach_agreed (which ranks fail, whose outcome counts).
  /**
   * Knob {@code attach_steps} ({@code unified_attach_group_creation_fixed}; a scenario, not a bug): the runtime
   * attach as {@code attach_storage_backend} runs it, each rank creating the prefetch sync groups (a world
   * collective, GROUPS) before the rest of its attach and the outcome.
   */
  ATTACH_STEPS,
  /**
   * Bug {@code ATT_EARLY} ({@code unified_attach_group_creation}, with {@link #ATTACH_STEPS}): a rank whose
   * backend fails returns failure before the group creation and goes on to S123 while its peers wait in GROUPS.
   */
  ATTACH_FAILS_BEFORE_GROUPS,
  /**
   * Knob {@code attach_register_v2} ({@code unified_attach_register_v2}, with {@link #ATTACH_STEPS}): a failing
   * attach raises in {@code register_mem_host_pool_v2}, outside the cleanup, leaving the controller half
   * attached.
   */
  ATTACH_REGISTER_V2_RAISES,
  /**
   * Bug {@code ROLLBACK_PARTIAL} ({@code unified_attach_register_v2_partial_rollback}, with {@link
   * #ATTACH_AGREED}): after a failed agreed attach only the ranks whose own attach succeeded roll back.
   */
  ATTACH_PARTIAL_ROLLBACK,
  /**
   * Knob {@code attach_retry} (with {@link #ATTACH_STEPS}): a failed attach is retried at the next step until it
   * succeeds; a backend fails at most at its first attach.
   */
  ATTACH_RETRY,
  /**
   * S123's digest conjunct as {@code HiCacheUnified.tla} models it (a scenario, not a bug): every rank sends a
   * constant pair, so a tree that diverged is not named at S123 ({@code TreeAgreement} then holds the ranks to
   * the next lockstep point, RECV, as the spec's invariant does). The consensus-checker replays run with it: the
   * checker is compared on the spec's behaviour, in which the code's own digest assert is abstracted away.
   */
  CONSTANT_DIGEST_PAIR,
  /**
   * Knob {@code tickets} ({@code unipp_tickets}, HiCacheUnifiedPipeline.tla; SGLang #36700, {@code PPPrefetchTicket}):
   * only stage 0's prefetch thread queries storage, its S7 reduces over stage 0's grid, and the synced hit travels
   * to the later stages in a ticket ({@code controller.PpPrefetchTicket}); S7 no longer spans the pp group. A
   * scenario, not a bug.
   */
  PP_PREFETCH_TICKETS,
  /**
   * Knob {@code own_hit} over {@link #PP_PREFETCH_TICKETS} ({@code unipp_tickets_own_hit}): a later stage's ticket
   * worker takes its own storage hit count instead of the ticket's ({@code TreeAgreement}).
   */
  TICKET_OWN_HIT,
  /**
   * Bug {@code TKLOCAL} over {@link #PP_PREFETCH_TICKETS} ({@code unipp_tickets_stage_completion}): the completion MIN
   * of a ticketed prefetch (S5) reduces over the stage only, not the pp group, so a stage whose read failed falls
   * back alone ({@code PrefetchAgreement}).
   */
  TICKET_STAGE_COMPLETION,
  /**
   * Knob {@code pf_raise} ({@code unified_pf_thread_dies_fixed}; a scenario, not a bug): a storage hit query of a
   * rank's prefetch thread raises (spec action {@code PfRaise}; rank 0's first query, {@code
   * Timing.storageHitQueryRaises}; a replay: where the counterexample's {@code PfRaise} is) and, as fixed, counts
   * as 0 hit pages.
   */
  PF_RAISE,
  /**
   * Bug {@code PFDIE} ({@code unified_pf_thread_dies}), the raise of {@link #PF_RAISE} before its fix: it ends the
   * rank's prefetch thread ({@code prefetch_thread_func} catches only {@code queue.Empty}), so a peer's S7 for the
   * operation waits for ever ({@code RequestsProgress} under {@code wait_complete}), which the implementation
   * reports as S7's collective timeout ({@code CollectiveMatching}).
   */
  PF_RAISE_THREAD_DIES,

  // ---- version unified, PD prefill (HiCacheUnifiedPP.tla): the bootstrap queue and its consensus ring.
  /**
   * PD prefill's bootstrap queue (HiCacheUnifiedPP.tla, a scenario, not a bug): an arriving request's storage
   * prefetch starts at once ({@code _add_request_to_queue}'s {@code _prefetch_kvcache}) while it waits in the
   * bootstrap queue; at each step the bootstrap ring ({@code _pp_pd_get_bootstrapped_ids}: stage 0 polls, the
   * later stages intersect and forward) moves the requests whose KV bootstrap completed into every stage's
   * waiting queue at the same step ({@code sim.PdBootstrapQueue}); each stage then admits on its own {@code
   * check_prefetch_progress}.
   */
  PD_PREFILL_BOOTSTRAP,
  /**
   * Ready {@code thread} of HiCacheUnifiedPP.tla ({@code unified_pp_thread_ready}; the PP-ticket hypothesis of
   * #36700): under {@code wait_complete} a prefetch counts as done once the rank's completion-sync thread queued
   * its final ack, before its scheduler drains it ({@code TreeAgreement} by step across the stages).
   */
  PP_THREAD_READINESS,

  // ---- version pipelined (proposal #39903, HiCacheSync.tla's Version "pipelined"): S123 issued asynchronously
  // and consumed at the next step (controller.PipelinedEventChecks).
  /**
   * Bug {@code P1} ({@code pipelined_p1_cp2}): the local counts for the next asynchronous S123 MIN are read before
   * the previous step's result is consumed, so an entry that result pops is counted again and a later result pops
   * an entry the rank no longer has ({@code HostSlotSafety}).
   */
  PIPELINED_COUNTS_BEFORE_CONSUMING,
  /**
   * Knob {@code async_rank_off} ({@code knob_async_rank_off}): rank 0 never issues the asynchronous S123 (its
   * asynchronous path off there only), so its peers' all-reduce never completes; their next wait on the handle
   * ends at the collective's timeout ({@code CollectiveMatching}; the spec's {@code AsyncNeverStuck}).
   */
  ASYNC_RANK_OFF;

  /** Ticks (the bug) or steps (the fix) a request may wait before the waiting-queue timeout aborts it. */
  public static final long WAITING_TIMEOUT = 6;
  /** The step at which the runtime attach of {@link #ATTACH_FAILS_LOCALLY}, {@link #ATTACH_AGREED}, {@link #ATTACH_ALL_OK} runs. */
  public static final long ATTACH_STEP = 20;

  /** Returns whether this kind exists only in version {@code unified}. */
  public boolean unifiedOnly() {
    return ordinal() >= LOCAL_TERMINATE.ordinal() && !pipelinedOnly();
  }

  /** Returns whether this kind exists only in version {@code pipelined} (its asynchronous S123). */
  public boolean pipelinedOnly() {
    return this == PIPELINED_COUNTS_BEFORE_CONSUMING || this == ASYNC_RANK_OFF;
  }
}
