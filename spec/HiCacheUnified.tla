--------------------------- MODULE HiCacheUnified ---------------------------
(***************************************************************************)
(* Protocol version `unified`: the cache sync of SGLang's unified radix    *)
(* cache, which every configuration runs since #35081 (merge 44806dc5,     *)
(* 21 Aug 2026). One sync domain of CP x TP ranks, PP = 1.                 *)
(*                                                                          *)
(* SOURCES. "@db570fe6" = bytedance-iaas/sglang at db570fe6 (upstream      *)
(* 22 Aug 2026); "@later" = the later upstream copy of                     *)
(* unified_radix_cache.py with #27010 and #36425 held by the search corpus *)
(* (its repository and commit are not named there; see docs/explanation/unified.md).   *)
(* Every action cites file::function @commit.                              *)
(*                                                                          *)
(* WHAT CHANGED against `merged` (HiCacheSync.tla, hiradix_cache.py):      *)
(*  - S123 is one MIN vector per step, [write acks, load acks, storage     *)
(*    queue sizes..., digest, -digest]; the storage part (hit queue,       *)
(*    ack-prefetch queue, backup acks, release queue, extra pools) is      *)
(*    present only while storage is enabled, so the payload LENGTH depends *)
(*    on enable_storage (runtime attach/detach, #15892 / #35269);           *)
(*    unified_radix_cache.py::_sync_hicache_ready_counts @db570fe6/@later. *)
(*  - the revoke queue is gone: S7's MIN only records the hit count; host  *)
(*    memory is allocated (or the prefetch revoked) by the scheduler when  *)
(*    it drains the hit queue at S123 (#19320, #33613);                    *)
(*    unified_radix_cache.py::_drain_storage_control_queues_impl           *)
(*    ._try_alloc_storage_hit @db570fe6.                                   *)
(*  - reads complete through per-batch acks: the IO thread emits one ack   *)
(*    per batch even after a failure, a completion-sync thread MIN-reduces *)
(*    each ack on its own groups, and the scheduler applies the acks it    *)
(*    drains at S123 (#27010); a wait_complete prefetch is inserted when   *)
(*    its final ack is drained; cache_controller.py::prefetch_sync_thread_ *)
(*    func, _reduce_prefetch_ack; unified_radix_cache.py::                 *)
(*    _drain_ack_prefetch @later.                                          *)
(*  - S4 runs only under `timeout`, after a rank-local                      *)
(*    `operation.is_terminated() or ...` short-circuit (#36425);           *)
(*    unified_radix_cache.py::check_prefetch_progress,                     *)
(*    _can_terminate_prefetch @later.                                      *)
(*                                                                          *)
(* PATHS THAT LEAVE A COLLECTIVE ON RANK-LOCAL STATE (each a Knob, with    *)
(* its bug (Bugs) and its fix):                                             *)
(*  "batch_full"   the admission loop's rank-local batch-full break before *)
(*                 check_prefetch_progress (#30760); Bugs "B10" = the loop *)
(*                 as today (and #33029, whose hasattr guard leaves        *)
(*                 UnifiedRadixCache on this path); fixed = #33029's       *)
(*                 pre-loop check of every ongoing prefetch.               *)
(*  "pd_decode"    PD decode: is_load_back_event_done polls the rank-local *)
(*                 load event and only then calls loading_check (a MIN);   *)
(*                 Bugs "PDLB" = today (@db570fe6); fixed = a pure poll    *)
(*                 (#29483).                                               *)
(*  "wait_timeout" _abort_on_waiting_timeout on each rank's own clock,     *)
(*                 then release_aborted_request's barrier; Bugs "WTO" =    *)
(*                 @db570fe6; fixed = one rank decides and the decision is *)
(*                 broadcast with the requests (#37143).                   *)
(*  "attach"       runtime attach of a storage backend: each rank's        *)
(*                 attach may fail on its own (backend init); Bugs "ATT" = *)
(*                 @db570fe6 (no agreement on the outcome); fixed = the    *)
(*                 outcome is MIN-reduced before enable_storage flips.     *)
(*  "backup_raise" the storage backend raises in the backup thread;        *)
(*                 Bugs "B38428" = the thread dies (@db570fe6); fixed =    *)
(*                 failure caught and acked (#38427).                      *)
(*  "io_term"      a rank-local mark_terminate() on a read failure (as     *)
(*                 cache_controller.py::_page_transfer did @db570fe6):     *)
(*                 with #36425's short-circuit a rank skips S4.            *)
(*                                                                          *)
(* BUFFER-ONLY HOST MEMORY (#34798, 977412ae, 18 Aug 2026; Knob          *)
(* "buffer_only", section "Buffer-only host memory" below): the host pool  *)
(* is transient staging, never a cache tier. A storage hit whose bounce    *)
(* allocation fails or is rate limited is PARKED (pending_hit_allocs) and  *)
(* retried first at every later hit drain, instead of revoked; a write     *)
(* stages its pages until the storage ack is drained; a completed fetch is *)
(* held as a bounce until its request is admitted. Every pool mutation is  *)
(* on the scheduler at a synced point (buffer_mode/pipeline.py's "TP-      *)
(* lockstep contract"), so the park decision is replicated; Bugs           *)
(* "STAGE_LOCAL" frees the write staging on the backup thread instead      *)
(* (the contract broken; fixed = finish_storage_write_ack at the drain).   *)
(* Knob "attach_all_ok": the runtime attach with every rank's backend      *)
(* initialising (no EnvAttachFails): today's attach without agreement.     *)
(*                                                                          *)
(* ABSTRACTED: one page per key, one storage batch per prefetch; a request *)
(* is admitted and finishes in one step (its node goes to the device; a   *)
(* storage backup is queued only under Knob backup_raise, the one question *)
(* about the backup thread; a load-back only under pd_decode); device      *)
(* memory is not modelled (the load-back question only needs the ack       *)
(* queues); host                                                            *)
(* eviction is not modelled (HostCap bounds allocation, identical on every *)
(* rank); the digest conjunct of S123 is a constant pair (its agreement is *)
(* checked by the code's own assert); S7 and the completion sync reduce    *)
(* over one group (MIN over cp-then-tp equals MIN over the grid).          *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANTS
    Policy,     \* "best_effort" | "wait_complete" | "timeout"
    StorageOn,  \* storage enabled at start (else only by a runtime attach, Knob "attach")
    NReq,       \* requests in the stream; each one prefetches its key when storage is on
    HostCap,    \* host pages per rank
    Bugs,       \* subset of {"B10", "PDLB", "WTO", "ATT", "B38428", "STAGE_LOCAL"} (header); the S4
                \* short-circuit question needs no bug switch: Knob io_term supplies the
                \* rank-local terminate flag
    Knobs       \* {"batch_full", "pd_decode", "wait_timeout", "attach", "backup_raise", "io_term",
                \*  "buffer_only", "attach_all_ok"} \cup FindingKnobs (below)

\* Knobs and Bugs of the runtime attach step by step, the detach, the prefetch thread's death
\* and the threads' group choice (section "Attach step by step, detach, thread deaths, groups"
\* below; docs/explanation/findings/).
FindingKnobs == {"attach_steps", "attach_register_v2", "attach_retry", "detach", "pf_raise",
                 "pf_shared_group", "sync_shared_group", "wait_timeout_min"}
FindingBugs == {"ATT_EARLY", "ROLLBACK_PARTIAL", "PFDIE"}
FindingPCs == {"attach", "attach2", "detach"}

ASSUME Policy \in {"best_effort", "wait_complete", "timeout"}
ASSUME StorageOn \in BOOLEAN /\ NReq \in Nat \ {0} /\ HostCap \in Nat
ASSUME Bugs \subseteq {"B10", "PDLB", "WTO", "ATT", "B38428", "STAGE_LOCAL"} \cup FindingBugs
ASSUME Knobs \subseteq {"batch_full", "pd_decode", "wait_timeout", "attach", "backup_raise",
                        "io_term", "buffer_only", "attach_all_ok"} \cup FindingKnobs
ASSUME DP = 1 /\ PP = 1

Threads == {"sched", "pf", "sync"}   \* scheduler, prefetch (S7) thread, completion-sync thread
VARIABLE coll
C == INSTANCE Collectives

\* The call sites this module's threads post on (the sync points; docs/reference/vocabulary.md).
Sites == {"RECV", "S2", "S4", "S5", "S6", "S7", "S123", "GROUPS", "ATTACH"}

\* The groups (one sync domain: DP = 1). RECV: the request broadcast; HG: the CP x TP grid the
\* scheduler's HiCache collectives reduce over; PFG / SYG: the storage threads' own groups.
Dom == C!Group("domain", "sched", Ranks)
HG  == C!Group("hicache", "sched", Ranks)
PFG == C!Group(IF "pf_shared_group" \in Knobs THEN HG.kind ELSE "prefetch", "pf", Ranks)
SYG == C!Group(IF "sync_shared_group" \in Knobs THEN HG.kind ELSE "completion", "sync", Ranks)

-----------------------------------------------------------------------------
(* Variables.                                                               *)

\* pc[r]: where rank r's scheduler is: a local phase, or the collective it is posted on.
VARIABLE pc
PCs == {"recv", "abort", "events", "pdload", "admit", "posted"} \cup FindingPCs

\* reqIdx[r]: requests received; waiting[r]: the waiting request's index (0: none).
VARIABLE reqIdx
VARIABLE waiting
requestVars == <<reqIdx, waiting>>

\* tree[r][i]: residency of request i's node: "none" | "host" (prefetched) | "dev".
VARIABLE tree
\* hostFree[r]: free host pages.
VARIABLE hostFree
\* hostOwned[r]: host pages the tree owns (prefetched pages inserted; no host eviction here).
\* Under Knob buffer_only: the pages of a completed fetch held as a bounce until its request
\* is admitted (buffer_mode/pipeline.py::stage_completed_prefetch; tree[r][i] = "host" then
\* marks the staged fetch, which buffer mode keeps outside the tree).
VARIABLE hostOwned
treeVars == <<tree, hostFree, hostOwned>>

\* pf[r]: the waiting request's prefetch (ongoing_prefetch entry and operation):
\*   on   : in ongoing_prefetch;         st : thread-side progress "none" | "query" (queued
\*   for S7) | "hitres" (S7 returned on this rank's thread) | "hitq" (in the hit queue) |
\*   "parked" (buffer_only: hit drained, bounce not granted, retried at each drain) |
\*   "read" (host allocated, IO pending) | "sync" (read locally, completion sync pending) |
\*   "ackres" (completion MIN returned) | "acked" (final ack queued) | "done";
\*   hit  : S7's MIN; host : host slots allocated at the hit drain; loc : pages read locally;
\*   comp : synced completed pages the scheduler applied; term : operation.is_terminated().
VARIABLE pf
PfNone == [on |-> FALSE, st |-> "none", hit |-> 0, host |-> FALSE, loc |-> 0, comp |-> 0,
           term |-> FALSE]
prefetchVars == <<pf>>

\* q[r]: queue lengths: hit (prefetch_hit_queue), ack (ack_prefetch_queue, the synced ack's
\* value in ackv), bk (backup_queue), bka (ack_backup_queue), rel (host_mem_release_queue,
\* pages), ld (load acks queued, PD decode), ldd (of which the GPU event is done); under Knob
\* buffer_only also wq (backup intents in pending_write_queue) and stg (write staging pages
\* held from the D2H launch until the storage ack is drained: write_staged_tokens_).
VARIABLE q
VARIABLE ackv
queueVars == <<q, ackv>>

\* storage[r]: enable_storage on rank r; alive[r]: rank r's backup thread is running.
VARIABLE storage
VARIABLE alive
\* env[r]: rank-local environment this step: clock fired (waiting timeout, S4 timeout), batch
\* full seen early (before the prefetch checks), attach failed on this rank.
VARIABLE env
\* popped[r]: totals popped at S123 per queue (history for AckAgreement).
VARIABLE popped
\* attached: the runtime attach has been handled (Knob "attach").
VARIABLE attachDone
envVars == <<storage, alive, env, popped, attachDone>>

vars == <<coll, pc, requestVars, treeVars, prefetchVars, queueVars, envVars>>

Q0 == [hit |-> 0, ack |-> 0, bk |-> 0, bka |-> 0, rel |-> 0, ld |-> 0, ldd |-> 0, wq |-> 0, stg |-> 0]
Env0 == [clk |-> FALSE, bf |-> FALSE, afail |-> FALSE,
         half |-> FALSE, spent |-> FALSE, pfdead |-> FALSE, det |-> "none"]  \* (section "Attach ...")
Pop0 == [hit |-> 0, ack |-> 0, bka |-> 0, rel |-> 0, ld |-> 0]

TypeOK ==
    /\ pc \in [Ranks -> PCs]
    /\ reqIdx \in [Ranks -> 0 .. NReq] /\ waiting \in [Ranks -> 0 .. NReq]
    /\ tree \in [Ranks -> [1 .. NReq -> {"none", "host", "dev"}]]
    /\ hostFree \in [Ranks -> 0 .. HostCap + 2]
    /\ \A r \in Ranks : pf[r].st \in {"none", "query", "hitres", "hitq", "parked", "read", "sync",
                                       "ackres", "acked", "done"}
    /\ hostOwned \in [Ranks -> 0 .. NReq]
    /\ storage \in [Ranks -> BOOLEAN] /\ alive \in [Ranks -> BOOLEAN]

-----------------------------------------------------------------------------
(* Helpers.                                                                 *)

Post(r, g, site, op, val) ==
    coll' = [coll EXCEPT ![r][g.ch] = C!Call(g, site, 1, op, val)]
Clear(g) == [q1 \in Ranks |-> IF q1 \in g.m THEN [coll[q1] EXCEPT ![g.ch] = C!NoCall]
                                             ELSE coll[q1]]
Posted(r, th, site) == coll[r][th] # C!NoCall /\ coll[r][th].site = site
Min2(a, b) == IF a < b THEN a ELSE b

\* The names of each site's payload positions, for the counterexample pages (one line per shape):
\* payload S123: writes, load acks done, digest, -digest
\* payload S123: writes, load acks done, hits, prefetch acks, backup acks, releases, digest, -digest
\* payload S2: load acks done, -, -
\* payload S4: timed out
\* payload S7: pages hit
\* payload S5: pages read
\* The S123 payload of rank r: [write acks, load acks, <storage queues>, digest, -digest].
\* The storage part exists only while storage is enabled on r.
\* unified_radix_cache.py::_sync_hicache_ready_counts @db570fe6 (+ ack_prefetch_queue @later)
S123Payload(r) ==
    <<0, q[r].ldd>>
    \o (IF storage[r] THEN <<q[r].hit, q[r].ack, q[r].bka, q[r].rel>> ELSE <<>>)
    \o <<0, 0>>

\* The runtime attach handled step by step (Knob attach_steps) rather than inside RecvComplete,
\* and the detach (Knob detach): the phase a rank enters after RECV.
AttachSteps == "attach_steps" \in Knobs
AttachPending == "attach" \in Knobs /\ ~attachDone
DetachAsked == "detach" \in Knobs /\ \E r \in Ranks : env[r].det = "asked"
AfterRecv == IF AttachSteps /\ AttachPending THEN "attach"
             ELSE IF DetachAsked THEN "detach" ELSE "abort"

-----------------------------------------------------------------------------
(* Scheduler: RECV.                                                         *)

\* Rank r posts the step's request broadcast. scheduler.py::recv_requests
\* sglang: scheduler.py::recv_requests
SchedRecv(r) ==
    /\ pc[r] = "recv" /\ coll[r]["sched"] = C!NoCall
    /\ Post(r, Dom, "RECV", "MAX", <<>>)
    /\ pc' = [pc EXCEPT ![r] = "posted"]
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, envVars>>

\* Issue the prefetch of request i on a rank whose storage is enabled: no host memory yet.
\* unified_radix_cache.py::prefetch_from_storage @db570fe6
Issue(on) == IF on THEN [PfNone EXCEPT !.on = TRUE, !.st = "query"] ELSE PfNone

\* The broadcast completes: every rank receives the next request (when none waits) and issues
\* its prefetch; the runtime attach request, if pending, is handled by every rank at this
\* step, each with its own outcome (env.afail). scheduler.py::attach_hicache_storage_wrapped,
\* storage_attachment.py::attach @db570fe6.
\* sglang: scheduler.py::recv_requests (returns); scheduler.py::attach_hicache_storage_wrapped
RecvComplete ==
    /\ C!AllPosted(Dom) /\ \A r \in Ranks : Posted(r, "sched", "RECV")
    /\ LET \* one prefetch per rank at a time (a bound: the next request arrives once every
           \* rank's previous prefetch is gone, threads included)
           take   == waiting[0] = 0 /\ reqIdx[0] < NReq /\ \A r \in Ranks : pf[r].st \in {"none", "done"}
           doAtt  == "attach" \in Knobs /\ ~attachDone /\ ~AttachSteps
           anyFail == \E r \in Ranks : env[r].afail
           on(r)  == IF ~doAtt THEN storage[r]
                     ELSE IF "ATT" \in Bugs THEN ~env[r].afail    \* each rank its own outcome
                     ELSE ~anyFail                                 \* fixed: agreed outcome
       IN /\ coll' = Clear(Dom)
          /\ storage' = [r \in Ranks |-> on(r)]
          /\ attachDone' = (attachDone \/ doAtt)
          /\ reqIdx' = [r \in Ranks |-> IF take THEN reqIdx[r] + 1 ELSE reqIdx[r]]
          /\ waiting' = [r \in Ranks |-> IF take THEN reqIdx[r] + 1 ELSE waiting[r]]
          /\ pf' = [r \in Ranks |-> IF take THEN Issue(on(r)) ELSE pf[r]]
          /\ pc' = [r \in Ranks |-> AfterRecv]
    /\ UNCHANGED <<treeVars, queueVars, alive, env, popped>>

-----------------------------------------------------------------------------
(* Scheduler: waiting-queue timeout abort.                                  *)

\* Release the prefetch of an aborted request (after the barrier S6 when it holds host memory):
\* the pages read so far go to the release queue; the IO thread releases the unread tail at
\* its final ack. unified_radix_cache.py::release_aborted_request @db570fe6
ReleasePf(r) ==
    /\ q' = [q EXCEPT ![r].rel = @ + pf[r].comp]
    /\ pf' = [pf EXCEPT ![r] = [@ EXCEPT !.on = FALSE, !.term = TRUE]]

\* Rank r scans its waiting queue for timed-out requests. Bug WTO: on its own clock
\* (env.clk), then the barrier when the prefetch holds host memory.
\* scheduler.py::_abort_on_waiting_timeout @db570fe6. Fixed (#37143): the decision is taken
\* on one rank and broadcast; modelled as the same clock (rank 0's) on every rank. Knob
\* wait_timeout_min (#34457's shape, open): the stale verdicts are MIN-reduced over the
\* attention ranks, so a request is dropped only where every rank's clock fired (the clocks are
\* fixed between RECV and the abort check: reading them all equals the MIN collective).
\* sglang: scheduler.py::_abort_on_waiting_timeout
SchedAbortCheck(r) ==
    /\ pc[r] = "abort"
    /\ LET fires == "wait_timeout" \in Knobs /\ waiting[r] # 0
                    /\ IF "WTO" \in Bugs THEN env[r].clk
                       ELSE IF "wait_timeout_min" \in Knobs THEN \A r2 \in Ranks : env[r2].clk
                       ELSE env[0].clk
       IN IF fires /\ pf[r].on /\ pf[r].host
            THEN /\ Post(r, HG, "S6", "MIN", <<>>)               \* _barrier_attn_groups
                 /\ pc' = [pc EXCEPT ![r] = "posted"]
                 /\ UNCHANGED <<requestVars, pf, q>>
          ELSE IF fires
            THEN /\ waiting' = [waiting EXCEPT ![r] = 0]
                 /\ ReleasePf(r)
                 /\ pc' = [pc EXCEPT ![r] = "events"]
                 /\ UNCHANGED <<coll, reqIdx>>
          ELSE /\ pc' = [pc EXCEPT ![r] = "events"]
               /\ UNCHANGED <<coll, requestVars, pf, q>>
    /\ UNCHANGED <<treeVars, ackv, envVars>>

\* The abort barrier completes.
\* sglang: scheduler.py::_abort_on_waiting_timeout (the barrier returns on every member)
AbortBarrierComplete ==
    /\ C!AllPosted(HG) /\ C!Matched(HG) /\ \A r \in Ranks : Posted(r, "sched", "S6")
    /\ coll' = Clear(HG)
    /\ waiting' = [r \in Ranks |-> 0]
    /\ q' = [r \in Ranks |-> [q[r] EXCEPT !.rel = @ + pf[r].comp]]
    /\ pf' = [r \in Ranks |-> [pf[r] EXCEPT !.on = FALSE, !.term = TRUE]]
    /\ pc' = [r \in Ranks |-> "events"]
    /\ UNCHANGED <<reqIdx, treeVars, ackv, envVars>>

-----------------------------------------------------------------------------
(* Buffer-only host memory (#34798, Knob "buffer_only").                    *)
(* unified_radix_cache.py::_drain_storage_control_queues_impl,              *)
(* buffer_mode/pipeline.py, cache_controller.py::prefetch_rate_limited      *)
(* @db570fe6. What can diverge was decided by reading: the park decision    *)
(* reads the pool's usage, which changes only on the scheduler at synced    *)
(* points (hit allocations in drain order, frees of MIN-counted release     *)
(* pages and backup acks, a bounce consumed at admission), so it is the same *)
(* on every rank unless a free happens elsewhere (Bugs STAGE_LOCAL).        *)
(* Abstracted: the write's D2H copy (its ack is S123's MIN-counted write    *)
(* entry) is folded into the launch; the bounce is freed at admission       *)
(* rather than at its H2D ack (also a MIN-counted drain); one page per      *)
(* intent; the write gate's live_cap (a function of replicated occupancy)   *)
(* and the anchor lock (#35769) are not modelled.                           *)

BufferOnly == "buffer_only" \in Knobs

\* prefetch_capacity_limit of buffer mode: HICACHE_LOAD_POOL_USAGE_FRACTION (0.9) x pool size,
\* which rounds to 0 for the model's one- and two-page pools (every hit would park for ever);
\* the model lets loads fill the pool. MC modules may override it (cfg: BufLoadLimit <- ...).
BufLoadLimit == HostCap

\* prefetch_rate_limited() in buffer mode: the pool's usage minus write staging reaches the
\* load limit. hf: the free pages at this point of the drain.
RateLimited(r, hf) == (HostCap - hf) - q[r].stg >= BufLoadLimit

\* The pool cannot give p its hit now: too few free pages (both modes), or rate limited
\* (buffer mode: "Pool is load-saturated: hold the KNOWN hit").
BufShort(r, p, hf) == hf < p.hit \/ (BufferOnly /\ RateLimited(r, hf))

\* Parked hits first, at every drain (pending_hit_allocs, FIFO): a prefetch that left
\* ongoing_prefetch meanwhile (revoked by S4, best_effort, an abort) is dropped; else it gets
\* its bounce when the pool has room, or stays parked.
BufRetry(r, p, hf) ==
    IF ~(BufferOnly /\ p.st = "parked") THEN [p |-> p, hf |-> hf]
    ELSE IF ~p.on \/ p.term THEN [p |-> [p EXCEPT !.st = "done"], hf |-> hf]
    ELSE IF BufShort(r, p, hf) THEN [p |-> p, hf |-> hf]
    ELSE [p |-> [p EXCEPT !.host = TRUE, !.st = "read"], hf |-> hf - p.hit]

\* flush_pending_writes, after the drains: the head intent gets one staging page if one is
\* free (head-of-line: else it waits for a later step); its storage write is then queued.
BufFlush(r, hf) == IF BufferOnly /\ q[r].wq > 0 /\ hf > 0 THEN 1 ELSE 0

-----------------------------------------------------------------------------
(* Scheduler: check_hicache_events (S123).                                  *)

\* Rank r posts its S123 vector. unified_radix_cache.py::check_hicache_events @db570fe6
\* sglang: unified_radix_cache.py::check_hicache_events
SchedEvents(r) ==
    /\ pc[r] = "events"
    /\ Post(r, HG, "S123", "MIN", S123Payload(r))
    /\ pc' = [pc EXCEPT ![r] = "posted"]
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, envVars>>

\* Drain n hit-queue entries on rank r: revoke below threshold (hit = 0), else allocate host
\* memory now or, when the pool is short, revoke (cache mode) or park (buffer_only). A hit
\* parked at an earlier drain is retried first (BufRetry). _drain_and_alloc_storage_hit /
\* _try_alloc_storage_hit @db570fe6
DrainHit(r, n, p0, hf0) ==
    LET rt == BufRetry(r, p0, hf0)
        p  == rt.p
        hf == rt.hf
    IN IF n = 0 THEN rt
       ELSE IF ~p.on \/ p.term \/ p.hit = 0                          \* revoke_pending_prefetch
         THEN [p |-> [p EXCEPT !.on = FALSE, !.st = "done"], hf |-> hf]
       ELSE IF BufShort(r, p, hf)
         THEN IF BufferOnly THEN [p |-> [p EXCEPT !.st = "parked"], hf |-> hf]   \* #34798: park
              ELSE [p |-> [p EXCEPT !.on = FALSE, !.st = "done"], hf |-> hf]    \* revoke
       ELSE [p |-> [p EXCEPT !.host = TRUE, !.st = "read"], hf |-> hf - p.hit]

\* Drain n ack-prefetch entries: apply the synced completed pages; on the final ack, a prefetch
\* still ongoing is inserted into the tree (wait_complete completes here), and the unread tail
\* of host pages goes to the release queue. _drain_ack_prefetch @later
DrainAck(r, n, p, t, av) ==
    IF n = 0 THEN [p |-> p, t |-> t, own |-> 0, rel |-> 0]
    ELSE IF p.on                  \* still ongoing: _handle_prefetch_result inserts av pages
      THEN [p |-> [p EXCEPT !.comp = av, !.on = FALSE, !.st = "done"],
            t |-> IF av > 0 THEN [t EXCEPT ![waiting[r]] = "host"] ELSE t,
            own |-> IF av > 0 THEN 1 ELSE 0,
            rel |-> p.hit - av]
      ELSE [p |-> [p EXCEPT !.st = "done"], t |-> t,  \* terminated before: release the tail
            own |-> 0, rel |-> p.hit - p.comp]

\* S123 completes: every rank pops exactly the MIN of each queue.
\* sglang: unified_radix_cache.py::_sync_hicache_ready_counts (the all_reduce returns, queues drained)
EventsComplete ==
    /\ C!AllPosted(HG) /\ C!Matched(HG) /\ \A r \in Ranks : Posted(r, "sched", "S123")
    /\ LET res == C!Result(HG)
           st  == storage[0]      \* Matched: every rank has the same payload length
           nl  == res[2]
           nh  == IF st THEN res[3] ELSE 0
           na  == IF st THEN res[4] ELSE 0
           nb  == IF st THEN res[5] ELSE 0
           nr  == IF st THEN res[6] ELSE 0
           h(r) == DrainHit(r, nh, pf[r], hostFree[r])
           a(r) == DrainAck(r, na, h(r).p, tree[r], ackv[r])
           \* buffer_only: the drained backup acks free their write staging (STAGE_LOCAL: the
           \* backup thread freed it already); then flush_pending_writes stages the next intent
           fs(r) == IF BufferOnly /\ "STAGE_LOCAL" \notin Bugs THEN nb ELSE 0
           hf(r) == h(r).hf + nr + fs(r)
           fl(r) == BufFlush(r, hf(r))
       IN /\ coll' = Clear(HG)
          /\ pf' = [r \in Ranks |-> a(r).p]
          /\ tree' = [r \in Ranks |-> a(r).t]
          /\ hostOwned' = [r \in Ranks |-> hostOwned[r] + a(r).own]
          /\ hostFree' = [r \in Ranks |-> hf(r) - fl(r)]
          /\ q' = [r \in Ranks |-> [q[r] EXCEPT !.hit = @ - nh, !.ack = @ - na, !.bka = @ - nb,
                                               !.rel = @ - nr + a(r).rel,
                                               !.ld = @ - nl, !.ldd = @ - nl,
                                               !.bk = @ + fl(r), !.wq = @ - fl(r),
                                               !.stg = @ - fs(r) + fl(r)]]
          /\ popped' = [r \in Ranks |-> [popped[r] EXCEPT !.hit = @ + nh, !.ack = @ + na,
                                          !.bka = @ + nb, !.rel = @ + nr, !.ld = @ + nl]]
          /\ pc' = [r \in Ranks |-> "pdload"]
    /\ UNCHANGED <<requestVars, ackv, storage, alive, env, attachDone>>

-----------------------------------------------------------------------------
(* Scheduler: PD-decode load-back readiness (Knob pd_decode).              *)

\* Rank r polls its in-flight load-back. Bug PDLB: is_load_back_event_done queries the
\* rank-local GPU event and, only when it is done, calls loading_check, whose MIN runs on
\* the scheduler's groups. decode_hicache_mixin.py::_process_hicache_local_restores,
\* unified_radix_cache.py::is_load_back_event_done @db570fe6. Fixed (#29483): a pure poll.
\* sglang: decode_hicache_mixin.py::_process_hicache_local_restores; is_load_back_event_done
SchedPdLoad(r) ==
    /\ pc[r] = "pdload"
    /\ IF "pd_decode" \in Knobs /\ "PDLB" \in Bugs /\ q[r].ldd > 0
         THEN /\ Post(r, HG, "S2", "MIN", <<q[r].ldd, 0, 0>>)
              /\ pc' = [pc EXCEPT ![r] = "posted"]
         ELSE /\ pc' = [pc EXCEPT ![r] = "admit"]
              /\ UNCHANGED coll
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, envVars>>

\* loading_check's MIN completes (every rank posted it).
\* sglang: unified_radix_cache.py::loading_check (the all_reduce MIN returns on every member)
LoadCheckComplete ==
    /\ C!AllPosted(HG) /\ C!Matched(HG) /\ \A r \in Ranks : Posted(r, "sched", "S2")
    /\ LET n == C!Result(HG)[1]
       IN /\ q' = [r \in Ranks |-> [q[r] EXCEPT !.ld = @ - n, !.ldd = @ - n]]
          /\ popped' = [r \in Ranks |-> [popped[r] EXCEPT !.ld = @ + n]]
    /\ coll' = Clear(HG)
    /\ pc' = [r \in Ranks |-> "admit"]
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, ackv, storage, alive, env, attachDone>>

-----------------------------------------------------------------------------
(* Scheduler: admission (check_prefetch_progress, S4).                     *)

\* Request i is admitted: it runs and finishes in this step; its node goes to the device
\* and, with storage on, is queued for a storage backup (backup_queue). In PD decode a
\* load-back is queued instead (its ack drained by S123's load count).
\* buffer_only: the staged bounce is consumed (init_load_back; freed at its H2D ack, a synced
\* drain: here at once) and the finished node's backup intent is queued (enqueue_backup_intent).
Admit(r) ==
    /\ tree' = [tree EXCEPT ![r][waiting[r]] = "dev"]
    /\ IF BufferOnly                            \* the bounce goes back to the pool
         THEN /\ hostFree' = [hostFree EXCEPT ![r] = @ + hostOwned[r]]
              /\ hostOwned' = [hostOwned EXCEPT ![r] = 0]
         ELSE UNCHANGED <<hostFree, hostOwned>>  \* a prefetched node keeps its host copy
    /\ waiting' = [waiting EXCEPT ![r] = 0]
    /\ q' = [q EXCEPT ![r].bk = @ + (IF storage[r] /\ "backup_raise" \in Knobs /\ ~BufferOnly
                                      THEN 1 ELSE 0),    \* buffer_only: through wq, BufFlush
                      ![r].ld = @ + (IF "pd_decode" \in Knobs THEN 1 ELSE 0),
                      ![r].wq = @ + (IF storage[r] /\ BufferOnly THEN 1 ELSE 0)]

\* Terminate the prefetch after the (synced) decision: revoke when no host memory was
\* allocated; else insert the synced completed pages. The IO thread releases the tail at its
\* final ack. check_prefetch_progress -> revoke_pending_prefetch / _handle_prefetch_result @later
Terminate(r) ==
    /\ pf' = [pf EXCEPT ![r] = [@ EXCEPT !.on = FALSE, !.term = TRUE]]
    /\ tree' = [tree EXCEPT ![r][waiting[r]] = IF pf[r].host /\ pf[r].comp > 0 THEN "host"
                                                ELSE @]
    /\ hostOwned' = [hostOwned EXCEPT ![r] = @ + (IF pf[r].host /\ pf[r].comp > 0 THEN 1 ELSE 0)]

\* Rank r's admission loop reaches the waiting request. Bug B10: a rank-local batch-full test
\* (env.bf) breaks the loop before check_prefetch_progress; fixed (#33029): every ongoing
\* prefetch is checked once per step before any rank-local exit. scheduler.py::
\* _get_new_batch_prefill_raw @db570fe6; unified_radix_cache.py::check_prefetch_progress @later
\* sglang: scheduler.py::_get_new_batch_prefill_raw; unified_radix_cache.py::check_prefetch_progress
SchedAdmit(r) ==
    /\ pc[r] = "admit"
    /\ LET i     == waiting[r]
           \* the batch is full this step on every rank; env[r].bf: rank r's test fires
           \* before the prefetch checks (early), else after them
           brk   == "batch_full" \in Knobs /\ \E r2 \in Ranks : env[r2].bf
           early == "batch_full" \in Knobs /\ env[r].bf /\ "B10" \in Bugs
           \* #36425: is_terminated() short-circuits before the policy's collective
           sc    == pf[r].term
       IN CASE i = 0 \/ early ->
                 /\ pc' = [pc EXCEPT ![r] = "recv"]
                 /\ UNCHANGED <<coll, requestVars, tree, hostOwned, hostFree, pf, q>>
            [] ~pf[r].on ->                        \* not (or no longer) prefetching: admit
                 /\ IF brk THEN UNCHANGED <<waiting, tree, hostOwned, hostFree, q>> ELSE Admit(r)
                 /\ pc' = [pc EXCEPT ![r] = "recv"]
                 /\ UNCHANGED <<coll, reqIdx, pf>>
            [] sc \/ Policy = "best_effort" ->
                 /\ Terminate(r)
                 /\ pc' = [pc EXCEPT ![r] = "recv"]
                 /\ UNCHANGED <<coll, requestVars, hostFree, q>>
            [] Policy = "wait_complete" ->         \* completes through the ack drain
                 /\ pc' = [pc EXCEPT ![r] = "recv"]
                 /\ UNCHANGED <<coll, requestVars, tree, hostOwned, hostFree, pf, q>>
            [] OTHER ->                            \* timeout: S4, MAX of the local timeouts
                 /\ Post(r, HG, "S4", "MAX", <<IF env[r].clk THEN 1 ELSE 0>>)
                 /\ pc' = [pc EXCEPT ![r] = "posted"]
                 /\ UNCHANGED <<requestVars, tree, hostOwned, hostFree, pf, q>>
    /\ UNCHANGED <<ackv, envVars>>

\* S4 completes: terminate iff some rank timed out. _can_terminate_prefetch @later
\* sglang: unified_radix_cache.py::_can_terminate_prefetch (the all_reduce returns)
S4Complete ==
    /\ C!AllPosted(HG) /\ C!Matched(HG) /\ \A r \in Ranks : Posted(r, "sched", "S4")
    /\ LET stop == C!Result(HG)[1] = 1
       IN /\ pf' = [r \in Ranks |-> IF stop THEN [pf[r] EXCEPT !.on = FALSE, !.term = TRUE]
                                    ELSE pf[r]]
          /\ tree' = [r \in Ranks |->
                        IF stop /\ pf[r].host /\ pf[r].comp > 0
                          THEN [tree[r] EXCEPT ![waiting[r]] = "host"] ELSE tree[r]]
          /\ hostOwned' = [r \in Ranks |-> hostOwned[r] +
                             (IF stop /\ pf[r].host /\ pf[r].comp > 0 THEN 1 ELSE 0)]
    /\ coll' = Clear(HG)
    /\ pc' = [r \in Ranks |-> "recv"]
    /\ UNCHANGED <<requestVars, hostFree, queueVars, envVars>>

-----------------------------------------------------------------------------
(* Storage threads.                                                         *)

\* Rank r's prefetch thread queries storage (hits h, 0 or 1 page: rank-local) and posts S7.
\* A terminated operation contributes 0. cache_controller.py::prefetch_thread_func @db570fe6
\* sglang: cache_controller.py::prefetch_thread_func
PfQuery(r, h) ==
    /\ pf[r].st = "query" /\ coll[r]["pf"] = C!NoCall /\ ~env[r].pfdead
    /\ Post(r, PFG, "S7", "MIN", <<IF pf[r].term THEN 0 ELSE h>>)
    /\ UNCHANGED <<pc, requestVars, treeVars, prefetchVars, queueVars, envVars>>

\* S7 completes for every member; each rank's thread then queues the result on its own.
\* sglang: cache_controller.py::prefetch_thread_func (the all_reduce returns)
S7Complete ==
    /\ C!AllPosted(PFG) /\ C!Matched(PFG)
    /\ LET m == C!Result(PFG)[1]
       IN pf' = [r \in Ranks |-> [pf[r] EXCEPT !.hit = m, !.st = "hitres"]]
    /\ coll' = Clear(PFG)
    /\ UNCHANGED <<pc, requestVars, treeVars, queueVars, envVars>>

\* Rank r's prefetch thread puts the operation into its hit queue (prefetch_hit_queue.put).
\* sglang: cache_controller.py::prefetch_thread_func (prefetch_hit_queue.put)
PfPutHit(r) ==
    /\ pf[r].st = "hitres"
    /\ pf' = [pf EXCEPT ![r].st = "hitq"]
    /\ q' = [q EXCEPT ![r].hit = @ + 1]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, ackv, envVars>>

\* Rank r's IO thread reads the batch (k pages succeed, rank-local), emits its ack (one per
\* batch even after a failure) and posts the completion MIN. io_term: a failed read also
\* marks the operation terminated on this rank only (as _page_transfer did @db570fe6).
\* cache_controller.py::_page_transfer, prefetch_sync_thread_func @later
\* sglang: cache_controller.py::_page_transfer; cache_controller.py::prefetch_sync_thread_func
PfRead(r, k) ==
    /\ pf[r].st = "read" /\ coll[r]["sync"] = C!NoCall /\ k <= pf[r].hit
    /\ Post(r, SYG, "S5", "MIN", <<IF pf[r].term THEN 0 ELSE k>>)
    /\ pf' = [pf EXCEPT ![r] = [@ EXCEPT !.st = "sync", !.loc = k,
                                        !.term = @ \/ ("io_term" \in Knobs /\ k < pf[r].hit)]]
    /\ UNCHANGED <<pc, requestVars, treeVars, queueVars, envVars>>

\* sglang: cache_controller.py::_reduce_prefetch_ack (the completion MIN returns)
SyncComplete ==
    /\ C!AllPosted(SYG) /\ C!Matched(SYG)
    /\ LET m == C!Result(SYG)[1]
       IN /\ ackv' = [r \in Ranks |-> m]
          /\ pf' = [r \in Ranks |-> [pf[r] EXCEPT !.st = "ackres"]]
    /\ coll' = Clear(SYG)
    /\ UNCHANGED <<pc, requestVars, treeVars, q, envVars>>

\* Rank r's completion-sync thread queues the synced ack (ack_prefetch_queue.put).
\* sglang: cache_controller.py::prefetch_sync_thread_func (ack_prefetch_queue.put)
PutAck(r) ==
    /\ pf[r].st = "ackres"
    /\ pf' = [pf EXCEPT ![r].st = "acked"]
    /\ q' = [q EXCEPT ![r].ack = @ + 1]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, ackv, envVars>>

\* Rank r's backup thread writes one queued operation and acks it; with backup_raise the
\* backend may raise: bug B38428, the thread dies and never acks again; fixed (#38427), the
\* failure is caught and acked. cache_controller.py::backup_thread_func @db570fe6
\* Under buffer_only with Bugs STAGE_LOCAL the write's staging page is freed here, on the
\* backup thread at this rank's own time, instead of at the drain of its ack (the contract
\* of buffer_mode/pipeline.py::finish_storage_write_ack, "rank-synced drain", broken).
\* sglang: cache_controller.py::backup_thread_func
BackupOk(r) ==
    /\ alive[r] /\ q[r].bk > 0
    /\ LET loc == BufferOnly /\ "STAGE_LOCAL" \in Bugs /\ q[r].stg > 0
       IN /\ q' = [q EXCEPT ![r].bk = @ - 1, ![r].bka = @ + 1,
                            ![r].stg = @ - (IF loc THEN 1 ELSE 0)]
          /\ hostFree' = [hostFree EXCEPT ![r] = @ + (IF loc THEN 1 ELSE 0)]
    /\ UNCHANGED <<coll, pc, requestVars, tree, hostOwned, prefetchVars, ackv, envVars>>
\* sglang: cache_controller.py::backup_thread_func (the storage backend raises)
BackupRaise(r) ==
    /\ "backup_raise" \in Knobs /\ alive[r] /\ q[r].bk > 0
    /\ IF "B38428" \in Bugs
         THEN /\ alive' = [alive EXCEPT ![r] = FALSE] /\ UNCHANGED q
         ELSE /\ q' = [q EXCEPT ![r].bk = @ - 1, ![r].bka = @ + 1] /\ UNCHANGED alive
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, ackv, storage, env, popped,
                   attachDone>>

-----------------------------------------------------------------------------
(* Environment (rank-local, while the rank waits at RECV).                  *)

EnvWindow(r) == Posted(r, "sched", "RECV")

\* Rank r's clock passes a deadline (waiting timeout / prefetch timeout).
\* sglang: environment: the rank's clock passes a deadline (time.perf_counter)
EnvClock(r) ==
    /\ EnvWindow(r) /\ ~env[r].clk /\ ({"wait_timeout"} \cap Knobs # {} \/ Policy = "timeout")
    /\ env' = [env EXCEPT ![r].clk = TRUE]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, queueVars, storage, alive,
                   popped, attachDone>>
\* The batch will be full at the next step (on every rank), and rank r's rank-local test
\* (available_size drift) fires before the prefetch checks. Chosen while the whole domain
\* waits at RECV, so every rank's step sees the same flags.
\* sglang: environment: the rank-local batch-full test (available_size) of _get_new_batch_prefill_raw
EnvBatchFull(r) ==
    /\ \A r2 \in Ranks : EnvWindow(r2)
    /\ "batch_full" \in Knobs /\ waiting[r] # 0     \* it only matters with a request waiting
    /\ env' = [env EXCEPT ![r].bf = ~@]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, queueVars, storage, alive,
                   popped, attachDone>>
\* Rank r's storage backend fails to initialise at the pending attach.
\* sglang: environment: the storage backend fails to initialise (storage_attachment.py::attach)
EnvAttachFails(r) ==
    /\ EnvWindow(r) /\ "attach" \in Knobs /\ ~attachDone /\ ~env[r].afail /\ ~env[r].spent
    /\ "attach_all_ok" \notin Knobs        \* the scenario where every backend initialises
    /\ env' = [env EXCEPT ![r].afail = TRUE]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, queueVars, storage, alive,
                   popped, attachDone>>
\* Rank r's load-back GPU event completes (in order).
\* sglang: environment: the GPU copy of a load-back completes (its CUDA event)
EnvLoadDone(r) ==
    /\ EnvWindow(r) /\ q[r].ldd < q[r].ld
    /\ q' = [q EXCEPT ![r].ldd = @ + 1]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, ackv, envVars>>

-----------------------------------------------------------------------------
(* Attach step by step, detach, thread deaths, groups (the findings'       *)
(* reports, docs/explanation/findings/). Every action here is enabled only *)
(* under its Knob; without them the module's behaviours are unchanged.     *)
(*                                                                          *)
(* Knob "attach_steps": the runtime attach as the controller runs it       *)
(* (HybridCacheController.attach_storage_backend -> BaseHiCacheController. *)
(* attach_storage_backend @db570fe6), each rank on its own, after RECV:    *)
(*   1. backend creation and register_mem_pool_host (may raise);           *)
(*   2. _create_prefetch_sync_groups: create_custom_parallel_group runs an *)
(*      all_gather_object over the WORLD, then new_group: a world          *)
(*      collective (GROUPS) every rank must join;                          *)
(*   3. the rest of super() (a raise there is cleaned up), then            *)
(*      register_mem_host_pool_v2 per host pool, after super() returned,   *)
(*      outside the cleanup (Knob "attach_register_v2": a raise there      *)
(*      leaves the controller attached, threads running, groups created,   *)
(*      and the cache's enable_storage off: env.half);                     *)
(*   4. StorageAttachment.attach flips enable_storage on success.          *)
(* Bug "ATT_EARLY": a rank whose backend fails fails at step 1 and skips   *)
(* the world collective of step 2 (its peers wait there: a hang at attach  *)
(* time). Fixed: the groups are created before anything that can fail.     *)
(* Bug "ATT" (as for Knob attach): each rank keeps its own outcome.        *)
(* Fixed: the outcome is MIN-reduced (ATTACH) and, if any rank failed,      *)
(* every rank rolls back; Bug "ROLLBACK_PARTIAL": only the ranks whose     *)
(* attach returned success roll back (the half-attached rank keeps its     *)
(* controller, and "already attached" fails its every later attach).      *)
(* Knob "attach_retry": a failed attach is retried at the next step until  *)
(* it succeeds; a backend fails at most once per rank (env.spent).         *)
(*                                                                          *)
(* Knob "detach": the operator asks for a detach (PUT/DELETE on the admin  *)
(* API) and retries it at every step until accepted. Each rank evaluates   *)
(* is_fully_idle on its own (scheduler.py::detach_hicache_storage_wrapped, *)
(* is_fully_idle @db570fe6: nothing waiting, no load-back, and with        *)
(* storage on no ongoing prefetch and no ongoing backup) and detaches or   *)
(* refuses (storage_attachment.py::detach: drain locally, stop threads).   *)
(*                                                                          *)
(* Knob "pf_raise": the storage query of rank r's prefetch thread raises   *)
(* (batch_exists). Bug "PFDIE": the exception ends prefetch_thread_func    *)
(* (its loop catches only queue.Empty @db570fe6): the thread never posts   *)
(* S7 again. Fixed: the failure is caught and counted as 0 hit pages.      *)
(*                                                                          *)
(* Knobs "pf_shared_group" / "sync_shared_group": the prefetch thread (S7) *)
(* or the completion-sync thread (S5) reduces on the scheduler's gloo      *)
(* group objects (HG) instead of groups of its own: the k-th calls of the *)
(* members pair up whichever thread made them (SharedGroupMatching).       *)
(***************************************************************************)

World == C!Group("world", "sched", Ranks)   \* DP = PP = 1 here: the world is the domain

\* Rank r starts the attach (step 1). A rank whose controller is half attached raises
\* "Storage backend already attached" here. ATT_EARLY: a rank that fails here returns failure
\* at once and never joins the groups' creation.
\* sglang: storage_attachment.py::attach; cache_controller.py::attach_storage_backend (before _create_prefetch_sync_groups)
SchedAttach(r) ==
    /\ pc[r] = "attach"
    /\ IF "ATT_EARLY" \in Bugs /\ (env[r].afail \/ env[r].half)
         THEN /\ pc' = [pc EXCEPT ![r] = "abort"]
              /\ env' = [env EXCEPT ![r].afail = FALSE, ![r].spent = @ \/ env[r].afail]
              /\ UNCHANGED coll
         ELSE /\ Post(r, World, "GROUPS", "MAX", <<>>)   \* create_custom_parallel_group
              /\ pc' = [pc EXCEPT ![r] = "posted"]
              /\ UNCHANGED env
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, storage, alive, popped,
                   attachDone>>

\* The world collective of the groups' creation completes (step 2).
\* sglang: parallel_state.py::create_custom_parallel_group (the world all_gather_object returns)
GroupsComplete ==
    /\ C!AllPosted(World) /\ C!Matched(World) /\ \A r \in Ranks : Posted(r, "sched", "GROUPS")
    /\ coll' = Clear(World)
    /\ pc' = [r \in Ranks |-> "attach2"]
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, envVars>>

\* Rank r finishes its local attach (steps 3-4). ok: its backend initialised and its controller
\* was not half attached already. A failure at register_mem_host_pool_v2 (Knob
\* attach_register_v2) leaves the controller half attached; any other failure here is cleaned up.
AttachOk(r) == ~env[r].afail /\ ~env[r].half
HalfAfter(r) == ~AttachOk(r) /\ (env[r].half \/ "attach_register_v2" \in Knobs)
\* sglang: hybrid_cache_controller.py::attach_storage_backend (register_mem_host_pool_v2); storage_attachment.py::attach (returns)
SchedAttachRest(r) ==
    /\ pc[r] = "attach2"
    /\ env' = [env EXCEPT ![r].afail = FALSE, ![r].spent = @ \/ env[r].afail,
                          ![r].half = HalfAfter(r)]
    /\ IF "ATT" \in Bugs
         THEN /\ storage' = [storage EXCEPT ![r] = AttachOk(r)]     \* its own outcome
              /\ attachDone' = TRUE
              /\ pc' = [pc EXCEPT ![r] = "abort"]
              /\ UNCHANGED coll
         ELSE /\ Post(r, HG, "ATTACH", "MIN", <<IF AttachOk(r) THEN 1 ELSE 0>>)
              /\ pc' = [pc EXCEPT ![r] = "posted"]
              /\ UNCHANGED <<storage, attachDone>>
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, alive, popped>>

\* The fix: the attach outcome is MIN-reduced; on failure every rank rolls back (detach is
\* idempotent), ROLLBACK_PARTIAL: only the ranks that succeeded. attach_retry: the request
\* stays pending until it succeeds.
\* sglang: storage_attachment.py::attach (the fix's MIN of the outcome returns; rollback by detach)
AttachOkComplete ==
    /\ C!AllPosted(HG) /\ C!Matched(HG) /\ \A r \in Ranks : Posted(r, "sched", "ATTACH")
    /\ LET all == C!Result(HG)[1] = 1
           mine(r) == coll[r]["sched"].val[1] = 1
       IN /\ storage' = [r \in Ranks |-> all]
          /\ env' = [r \in Ranks |-> [env[r] EXCEPT !.half =
                        ~all /\ "ROLLBACK_PARTIAL" \in Bugs /\ ~mine(r) /\ env[r].half]]
          /\ attachDone' = (all \/ "attach_retry" \notin Knobs)
    /\ coll' = Clear(HG)
    /\ pc' = [r \in Ranks |-> "abort"]
    /\ UNCHANGED <<requestVars, treeVars, prefetchVars, queueVars, alive, popped>>

\* The operator asks for a detach (every rank receives it with the step's requests), once the
\* request stream has ended and nothing waits (the operator drains traffic first, as
\* is_fully_idle demands, and its prefetches have finished; asking earlier only adds refusals
\* while requests run).
\* sglang: environment: the operator's detach request (scheduler.py::detach_hicache_storage_wrapped receives it)
EnvDetachAsks ==
    /\ "detach" \in Knobs
    /\ \A r \in Ranks : /\ EnvWindow(r) /\ env[r].det = "none" /\ reqIdx[r] = NReq /\ waiting[r] = 0
                        /\ pf[r].st \in {"none", "done"}
    /\ env' = [r \in Ranks |-> [env[r] EXCEPT !.det = "asked"]]
    /\ UNCHANGED <<coll, pc, requestVars, treeVars, prefetchVars, queueVars, storage, alive,
                   popped, attachDone>>

\* is_fully_idle on rank r (its own state). Ongoing backups: written or not, their acks not
\* yet popped (ongoing_backup). scheduler.py::is_fully_idle @db570fe6
FullyIdle(r) ==
    /\ waiting[r] = 0 /\ q[r].ld = 0
    /\ storage[r] => (~pf[r].on /\ q[r].bk + q[r].bka = 0)

\* Rank r handles the pending detach: refused unless fully idle (the request stays pending:
\* the operator retries); else the control queues are drained locally, the threads stopped
\* and storage turned off (a half-attached controller is cleaned up too).
\* scheduler.py::detach_hicache_storage_wrapped, storage_attachment.py::detach @db570fe6
\* sglang: scheduler.py::detach_hicache_storage_wrapped; storage_attachment.py::detach
SchedDetach(r) ==
    /\ pc[r] = "detach"
    /\ IF env[r].det = "asked" /\ FullyIdle(r)
         THEN /\ storage' = [storage EXCEPT ![r] = FALSE]
              /\ env' = [env EXCEPT ![r].det = "done", ![r].half = FALSE]
              /\ hostFree' = [hostFree EXCEPT ![r] = @ + q[r].rel]
              /\ q' = [q EXCEPT ![r].rel = 0]
         ELSE UNCHANGED <<storage, env, hostFree, q>>
    /\ pc' = [pc EXCEPT ![r] = "abort"]
    /\ UNCHANGED <<coll, requestVars, tree, hostOwned, prefetchVars, ackv, alive, popped,
                   attachDone>>

\* Rank r's prefetch thread's storage query raises (a terminated operation is not queried).
\* PFDIE: the thread dies; fixed: the failure counts as 0 hit pages.
\* cache_controller.py::prefetch_thread_func, _storage_hit_query @db570fe6
\* sglang: cache_controller.py::prefetch_thread_func (_storage_hit_query raises)
PfRaise(r) ==
    /\ "pf_raise" \in Knobs
    /\ pf[r].st = "query" /\ ~pf[r].term /\ coll[r]["pf"] = C!NoCall /\ ~env[r].pfdead
    /\ IF "PFDIE" \in Bugs
         THEN /\ env' = [env EXCEPT ![r].pfdead = TRUE]
              /\ UNCHANGED coll
         ELSE /\ Post(r, PFG, "S7", "MIN", <<0>>)
              /\ UNCHANGED env
    /\ UNCHANGED <<pc, requestVars, treeVars, prefetchVars, queueVars, storage, alive, popped,
                   attachDone>>

\* Shared groups: the k-th calls on a gloo group pair up whichever thread made them. A rank
\* whose only call on the scheduler's group is its storage thread's, against a peer whose only
\* call there is its scheduler's, pairs S7 or S5 with a scheduler collective. (Where a rank has
\* both calls posted their order is not modelled: every mismatch found is a real one.)
SharedThreads == {th \in {"pf", "sync"} :
                    \/ th = "pf" /\ "pf_shared_group" \in Knobs
                    \/ th = "sync" /\ "sync_shared_group" \in Knobs}
OnlyOn(r, th, other) ==
    /\ coll[r][th] # C!NoCall /\ coll[r][th].grp.kind = HG.kind
    /\ ~(coll[r][other] # C!NoCall /\ coll[r][other].grp.kind = HG.kind)
SharedGroupMatching ==
    \A th \in SharedThreads :
        ~(\E r1, r2 \in Ranks : OnlyOn(r1, th, "sched") /\ OnlyOn(r2, "sched", th))

\* Liveness of the reports: a detach asked for is eventually accepted on every rank; a runtime
\* attach that is retried eventually succeeds; no prefetch thread waits in S7 for ever.
DetachWanted == \E r \in Ranks : env[r].det = "asked"
DetachAccepted == DetachWanted ~> (\A r \in Ranks : env[r].det = "done")
AttachEventuallySucceeds == <>attachDone
PrefetchThreadNeverStuck == []<>(\A r \in Ranks : coll[r]["pf"] = C!NoCall)
\* The controller and the cache agree on whether storage is on (no half-attached controller).
\* (At lockstep points: between a rank's failure and the rollback it is half attached by design.)
AttachStateConsistent ==
    (\A r \in Ranks : Posted(r, "sched", "RECV")) => \A r \in Ranks : ~env[r].half

-----------------------------------------------------------------------------
(* Specification.                                                           *)

Init ==
    /\ coll = [r \in Ranks |-> [th \in Threads |-> C!NoCall]]
    /\ pc = [r \in Ranks |-> "recv"]
    /\ reqIdx = [r \in Ranks |-> 0] /\ waiting = [r \in Ranks |-> 0]
    /\ tree = [r \in Ranks |-> [i \in 1 .. NReq |-> "none"]]
    /\ hostFree = [r \in Ranks |-> HostCap]
    /\ hostOwned = [r \in Ranks |-> 0]
    /\ pf = [r \in Ranks |-> PfNone]
    /\ q = [r \in Ranks |-> Q0] /\ ackv = [r \in Ranks |-> 0]
    /\ storage = [r \in Ranks |-> StorageOn /\ "attach" \notin Knobs]
    /\ alive = [r \in Ranks |-> TRUE]
    /\ env = [r \in Ranks |-> Env0]
    /\ popped = [r \in Ranks |-> Pop0]
    /\ attachDone = FALSE

SchedNext ==
    \/ \E r \in Ranks : SchedRecv(r) \/ SchedAbortCheck(r) \/ SchedEvents(r)
                        \/ SchedPdLoad(r) \/ SchedAdmit(r)
    \/ RecvComplete \/ AbortBarrierComplete \/ EventsComplete \/ LoadCheckComplete
    \/ S4Complete
    \/ \E r \in Ranks : SchedAttach(r) \/ SchedAttachRest(r) \/ SchedDetach(r)
    \/ GroupsComplete \/ AttachOkComplete
ThreadNext ==
    \/ \E r \in Ranks : \/ \E h \in 0 .. 1 : PfQuery(r, h)
                        \/ \E k \in 0 .. 1 : PfRead(r, k)
                        \/ PfPutHit(r) \/ PutAck(r) \/ BackupOk(r) \/ BackupRaise(r)
                        \/ PfRaise(r)
    \/ S7Complete \/ SyncComplete
EnvNext ==
    \E r \in Ranks : EnvClock(r) \/ EnvBatchFull(r) \/ EnvAttachFails(r) \/ EnvLoadDone(r)
    \/ EnvDetachAsks

Next == SchedNext \/ ThreadNext \/ EnvNext

\* Fairness, by actor. The scheduler thread and the collectives: a posted rank is resumed
\* when its collective completes (gloo delivers), a scheduler phase is always taken (the event
\* loop spins). The storage threads: a queued operation is eventually served (daemon threads
\* blocking on their queues); BackupRaise is not fair (a backend need not keep raising).
\* GPU events complete (EnvLoadDone). Clocks and batch-full are not fair (need not happen).
Fairness ==
    /\ \A r \in Ranks : WF_vars(SchedRecv(r) \/ SchedAbortCheck(r) \/ SchedEvents(r)
                                \/ SchedPdLoad(r) \/ SchedAdmit(r))
    /\ WF_vars(RecvComplete) /\ WF_vars(AbortBarrierComplete) /\ WF_vars(EventsComplete)
    /\ WF_vars(LoadCheckComplete) /\ WF_vars(S4Complete)
    /\ \A r \in Ranks : WF_vars(\E h \in 0 .. 1 : PfQuery(r, h))
    /\ \A r \in Ranks : WF_vars(\E k \in 0 .. 1 : PfRead(r, k))
    /\ \A r \in Ranks : WF_vars(PfPutHit(r)) /\ WF_vars(PutAck(r))
    /\ \A r \in Ranks : WF_vars(BackupOk(r)) /\ WF_vars(EnvLoadDone(r))
    /\ WF_vars(S7Complete) /\ WF_vars(SyncComplete)
    /\ \A r \in Ranks : WF_vars(SchedAttach(r) \/ SchedAttachRest(r) \/ SchedDetach(r))
    /\ WF_vars(GroupsComplete) /\ WF_vars(AttachOkComplete)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties (names as in HiCacheSync.tla and the Java checks).            *)

\* The lockstep point: every rank posted on RECV.
Lockstep == \A r \in Ranks : Posted(r, "sched", "RECV")
\* Every rank compared with rank 0 (equality is transitive): f evaluated once per rank, not twice per pair.
AgreeAt(f(_)) == Lockstep => LET v == f(0) IN \A r \in Ranks : f(r) = v

\* INV-1 (from Collectives): posted calls on one group agree on site, op and payload size.
CollectiveMatching == C!CollectiveMatching /\ SharedGroupMatching
\* INV-3: the same tree and waiting queue at every lockstep point.
TreeAgreement == AgreeAt(LAMBDA r : <<tree[r], reqIdx[r], waiting[r]>>)
\* INV-4: every synced queue popped by the same counts.
AckAgreement == AgreeAt(LAMBDA r : popped[r])
\* INV-5: the same prefetch decisions (ongoing, host memory allocated, synced pages applied).
PrefetchAgreement == AgreeAt(LAMBDA r : <<pf[r].on, pf[r].host, pf[r].comp>>)
\* INV-6: the same free host memory.
AllocAgreement == AgreeAt(LAMBDA r : hostFree[r])
\* INV-7: every host page is owned by exactly one of {free list, release queue, the prefetch
\* (allocated at the hit drain until its final ack is drained), the tree (buffer_only: the
\* staged bounce), write staging (buffer_only)}: none is lost or freed twice.
HeldByPrefetch(r) == IF pf[r].host /\ pf[r].st # "done" THEN pf[r].hit ELSE 0
HostSlotSafety ==
    \A r \in Ranks : /\ hostFree[r] \in 0 .. HostCap
                    /\ hostFree[r] + q[r].rel + HeldByPrefetch(r) + hostOwned[r] + q[r].stg
                         = HostCap

\* INV-1's thread face: a completion sync one rank posted is one every peer can still join (a
\* peer whose prefetch is already over, "done", never posts it: that rank's completion-sync
\* thread would wait for ever, and in the code pair its next ack with the peer's next
\* prefetch). Checked where a rank-local decision can skip a read (buffer_only rows).
CompletionSyncJoinable ==
    \A r \in Ranks : Posted(r, "sync", "S5") => \A r2 \in Ranks : pf[r2].st # "done"

\* Liveness.
AnyOngoing == \E r \in Ranks : pf[r].on
PrefetchTerminates == AnyOngoing ~> ~AnyOngoing
AckPending(r) == q[r].bk + q[r].bka + q[r].hit + q[r].ack > 0
AcksConsumed == (\E r \in Ranks : AckPending(r)) ~> (\A r \in Ranks : ~AckPending(r))
RequestsProgress == <>(\A r \in Ranks : reqIdx[r] = NReq /\ waiting[r] = 0)

\* Reachability checks that must fail (the model is not a toy).
DebugPrefetchInserted == ~(\E r \in Ranks : \E i \in 1 .. NReq : tree[r][i] = "host")
DebugAttached == ~(\A r \in Ranks : storage[r]) \/ ~attachDone
\* buffer_only: a storage hit is parked on some rank (the pool held by write staging).
DebugParked == ~(\E r \in Ranks : pf[r].st = "parked")
\* buffer_only: a hit parked by the rate limit alone (the pool had room for it).
DebugRateLimited == ~(\E r \in Ranks : pf[r].st = "parked" /\ hostFree[r] >= pf[r].hit)


=============================================================================
Measured with ./hicache-sync check --workers 1 (TLC 2.18, 2 cores shared by eight sessions, load
26-30, 30 Nov 2026 17:48-17:55 UTC; NSA CP (1,2,1), one request): unified_cp2 14,267 distinct states,
depth 57, 20.2 s; unified_b10_fixed 44,257, 50.6 s; unified_b38428_fixed (liveness) 12,593, 79.2 s;
the other models 9-28,493 states, 5-71 s (table in docs/explanation/unified.md). (1,2,2) before the per-rank
queuing of S7 / completion results: 544,258 distinct states at depth 39 after 500 s, not finished;
simulation 757,959 states in 120 s; on the current module (-simulate num=1000000 -depth 80 -seed 11,
stopAfter 120 s, load 28) 373,002 states, no violation.
Buffer-only host memory (Knob buffer_only, #34798), plain TLC -workers 1, 30 Nov 2026 22:45-23:30 UTC,
load 19-38 (other sessions' runs): unified_buffer_park 219,535 distinct, depth 134, 69 s;
unified_buffer_park_wait_complete 17,254, 26 s; unified_buffer_rate_limit 488,955, depth 121, 5 min 4 s;
unified_buffer_stage_local AllocAgreement at 34 states (10,259 distinct, 41 s); its stranded twin
CompletionSyncJoinable at 60 states (89,128, 76 s); unified_buffer_b38428_stuck RequestsProgress, 73 states
(22,836, 4 min 25 s); unified_attach_all_ok 14,267, 22 s (table in docs/explanation/unified.md).
