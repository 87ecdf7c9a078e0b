------------------------ MODULE HiCacheUnifiedPipeline ------------------------
(***************************************************************************)
(* Protocol version `unified` with pipeline parallelism (PP > 1): the one  *)
(* merged HiCache collective per step that stage 0 reduces and forwards    *)
(* down the pipeline (#33473 -> #37562), and stage 0's prefetch tickets    *)
(* (#36700).                                                              *)
(*                                                                          *)
(* WHY A NEW MODULE (not EXTENDS HiCacheUnified): HiCacheUnified assumes    *)
(* PP = 1 and lockstep (every action completes a collective over the whole *)
(* sync domain). Under PP the stages are not in lockstep: stage s > 0 runs *)
(* step k when stage s-1's message of step k has arrived, so the scheduler *)
(* actions differ in shape (a pipe receive, not a collective). The per-rank *)
(* state, the queue names, the drain functions (DrainHit, DrainAck), the    *)
(* thread actions (PfQuery, S7Complete, PfPutHit, PfRead, SyncComplete,     *)
(* PutAck) and the invariant names are HiCacheUnified's; the rank-local     *)
(* paths of that module (batch_full, pd_decode, attach, ...) are PP-neutral *)
(* and stay there. Properties compare ranks at EQUAL STEP NUMBERS (a per-   *)
(* rank log of snapshots, as HiCachePipeline.tla does).                     *)
(*                                                                          *)
(* SOURCES. @db570fe6 = bytedance-iaas/sglang db570fe6 (22 Aug 2026);      *)
(* @later = the later copy of unified_radix_cache.py with #27010 held by   *)
(* the search corpus (see docs/explanation/unified.md). #37562's own thread is not in  *)
(* the search corpus: its shape (the storage queue sizes joined to         *)
(* #33473's [write, load] vector, one forwarded message per step) is taken *)
(* from the #37562 description we had; see docs/explanation/pipeline.md. *)
(*                                                                          *)
(* MODELLED.                                                                *)
(*  - stage 0 of CP x TP ranks: RECV (request broadcast), then the S123     *)
(*    vector [write, load, hit, ack-prefetch, release, d, -d] MIN-reduced  *)
(*    over stage 0's CP x TP groups (_all_reduce, pp_rank == 0 branch),    *)
(*    then the decided counts go down the pipeline with isend (_pp_sync)   *)
(*    together with the step's requests (the request relay);              *)
(*    unified_radix_cache.py::check_hicache_events, _all_reduce, _pp_sync  *)
(*    @db570fe6, drain_storage_control_queues @later.                       *)
(*  - stage s > 0: receives stage s-1's message of step k (recv on the pp  *)
(*    group; the channel holds at most MaxLag messages: _drain_async_work's *)
(*    backpressure) and drains by the decided counts. Drain:               *)
(*      "stage_local": the storage queues are drained by the stage's own   *)
(*        MIN (drain_storage_control_queues with _all_reduce_attn_groups,  *)
(*        @db570fe6): the pre-#37562 shape, a stage deciding on its own    *)
(*        count;                                                            *)
(*      "forwarded": stage 0's counts (@later; #37562's single message).   *)
(*    Bug "NOWAIT": a downstream stage drains the forwarded count with     *)
(*    _drain_queue's get_nowait, which stops at an empty queue             *)
(*    (_drain_storage_control_queues_impl._drain_queue @db570fe6; the     *)
(*    later copy with #27010 blocks instead, q.get(): the fix below):     *)
(*    the count is an upper bound, not an exact count. Fixed: the stage    *)
(*    waits until its own thread has queued that many entries (as          *)
(*    writing_check's pop + finish_event.synchronize() does for write      *)
(*    acks).                                                                *)
(*  - storage threads per rank as in HiCacheUnified: S7 (MIN of the local  *)
(*    hits) on the prefetch thread, the hit queued by each rank's thread on *)
(*    its own; the IO read, its completion MIN (S5) on the completion-sync *)
(*    thread, the ack queued on its own. Under #27010 both reduce over the *)
(*    pp group too (prefetch_hits_sync_groups, prefetch_completion_sync_   *)
(*    groups; cache_controller.py @later).                                  *)
(*  - Knob "tickets" (#36700, merged; thread Aug-Sep 2026): prefetch starts *)
(*    on every stage when stage 0 receives the request (eager, before the  *)
(*    relay);                                                               *)
(*    stage 0 alone queries storage and its S7 result travels to the other *)
(*    stages in the ticket. Knob "own_hit": a downstream stage uses its own *)
(*    storage hit count instead of the ticket's (the question "what if a   *)
(*    stage decides its own hit"). Bug "TKLOCAL": the completion MIN of a  *)
(*    ticketed prefetch reduces over the stage only, so a ticket worker    *)
(*    that fails (its allocation, its read: a read of 0 pages here) falls  *)
(*    back alone; fixed: the completion MIN spans the pp group, so every   *)
(*    stage falls back together (the PR's fault-injection row "ticket-     *)
(*    worker allocation failure ... all fell back").                        *)
(*                                                                          *)
(* Knobs "pf_shared_group" / "sync_shared_group" (HiCacheUnified's): the   *)
(* prefetch thread's S7 or the completion-sync thread's S5 takes its first *)
(* hop (the CP x TP reduction before the pp group) on the scheduler's     *)
(* stage group object HG(s) instead of a group of its own: the k-th calls *)
(* of the stage's members pair up whichever thread made them               *)
(* (SharedGroupMatching, part of CollectiveMatching).                      *)
(*                                                                          *)
(* ABSTRACTED: one page per key, one batch per prefetch; write-through and *)
(* load-back acks (the first two entries of S123) are popped blocking on   *)
(* every stage (pop(0) + synchronize()) and their counts are constants 0;  *)
(* backups only under Knob "backup" (their host lock is not modelled: the  *)
(* race shows in the popped counts); the digest is a constant pair; no     *)
(* aborts, no S4 (policies best_effort and wait_complete: the timeout MAX  *)
(* is PP0's decision forwarded like the counts); a request arrives only    *)
(* when no rank has a prefetch or a waiting request (one request at a time *)
(* through the whole pipeline: a bound on the environment); after MaxSteps *)
(* logged steps the schedulers stop (Done stutters).                        *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANTS
    Drain,      \* "stage_local" | "forwarded"
    Policy,     \* "best_effort" | "wait_complete"
    NReq,       \* requests in the stream
    HostCap,    \* host pages per rank
    MaxLag,     \* pipeline messages in flight per rank (stage s-1 ahead of stage s)
    MaxSteps,   \* scheduler steps per rank that are logged and compared
    Bugs,       \* subset of {"NOWAIT", "TKLOCAL"}
    Knobs       \* subset of {"tickets", "own_hit", "backup", "threads_sync"} \cup the knobs of
                \* the sections below (stage_extra_pools, pad_pools, s7_stage_mask, s7_agreed_bound)
                \* \cup {"pf_shared_group", "sync_shared_group"} (header)

ASSUME Drain \in {"stage_local", "forwarded"}
ASSUME Policy \in {"best_effort", "wait_complete"}
ASSUME NReq \in Nat \ {0} /\ HostCap \in Nat
ASSUME MaxLag \in Nat \ {0} /\ MaxSteps \in Nat \ {0}
ASSUME Bugs \subseteq {"NOWAIT", "TKLOCAL"}
ASSUME Knobs \subseteq {"tickets", "own_hit", "backup", "threads_sync"} \cup {"stage_extra_pools", "pad_pools", "s7_stage_mask", "s7_agreed_bound"}
                       \cup {"pf_shared_group", "sync_shared_group"}
ASSUME DP = 1 /\ PP >= 2

Threads == {"sched", "pf", "sync"}
VARIABLE coll
C == INSTANCE Collectives

\* The call sites this module's threads post on (the sync points; docs/reference/vocabulary.md).
Sites == {"RECV", "S5", "S7", "S123"}

StageRanks(s) == {r \in Ranks : StageOf(r) = s}
Stages == 0 .. PP - 1
Next_(r) == r + StageSize          \* the same tp position on the next stage
Tickets == "tickets" \in Knobs

\* Groups. RG: stage 0's request broadcast; HG(s): stage s's CP x TP grid (the scheduler's
\* HiCache MIN); PFG: the prefetch thread's S7 (every stage under #27010; stage 0 only with
\* tickets, whose result the ticket carries); SYG(r): the completion MIN rank r takes part in.
RG     == C!Group("recv", "sched", StageRanks(0))
HG(s)  == C!Group("hicache", "sched", StageRanks(s))
PFG    == C!Group("prefetch", "pf", IF Tickets THEN StageRanks(0) ELSE Ranks)
SYG(r) == C!Group("completion", "sync",
                  IF Tickets /\ "TKLOCAL" \in Bugs THEN StageRanks(StageOf(r)) ELSE Ranks)
SyncGroups == {SYG(r) : r \in Ranks}

-----------------------------------------------------------------------------
(* Variables (HiCacheUnified's names).                                      *)

VARIABLE pc        \* "recv" | "posted" | "events" | "admit" | "done"
VARIABLE step      \* steps rank r has completed (logged)
VARIABLE reqIdx, waiting
VARIABLE tree, hostFree, hostOwned
VARIABLE pf        \* the waiting request's prefetch (HiCacheUnified's record)
VARIABLE q         \* queue lengths: hit, ack, rel
VARIABLE ackv      \* the synced completion value each rank's sync thread got
VARIABLE popped    \* totals popped per queue
VARIABLE chan      \* chan[r]: messages from rank r - StageSize not yet received (stage > 0)
VARIABLE out       \* out[r]: the message rank r forwards at the end of its drain (being built)
VARIABLE log       \* log[r]: one snapshot per completed step

vars == <<coll, pc, step, reqIdx, waiting, tree, hostFree, hostOwned, pf, q, ackv, popped,
          chan, out, log>>

PfNone == [on |-> FALSE, st |-> "none", hit |-> 0, host |-> FALSE, loc |-> 0, comp |-> 0,
           term |-> FALSE]
Q0   == [hit |-> 0, ack |-> 0, rel |-> 0, bk |-> 0, bka |-> 0]
Pop0 == [hit |-> 0, ack |-> 0, rel |-> 0, bka |-> 0]
\* Knob "backup": an admitted request's node is backed up to storage by each rank's backup thread
\* on its own clock (each stage writes its own layers); its ack is drained at S123 like the others.
\* Knob "threads_sync": the S7 and completion results are queued on every rank at the moment the
\* collective completes (no thread lag), so that only the backup acks race (a question of its own).
Backups == "backup" \in Knobs
SyncPuts == "threads_sync" \in Knobs

TypeOK ==
    /\ pc \in [Ranks -> {"recv", "posted", "events", "admit", "done"}]
    /\ step \in [Ranks -> 0 .. MaxSteps]
    /\ reqIdx \in [Ranks -> 0 .. NReq] /\ waiting \in [Ranks -> 0 .. NReq]
    /\ hostFree \in [Ranks -> 0 .. HostCap]
    /\ \A r \in Ranks : Len(chan[r]) <= MaxLag

Post(r, g, site, op, val) == coll' = [coll EXCEPT ![r][g.ch] = C!Call(g, site, 1, op, val)]
Clear(g) == [q1 \in Ranks |-> IF q1 \in g.m THEN [coll[q1] EXCEPT ![g.ch] = C!NoCall]
                                             ELSE coll[q1]]
Posted(r, th, site) == coll[r][th] # C!NoCall /\ coll[r][th].site = site
Min2(a, b) == IF a < b THEN a ELSE b

\* Per-stage payload lengths (Knob "stage_extra_pools"): the storage part of the vector has one
\* entry per extra host pool of the STAGE (_sync_hicache_ready_counts / drain_storage_control_
\* queues: one release-queue size per entry of extra_host_mem_release_queues), and stages
\* hold different layers, so their pools may differ: here stage 0 has one extra pool (say a
\* sidecar of a layer kind only stage 0 holds), later stages none. A later stage receives
\* stage 0's vector into a tensor of its own length (_pp_sync's recv): PipeMatching.
\* Knob "pad_pools" (a fix): every stage lays the vector out for the union of the stages'
\* pools, a pool it lacks counting 0.
ExtraPools(s) == IF "stage_extra_pools" \in Knobs /\ s = 0 THEN 1 ELSE 0
VecExtras(s) == IF "pad_pools" \in Knobs THEN C!SetMax({ExtraPools(t) : t \in 0 .. PP - 1})
                ELSE ExtraPools(s)
Zeros(n) == [i \in 1 .. n |-> 0]
\* S7's payload under PP (Knob "s7_stage_mask"): a per-page hit mask whose length is the page
\* count of the STAGE's own prefetch key (the later copy that #39267 (open) changes: its thread
\* reports gloo's size error on prefetch_hits_sync_groups, 1092 vs 708 mask elements on two
\* stages); stages whose matched prefixes differ post masks of different lengths on the one
\* pp-spanning group: here stage 0's is one entry longer. Knob "s7_agreed_bound" (#39267's
\* approach): the hit upper bound is agreed by a fixed-size reduction first, so every stage
\* sizes its mask alike.
S7Extra(s) == IF "s7_stage_mask" \in Knobs /\ "s7_agreed_bound" \notin Knobs /\ s = 0 THEN 1 ELSE 0

\* The names of each site's payload positions, for the counterexample pages:
\* payload S123: writes, loads, hits, prefetch acks, releases, backup acks, digest, -digest
\* payload S7: pages hit
\* payload S5: pages read
\* The S123 vector rank r posts: [write, load, hit, ack-prefetch, release, backup acks, digest,
\* -digest] (the code's order puts backup acks before releases; the order is immaterial here).
\* unified_radix_cache.py::_sync_hicache_ready_counts @later (storage always on here)
S123Payload(r) == <<0, 0, q[r].hit, q[r].ack, q[r].rel, q[r].bka>> \o Zeros(VecExtras(StageOf(r)))
                  \o <<0, 0>>

\* Snapshot logged at the end of a step (compared across ranks at equal step numbers).
Snap(r, t, w, p, hf, pop) ==
    [tree |-> t, req |-> reqIdx[r], w |-> w, pop |-> pop, pfd |-> <<p.on, p.host, p.comp>>,
     hf |-> hf]

-----------------------------------------------------------------------------
(* Drains (HiCacheUnified's DrainHit / DrainAck, per rank).                 *)

\* unified_radix_cache.py::_drain_storage_control_queues_impl._drain_and_alloc_storage_hit,
\* _try_alloc_storage_hit @db570fe6: revoke below threshold / short pool, else allocate.
DrainHit(n, p, hf) ==
    IF n = 0 THEN [p |-> p, hf |-> hf]
    ELSE IF ~p.on \/ p.term \/ p.hit = 0 \/ hf < p.hit
      THEN [p |-> [p EXCEPT !.on = FALSE, !.st = "done"], hf |-> hf]
    ELSE [p |-> [p EXCEPT !.host = TRUE, !.st = "read"], hf |-> hf - p.hit]

\* _drain_ack_prefetch, _handle_prefetch_result @later: the final ack inserts a prefetch still
\* ongoing, and the unread tail goes to the release queue.
DrainAck(r, n, p, t, av) ==
    IF n = 0 THEN [p |-> p, t |-> t, own |-> 0, rel |-> 0]
    ELSE IF p.on
      THEN [p |-> [p EXCEPT !.comp = av, !.on = FALSE, !.st = "done"],
            t |-> IF av > 0 THEN [t EXCEPT ![waiting[r]] = "host"] ELSE t,
            own |-> IF av > 0 THEN 1 ELSE 0,
            rel |-> p.hit - av]
      ELSE [p |-> [p EXCEPT !.st = "done"], t |-> t, own |-> 0, rel |-> p.hit - p.comp]

-----------------------------------------------------------------------------
(* Stage 0: RECV, S123, forward.                                            *)

Issue == [PfNone EXCEPT !.on = TRUE, !.st = "query"]

\* unified_radix_cache.py::prefetch_from_storage @db570fe6 (issued at RECV, no host memory).
\* sglang: scheduler.py::recv_requests; unified_radix_cache.py::prefetch_from_storage
SchedRecv(r) ==
    /\ StageOf(r) = 0 /\ pc[r] = "recv" /\ step[r] < MaxSteps
    /\ Len(chan[Next_(r)]) < MaxLag                  \* _drain_async_work: bounded sends
    /\ Post(r, RG, "RECV", "MAX", <<>>)
    /\ pc' = [pc EXCEPT ![r] = "posted"]
    /\ UNCHANGED <<step, reqIdx, waiting, tree, hostFree, hostOwned, pf, q, ackv, popped, chan,
                   out, log>>

\* The broadcast completes on stage 0. A request is taken when none waits anywhere and no
\* prefetch is alive (environment bound). With tickets every stage's prefetch starts now
\* (eager, #36700); else downstream stages issue theirs when the relay reaches them.
\* sglang: scheduler.py::recv_requests (the broadcast returns on stage 0)
RecvComplete ==
    /\ C!AllPosted(RG) /\ \A r \in StageRanks(0) : Posted(r, "sched", "RECV")
    /\ LET take == reqIdx[0] < NReq /\ \A r \in Ranks : waiting[r] = 0 /\ pf[r].st \in {"none", "done"}
           eager(r) == take /\ (StageOf(r) = 0 \/ Tickets)
       IN /\ coll' = Clear(RG)
          /\ reqIdx' = [r \in Ranks |-> IF take /\ StageOf(r) = 0 THEN reqIdx[r] + 1 ELSE reqIdx[r]]
          /\ waiting' = [r \in Ranks |-> IF take /\ StageOf(r) = 0 THEN reqIdx[r] + 1 ELSE waiting[r]]
          /\ pf' = [r \in Ranks |-> IF eager(r) THEN Issue ELSE pf[r]]
          /\ out' = [r \in Ranks |-> IF StageOf(r) = 0 THEN [take |-> take, n |-> <<>>] ELSE out[r]]
          /\ pc' = [r \in Ranks |-> IF StageOf(r) = 0 THEN "events" ELSE pc[r]]
    /\ UNCHANGED <<step, tree, hostFree, hostOwned, q, ackv, popped, chan, log>>

\* Stage 0 rank posts its S123 vector. check_hicache_events -> _sync_hicache_ready_counts
\* (#37562) / the [write, load] vector of #33473 then drain_storage_control_queues @later.
\* sglang: unified_radix_cache.py::check_hicache_events -> _sync_hicache_ready_counts
SchedEvents(r) ==
    /\ pc[r] = "events"
    /\ Post(r, HG(StageOf(r)), "S123", "MIN", S123Payload(r))
    /\ pc' = [pc EXCEPT ![r] = "posted"]
    /\ UNCHANGED <<step, reqIdx, waiting, tree, hostFree, hostOwned, pf, q, ackv, popped, chan,
                   out, log>>

\* S123 completes on stage s's grid: every member drains exactly the MIN. On stage 0 the
\* counts are also forwarded (_pp_sync's isend) with the step's requests; on a downstream
\* stage (Drain "stage_local") they are the stage's own.
\* sglang: unified_radix_cache.py::_sync_hicache_ready_counts; unified_radix_cache.py::_pp_sync
EventsComplete(s) ==
    /\ C!AllPosted(HG(s)) /\ C!Matched(HG(s)) /\ \A r \in StageRanks(s) : Posted(r, "sched", "S123")
    /\ LET res == C!Result(HG(s))
           nh == res[3]
           na == res[4]
           nr == res[5]
           nb == res[6]
           h(r) == DrainHit(nh, pf[r], hostFree[r])
           a(r) == DrainAck(r, na, h(r).p, tree[r], ackv[r])
           in_(r) == r \in StageRanks(s)
       IN /\ coll' = Clear(HG(s))
          /\ pf' = [r \in Ranks |-> IF in_(r) THEN a(r).p ELSE pf[r]]
          /\ tree' = [r \in Ranks |-> IF in_(r) THEN a(r).t ELSE tree[r]]
          /\ hostOwned' = [r \in Ranks |-> IF in_(r) THEN hostOwned[r] + a(r).own ELSE hostOwned[r]]
          /\ hostFree' = [r \in Ranks |-> IF in_(r) THEN h(r).hf + nr ELSE hostFree[r]]
          /\ q' = [r \in Ranks |-> IF in_(r)
                     THEN [q[r] EXCEPT !.hit = @ - nh, !.ack = @ - na, !.rel = @ - nr + a(r).rel,
                                       !.bka = @ - nb]
                     ELSE q[r]]
          /\ popped' = [r \in Ranks |-> IF in_(r)
                          THEN [hit |-> popped[r].hit + nh, ack |-> popped[r].ack + na,
                                rel |-> popped[r].rel + nr, bka |-> popped[r].bka + nb]
                          ELSE popped[r]]
          /\ chan' = [r \in Ranks |-> IF StageOf(r) = s + 1 /\ s + 1 < PP
                         THEN Append(chan[r], [out[r - StageSize] EXCEPT !.n = <<nh, na, nr, nb>>
                                                                                \o Zeros(VecExtras(s))])
                         ELSE chan[r]]
          /\ pc' = [r \in Ranks |-> IF in_(r) THEN "admit" ELSE pc[r]]
    /\ UNCHANGED <<step, reqIdx, waiting, ackv, out, log>>

-----------------------------------------------------------------------------
(* Stage s > 0: receive stage s-1's message of the step, drain, forward.    *)

\* Rank r (stage > 0) receives the message: the relayed request (its prefetch is issued now
\* unless a ticket started it already) and, under Drain "forwarded", the counts to drain, then
\* passes the message on (isend) to the next stage. Forwarded: with bug NOWAIT, _drain_queue's
\* get_nowait drains at most what is queued; fixed, the rank waits (this action is not
\* enabled) until its own threads have queued that many. The receive and the drain are one
\* step: rank-local computation between two blocking points.
\* scheduler_pp_mixin.py relay recv; unified_radix_cache.py::_pp_sync (recv, then isend),
\* drain_storage_control_queues @later, _drain_storage_control_queues_impl._drain_queue.
\* sglang: scheduler_pp_mixin.py (relay recv); unified_radix_cache.py::_pp_sync
SchedRecvPipe(r) ==
    /\ StageOf(r) > 0 /\ pc[r] = "recv" /\ chan[r] # <<>>
    /\ LET m      == Head(chan[r])
           fw     == Drain = "forwarded"
           nowait == "NOWAIT" \in Bugs
           take   == m.take
           nh == IF nowait THEN Min2(m.n[1], q[r].hit) ELSE m.n[1]
           na == IF nowait THEN Min2(m.n[2], q[r].ack) ELSE m.n[2]
           nr == IF nowait THEN Min2(m.n[3], q[r].rel) ELSE m.n[3]
           nb == IF nowait THEN Min2(m.n[4], q[r].bka) ELSE m.n[4]
           last == StageOf(r) + 1 = PP
           p0 == IF take /\ ~Tickets THEN Issue ELSE pf[r]
           h  == DrainHit(nh, p0, hostFree[r])
           a  == DrainAck(r, na, h.p, tree[r], ackv[r])
           fwd == [take |-> take, n |-> m.n]        \* stage 0's counts travel on unchanged
       IN /\ IF last THEN TRUE ELSE Len(chan[Next_(r)]) < MaxLag   \* (IF: TLC branches on \/)
          /\ reqIdx' = [reqIdx EXCEPT ![r] = IF take THEN @ + 1 ELSE @]
          /\ waiting' = [waiting EXCEPT ![r] = IF take THEN reqIdx[r] + 1 ELSE @]
          /\ IF fw
               THEN /\ nowait \/ (q[r].hit >= nh /\ q[r].ack >= na /\ q[r].rel >= nr /\ q[r].bka >= nb)
                    /\ pf' = [pf EXCEPT ![r] = a.p]
                    /\ tree' = [tree EXCEPT ![r] = a.t]
                    /\ hostOwned' = [hostOwned EXCEPT ![r] = @ + a.own]
                    /\ hostFree' = [hostFree EXCEPT ![r] = h.hf + nr]
                    /\ q' = [q EXCEPT ![r] = [@ EXCEPT !.hit = @ - nh, !.ack = @ - na,
                                              !.rel = @ - nr + a.rel, !.bka = @ - nb]]
                    /\ popped' = [popped EXCEPT ![r] = [hit |-> @.hit + nh, ack |-> @.ack + na,
                                                        rel |-> @.rel + nr, bka |-> @.bka + nb]]
                    /\ chan' = IF last THEN [chan EXCEPT ![r] = Tail(@)]
                               ELSE [chan EXCEPT ![r] = Tail(@), ![Next_(r)] = Append(@, fwd)]
                    /\ pc' = [pc EXCEPT ![r] = "admit"]
                    /\ UNCHANGED out
               ELSE /\ pf' = [pf EXCEPT ![r] = p0]
                    /\ chan' = [chan EXCEPT ![r] = Tail(@)]
                    /\ out' = [out EXCEPT ![r] = [take |-> take, n |-> <<>>]]
                    /\ pc' = [pc EXCEPT ![r] = "events"]
                    /\ UNCHANGED <<tree, hostFree, hostOwned, q, popped>>
    /\ UNCHANGED <<coll, step, ackv, log>>

-----------------------------------------------------------------------------
(* Admission (every stage).                                                 *)

\* Rank r's admission reaches the waiting request: admitted when no prefetch is ongoing;
\* best_effort terminates the prefetch (inserting the synced pages when host memory holds
\* them); wait_complete waits for the ack drain. check_prefetch_progress,
\* _can_terminate_prefetch @later; scheduler.py::_get_new_batch_prefill_raw @db570fe6.
\* The step ends here: its snapshot is logged.
\* sglang: scheduler.py::_get_new_batch_prefill_raw; unified_radix_cache.py::check_prefetch_progress
SchedAdmit(r) ==
    /\ pc[r] = "admit"
    /\ LET i   == waiting[r]
           p   == pf[r]
           adm == i # 0 /\ ~p.on
           trm == i # 0 /\ p.on /\ (p.term \/ Policy = "best_effort")
           ins == trm /\ p.host /\ p.comp > 0
           t2  == IF adm THEN [tree[r] EXCEPT ![i] = "dev"]
                  ELSE IF ins THEN [tree[r] EXCEPT ![i] = "host"] ELSE tree[r]
           w2  == IF adm THEN 0 ELSE i
           p2  == IF trm THEN [p EXCEPT !.on = FALSE, !.term = TRUE] ELSE p
       IN /\ tree' = [tree EXCEPT ![r] = t2]
          /\ waiting' = [waiting EXCEPT ![r] = w2]
          /\ pf' = [pf EXCEPT ![r] = p2]
          /\ hostOwned' = [hostOwned EXCEPT ![r] = @ + (IF ins THEN 1 ELSE 0)]
          /\ q' = [q EXCEPT ![r].bk = @ + (IF adm /\ Backups THEN 1 ELSE 0)]
          /\ log' = [log EXCEPT ![r] = Append(@, Snap(r, t2, w2, p2, hostFree[r], popped[r]))]
    /\ step' = [step EXCEPT ![r] = @ + 1]
    /\ pc' = [pc EXCEPT ![r] = IF step[r] + 1 = MaxSteps THEN "done" ELSE "recv"]
    /\ UNCHANGED <<coll, reqIdx, hostFree, ackv, popped, chan, out>>

-----------------------------------------------------------------------------
(* Storage threads (HiCacheUnified's, with the pp group in their reductions). *)

\* Rank r's prefetch thread queries storage (h hit pages, rank-local) and posts S7. With
\* tickets only stage 0 queries; with own_hit a downstream stage takes its own h instead of
\* the ticket's. cache_controller.py::prefetch_thread_func @db570fe6 / @later
\* sglang: cache_controller.py::prefetch_thread_func
PfQuery(r, h) ==
    /\ pf[r].st = "query" /\ coll[r]["pf"] = C!NoCall
    /\ IF r \in PFG.m
         THEN /\ Post(r, PFG, "S7", "MIN", <<IF pf[r].term THEN 0 ELSE h>> \o Zeros(S7Extra(StageOf(r))))
              /\ UNCHANGED pf
         ELSE /\ "own_hit" \in Knobs                 \* downstream stage, ticketed
              /\ pf' = [pf EXCEPT ![r].hit = h, ![r].st = "hitres"]
              /\ UNCHANGED coll
    /\ UNCHANGED <<pc, step, reqIdx, waiting, tree, hostFree, hostOwned, q, ackv, popped, chan,
                   out, log>>

\* S7 completes; with tickets its result also reaches the downstream stages' ticket workers
\* (the ticket), unless they took their own hit (own_hit).
\* sglang: cache_controller.py::prefetch_thread_func (the all_reduce returns)
S7Complete ==
    /\ C!AllPosted(PFG) /\ C!Matched(PFG)
    /\ LET m == C!Result(PFG)[1]
           gets(r) == r \in PFG.m \/ (Tickets /\ "own_hit" \notin Knobs /\ pf[r].st = "query")
       IN /\ pf' = [r \in Ranks |-> IF gets(r) THEN [pf[r] EXCEPT !.hit = m,
                                                   !.st = IF SyncPuts THEN "hitq" ELSE "hitres"]
                                   ELSE pf[r]]
          /\ q' = [r \in Ranks |-> IF gets(r) /\ SyncPuts THEN [q[r] EXCEPT !.hit = @ + 1] ELSE q[r]]
    /\ coll' = Clear(PFG)
    /\ UNCHANGED <<pc, step, reqIdx, waiting, tree, hostFree, hostOwned, ackv, popped, chan,
                   out, log>>

\* Rank r's prefetch thread queues the hit (prefetch_hit_queue.put), on its own.
\* sglang: cache_controller.py::prefetch_thread_func (prefetch_hit_queue.put)
PfPutHit(r) ==
    /\ pf[r].st = "hitres"
    /\ pf' = [pf EXCEPT ![r].st = "hitq"]
    /\ q' = [q EXCEPT ![r].hit = @ + 1]
    /\ UNCHANGED <<coll, pc, step, reqIdx, waiting, tree, hostFree, hostOwned, ackv, popped, chan,
                   out, log>>

\* Rank r's IO thread reads k pages (rank-local; 0 = a failed read or a failed ticket-worker
\* allocation) and posts the completion MIN. cache_controller.py::_page_transfer,
\* prefetch_sync_thread_func, _reduce_prefetch_ack @later
\* sglang: cache_controller.py::_page_transfer; cache_controller.py::prefetch_sync_thread_func
PfRead(r, k) ==
    /\ pf[r].st = "read" /\ coll[r]["sync"] = C!NoCall /\ k <= pf[r].hit
    /\ Post(r, SYG(r), "S5", "MIN", <<IF pf[r].term THEN 0 ELSE k>>)
    /\ pf' = [pf EXCEPT ![r].st = "sync", ![r].loc = k]
    /\ UNCHANGED <<pc, step, reqIdx, waiting, tree, hostFree, hostOwned, q, ackv, popped, chan,
                   out, log>>

\* sglang: cache_controller.py::_reduce_prefetch_ack (the completion MIN returns)
SyncComplete(g) ==
    /\ C!AllPosted(g) /\ C!Matched(g)
    /\ LET m == C!Result(g)[1]
       IN /\ ackv' = [r \in Ranks |-> IF r \in g.m THEN m ELSE ackv[r]]
          /\ pf' = [r \in Ranks |-> IF r \in g.m
                                    THEN [pf[r] EXCEPT !.st = IF SyncPuts THEN "acked" ELSE "ackres"]
                                    ELSE pf[r]]
          /\ q' = [r \in Ranks |-> IF r \in g.m /\ SyncPuts THEN [q[r] EXCEPT !.ack = @ + 1] ELSE q[r]]
    /\ coll' = Clear(g)
    /\ UNCHANGED <<pc, step, reqIdx, waiting, tree, hostFree, hostOwned, popped, chan, out, log>>

\* Rank r's completion-sync thread queues the synced ack (ack_prefetch_queue.put), on its own.
\* sglang: cache_controller.py::prefetch_sync_thread_func (ack_prefetch_queue.put)
PutAck(r) ==
    /\ pf[r].st = "ackres"
    /\ pf' = [pf EXCEPT ![r].st = "acked"]
    /\ q' = [q EXCEPT ![r].ack = @ + 1]
    /\ UNCHANGED <<coll, pc, step, reqIdx, waiting, tree, hostFree, hostOwned, ackv, popped, chan,
                   out, log>>

\* Rank r's backup thread writes one queued node to storage and acks it (ack_backup_queue.put),
\* on its own clock. cache_controller.py::backup_thread_func @db570fe6
\* sglang: cache_controller.py::backup_thread_func
BackupOk(r) ==
    /\ q[r].bk > 0
    /\ q' = [q EXCEPT ![r].bk = @ - 1, ![r].bka = @ + 1]
    /\ UNCHANGED <<coll, pc, step, reqIdx, waiting, tree, hostFree, hostOwned, pf, ackv, popped, chan,
                   out, log>>

-----------------------------------------------------------------------------
(* Specification.                                                           *)

Init ==
    /\ coll = [r \in Ranks |-> [th \in Threads |-> C!NoCall]]
    /\ pc = [r \in Ranks |-> "recv"]
    /\ step = [r \in Ranks |-> 0]
    /\ reqIdx = [r \in Ranks |-> 0] /\ waiting = [r \in Ranks |-> 0]
    /\ tree = [r \in Ranks |-> [i \in 1 .. NReq |-> "none"]]
    /\ hostFree = [r \in Ranks |-> HostCap]
    /\ hostOwned = [r \in Ranks |-> 0]
    /\ pf = [r \in Ranks |-> PfNone]
    /\ q = [r \in Ranks |-> Q0] /\ ackv = [r \in Ranks |-> 0]
    /\ popped = [r \in Ranks |-> Pop0]
    /\ chan = [r \in Ranks |-> <<>>]
    /\ out = [r \in Ranks |-> [take |-> FALSE, n |-> <<>>]]
    /\ log = [r \in Ranks |-> <<>>]

\* Every scheduler has logged MaxSteps steps: the end of the bounded run (not a deadlock).
\* sglang: none: the bounded run is over (stuttering)
Done == (\A r \in Ranks : pc[r] = "done") /\ UNCHANGED vars

Next ==
    \/ \E r \in Ranks : SchedRecv(r) \/ SchedEvents(r) \/ SchedRecvPipe(r) \/ SchedAdmit(r)
    \/ RecvComplete \/ \E s \in Stages : EventsComplete(s)
    \/ \E r \in Ranks : \/ \E h \in 0 .. 1 : PfQuery(r, h)
                        \/ \E k \in 0 .. 1 : PfRead(r, k)
                        \/ PfPutHit(r) \/ PutAck(r) \/ BackupOk(r)
    \/ S7Complete \/ \E g \in SyncGroups : SyncComplete(g)
    \/ Done

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties: HiCacheUnified's names, compared at equal step numbers.      *)

StepAgree(f(_)) ==
    \A r1, r2 \in Ranks :
        \A k \in 1 .. Min2(Len(log[r1]), Len(log[r2])) : f(log[r1][k]) = f(log[r2][k])

\* Shared groups (Knobs pf_shared_group / sync_shared_group): a storage thread's posted call is at
\* its first hop, on its stage's scheduler group HG(s), until every member of that stage has
\* posted (the hop cannot complete before). A rank whose only call there is its storage
\* thread's, against a stage peer whose only call there is its scheduler's, pairs S7 or S5 with
\* S123. (Where a rank has both calls posted their order is not modelled: every mismatch found
\* is a real one.)
SharedThreads == {th \in {"pf", "sync"} :
                    \/ th = "pf" /\ "pf_shared_group" \in Knobs
                    \/ th = "sync" /\ "sync_shared_group" \in Knobs}
OnStageGroup(r, th) ==
    coll[r][th] # C!NoCall /\ (th = "sched" => coll[r][th].grp = HG(StageOf(r)))
OnlyOn(r, th, other) == OnStageGroup(r, th) /\ ~OnStageGroup(r, other)
SharedGroupMatching ==
    \A th \in SharedThreads :
        ~(\E r1, r2 \in Ranks : StageOf(r1) = StageOf(r2) /\ OnlyOn(r1, th, "sched")
                                                      /\ OnlyOn(r2, "sched", th))
CollectiveMatching == C!CollectiveMatching /\ SharedGroupMatching
\* INV-3: the same tree and waiting queue after every step.
TreeAgreement == StepAgree(LAMBDA e : <<e.tree, e.req, e.w>>)
\* INV-4: every synced queue popped by the same counts.
AckAgreement == StepAgree(LAMBDA e : e.pop)
\* INV-5: the same prefetch decisions.
PrefetchAgreement == StepAgree(LAMBDA e : e.pfd)
\* INV-6: the same free host memory (cache mode; buffer-only staging of #36700 is not part
\* of the tree, so its models leave this invariant out where the question is the tree).
AllocAgreement == StepAgree(LAMBDA e : e.hf)
\* INV-7 per rank (HiCacheUnified's HostSlotSafety).
HeldByPrefetch(r) == IF pf[r].host /\ pf[r].st # "done" THEN pf[r].hit ELSE 0
HostSlotSafety ==
    \A r \in Ranks : /\ hostFree[r] \in 0 .. HostCap
                    /\ hostFree[r] + q[r].rel + HeldByPrefetch(r) + hostOwned[r] = HostCap

\* INV-1's pipe face: a message a later stage receives has the length of the tensor it receives
\* it into (its own vector). torch.distributed.recv of a different size fails or hangs.
PipeMatching ==
    Drain = "forwarded" =>
        \A r \in Ranks : \A i \in 1 .. Len(chan[r]) : Len(chan[r][i].n) = 4 + VecExtras(StageOf(r))

\* Reachability (must fail): a prefetched node is inserted on every rank.
DebugPrefetchInserted == ~(\A r \in Ranks : \E i \in 1 .. NReq : tree[r][i] = "host")

=============================================================================
Measured (plain TLC 2.18, -workers 1, 30 Nov 2026 22:42-22:48 UTC, load 9-21; MaxSteps 3, MaxLag 2, one
request, PP 2): unipp_forwarded_blocking 1,579 distinct states, 6.3 s; unipp_stage_local_drain violates
TreeAgreement, 391, 14 states; unipp_forwarded_nowait violates TreeAgreement, 578, 19 states; tickets
models 714-3,549 distinct, 8-18 s; PP 2 x CP 2 (unipp_forwarded_blocking_cp2) 117,481 distinct, 107.6 s.
Knob "backup" (with "threads_sync"): unipp_forwarded_nowait_backup violates AckAgreement, 944
distinct, 26 states; unipp_forwarded_blocking_backup holds, 1,044 (load 25, 23:47 UTC). Table:
docs/explanation/pipeline.md.
