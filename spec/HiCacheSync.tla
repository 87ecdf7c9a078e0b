----------------------------- MODULE HiCacheSync -----------------------------
(***************************************************************************)
(* The HiCache multi-rank synchronization protocol (SGLang), one or more   *)
(* sync domains of CP x TP ranks.                                           *)
(*                                                                          *)
(* MODELLED (sources: sgl-project/sglang, python/sglang/srt/mem_cache/     *)
(* hiradix_cache.py, managers/cache_controller.py, managers/scheduler.py): *)
(*  - the scheduler step of every rank: RECV (request broadcast: the step  *)
(*    rendezvous of the domain), cache_finished_req of the running request *)
(*    (insert + write-through), check_hicache_events = S1 writing_check,   *)
(*    S2 loading_check, S3 drain_storage_control_queues (v30511: fused in  *)
(*    one vector collective S123), the admission loop with S4              *)
(*    can_terminate_prefetch and S5 check_prefetch_progress, load-back on  *)
(*    a host hit, device/host eviction under memory pressure;              *)
(*  - the prefetch thread (prefetch_thread_func): S7 storage-hit MIN on    *)
(*    its own groups, then revoke or read;                                 *)
(*  - which groups each sync point reduces over, per Version:              *)
(*      pre20460  : tp_cache_group only, skipped when it is a singleton    *)
(*                  (`if world_size > 1`), as before PR #20460: the        *)
(*                  attn_tp group with DP attention (the default here),    *)
(*                  the whole TP group of the stage without it (knob       *)
(*                  no_dp_attention: then CP ranks do sync, B1 cannot      *)
(*                  happen);                                               *)
(*      post20460 : attn_cp group, then attn_tp group (PR #20460), each    *)
(*                  skipped when a singleton; S7 too;                      *)
(*      merged    : as post20460 but S1-S3 fused into one vector           *)
(*                  all_reduce S123 per step (PR #30511);                  *)
(*      pipelined : as merged, but S123 is issued asynchronously (its own  *)
(*                  channel "async") and its result consumed at the next   *)
(*                  step's S123, waiting on the handle if still in flight  *)
(*                  (proposal #39903, closed unmerged).                    *)
(*  - environment nondeterminism, per rank and never injected divergence:  *)
(*    when a GPU copy event completes (in order on its stream), when a     *)
(*    storage backup completes, how many leading pages storage holds for   *)
(*    this rank (S7 local value), whether each page read succeeds, when a  *)
(*    prefetch timeout fires.                                              *)
(*                                                                          *)
(* ABSTRACTED (and why):                                                    *)
(*  - the radix tree is one node per request key (PagesPerKey pages); the  *)
(*    invariants need only residency, lock counts, host protection, node   *)
(*    ids; prefix splitting is a deterministic function of the keys;       *)
(*  - LRU order on the replicated clock: a node's last access time (at) is *)
(*    the index of the request that last matched or inserted it (SGLang's  *)
(*    last_access_time, read as a logical clock that advances with the     *)
(*    broadcast request stream, so it is the same on every rank); victims  *)
(*    are the least recently used, ties by key (knob local_clock: a rank's *)
(*    own clock orders them otherwise);                                    *)
(*  - the waiting queue holds at most WaitingCap requests (RECV takes no  *)
(*    new one while it is full); the admission loop looks at them oldest   *)
(*    first (fcfs; local_order breaks that) and admits at most one per     *)
(*    step; an admitted request runs for one step; the request broadcast   *)
(*    is deterministic (arrival timing does not create divergence because  *)
(*    it is broadcast);                                                    *)
(*  - rank-local computation between two collectives is one atomic step   *)
(*    (other ranks cannot observe it), computed by the action that         *)
(*    completes the collective: the last arriver resumes every member up   *)
(*    to its next collective call;                                         *)
(*  - a storage page read lands in its host slot atomically with the       *)
(*    completed-token counter (the in-flight batch race of #27010 is an    *)
(*    issue-3 refinement); the prefetch anchor node is the root (no host   *)
(*    protection of an anchor is needed with one-node keys);               *)
(*  - storage contents are not state: S7's local hit count is chosen per   *)
(*    rank when the prefetch thread queries storage;                       *)
(*  - environment steps happen only while the whole domain waits at RECV   *)
(*    (EnvWindow): a sound reduction, since they are observed only after   *)
(*    the next RECV completes.                                             *)
(*                                                                          *)
(* BUG KNOBS (Bugs), each the code path of a catalogued bug:               *)
(*   "B3"  writing_check returns before its all_reduce when no write event  *)
(*         is done locally (#10127);                                        *)
(*   "B5"  loading_check pops by the local count;                           *)
(*   "P1"  (pipelined) reads the local counts for the next asynchronous MIN *)
(*         before consuming the previous one;                               *)
(*   "B10" (#30760) the admission loop breaks on its rank-local batch-full  *)
(*         test before the prefetch checks (needs Knobs batch_full); fixed: *)
(*         every ongoing prefetch is checked once per step before any       *)
(*         rank-local exit (the exit then only stops admission);           *)
(*   "B14" (#31443) S5 reduces the KV page count only, not the sidecar's;   *)
(*   "B14sum" S5 counts sidecar successes by sum, not by leading run; fixed:*)
(*         MIN over ranks of [KV pages, leading sidecar successes];         *)
(*   "B15" (#27550) best_effort returns early, rank-locally, while the      *)
(*         sidecar transfer is pending, before S5's MIN; fixed: the wait is *)
(*         decided by S4's MAX on every rank (needs Knobs sidecar);         *)
(*   "WTO" (#37143) the waiting-timeout abort reads each rank's own clock:  *)
(*         the abort (and its S6 barrier) happens on some ranks only       *)
(*         (needs Knobs abort).                                            *)
(* A bug that deadlocks (B3, B10, B15) makes one rank skip a collective     *)
(* that another enters: the skipping rank posts the next step's RECV (the   *)
(* domain group), the other a HiCache sync point (an attn_cp/attn_tp        *)
(* group); neither collective has all its members, so no action is        *)
(* enabled and TLC reports a deadlock, as gloo hangs.                      *)
(*                                                                          *)
(* KNOBS (Knobs): environment features and the protocol's hidden           *)
(* assumptions made explicit; {} in every model but its own.               *)
(*   features: "no_dp_attention" (the deployment runs without DP attention: *)
(*     SGLang's attn_tp group is then the whole TP group, and so is        *)
(*     pre20460's tp_cache_group; DP = 1),                                 *)
(*     "batch_full" (the batch may be full at an admission, seen by        *)
(*     each rank early or late: lenv.bf), "sidecar" (a second per-page      *)
(*     pool, e.g. the DSA indexer, read page by page independently of the   *)
(*     KV pages: PfOp sn/sc/ss, Node sx, invariant SidecarCoverage),        *)
(*     "abort" (a waiting request is aborted: AbortReq or the waiting      *)
(*     timeout; release_aborted_request with the S6 barrier when its      *)
(*     prefetch holds host slots, whatever phase the prefetch is in);     *)
(*     "abort_running" (the running request is aborted: it finishes as     *)
(*     any finish does, its node's load-back lock kept until S2);          *)
(*     "finish_in_step" (SGLang's normal event loop: a request finishes at *)
(*     the end of the step that admitted it, before the next RECV, so its  *)
(*     write-through may complete before the next event check; default:   *)
(*     right after the next RECV; see FinishAtRecv);                       *)
(*   broken assumptions (each model expected to fail):                     *)
(*     "uneven_capacity" rank 0's host pool is one page larger (INV-6);    *)
(*     "local_pool_sizes" every rank sizes its pools from its own          *)
(*                    PoolSizes entry, without the start-up MIN (INV-6);   *)
(*     "local_clock"  LRU order from a per-rank clock (INV-3);              *)
(*     "shared_group" the prefetch thread's S7 on the scheduler's groups    *)
(*                    (INV-1: two threads of a rank share one group);       *)
(*     "local_payload" S3's vector length depends on the local queues      *)
(*                    (INV-1: payload sizes);                              *)
(*     "pf_thread_dies" one rank's prefetch thread stops (an exception from  *)
(*                    its storage query ends prefetch_thread_func, whose   *)
(*                    loop catches only queue.Empty): a peer that posted   *)
(*                    S7 waits there forever while the schedulers go on    *)
(*                    (liveness: PrefetchThreadNeverStuck);                *)
(*     "release_whole" an aborted read's host pages queued as one entry per *)
(*                    call, not one per page (#9797): the entry count then  *)
(*                    depends on how far this rank's read got (INV-4);      *)
(*     "local_order"  a rank's schedule policy orders the waiting queue     *)
(*                    from rank-local state (INV-3);                        *)
(*     "async_rank_off" (pipelined) rank 0 never issues the asynchronous    *)
(*                    S123, so its peers' MIN never ends (AsyncNeverStuck;  *)
(*                    their schedulers wait on the handle, so the model is  *)
(*                    checked with deadlock checking off);                  *)
(*     "local_extra_pools" (sidecar) rank 0's KV pool has no sidecar pool,  *)
(*                    so its S5 payload is one entry shorter (INV-1);       *)
(*     "abort_unlock_load" (with the feature "abort_running": the running   *)
(*                    request is aborted) the abort drops the load-back     *)
(*                    lock too, before S2 (HostSlotSafety: HP6).            *)
(*                                                                          *)
(* NOT MODELLED HERE (HiCachePipeline.tla does): PP > 1 is accepted by     *)
(* Topology but stages here run in lockstep (no send/recv forwarding, B6);  *)
(* per-batch storage acks and the prefetch sync thread (B7); batch_full     *)
(* stands for a batch filled by other requests (B10); a chunked prefill's  *)
(* abort (release_kv_cache with is_insert=False; the model has no chunks); *)
(* write_back / write_through_selective.                                   *)
(* Coverage note: the prefetch thread runs only while its domain waits at   *)
(* RECV (EnvWindow), so a prefetch cannot progress within the step that     *)
(* issued it; under best_effort (no S4) every prefetch therefore ends at    *)
(* its first admission with 0 pages unless something keeps the request      *)
(* waiting (batch_full's "busy": the B15 models use it).                    *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANTS
    Version,            \* "pre20460" | "post20460" | "merged" | "pipelined" (#39903)
    Policy,             \* prefetch stop policy: "best_effort" | "wait_complete" | "timeout"
    WritePolicy,        \* "write_through" (write_back and write_through_selective: the Java side)
    StorageOn,          \* L3 storage backend enabled (prefetch + storage backup)
    Requests,           \* the request stream: a sequence of keys, identical on every rank
    PagesPerKey,        \* pages of one key (one radix node)
    DeviceCap,          \* device KV pool pages (L1) of the equal-pools configuration (MCEqualPools)
    HostCap,            \* host KV pool pages (L2) of the equal-pools configuration
    PoolSizes,          \* per rank, the pools it is configured with: [dev |-> pages, host |-> pages]
    PrefetchThreshold,  \* pages: below this S7 result the prefetch is revoked
    Bugs,               \* catalogued bugs switched on (PROTOCOL.md section 6); {} = the version as is
    Knobs,              \* environment features and broken hidden assumptions (BUG KNOBS); {} = none
    WaitingCap          \* requests a rank's waiting queue holds at most (RECV takes none while full)

ASSUME Version \in {"pre20460", "post20460", "merged", "pipelined"}
ASSUME Policy \in {"best_effort", "wait_complete", "timeout"}
ASSUME WritePolicy \in {"write_through"}
ASSUME StorageOn \in BOOLEAN
ASSUME PagesPerKey \in Nat \ {0} /\ DeviceCap \in Nat /\ HostCap \in Nat
ASSUME PoolSizes \in [Ranks -> [dev : Nat, host : Nat]]
ASSUME PrefetchThreshold \in Nat
ASSUME Bugs \subseteq {"B3", "B5", "P1", "B10", "B14", "B14sum", "B15", "WTO"}
ASSUME Knobs \subseteq {"batch_full", "sidecar", "uneven_capacity", "local_clock", "shared_group",
                        "local_payload", "pf_thread_dies", "no_dp_attention",
                        "local_pool_sizes", "abort", "release_whole", "local_order",
                        "async_rank_off", "local_extra_pools", "abort_running",
                        "abort_unlock_load", "finish_in_step"}
ASSUME WaitingCap \in Nat \ {0}
\* The bugs that live in code the knobs add: without the feature they cannot happen.
ASSUME "B10" \in Bugs => "batch_full" \in Knobs
ASSUME "WTO" \in Bugs => "abort" \in Knobs
\* Attention DP replicas exist only with DP attention.
ASSUME "no_dp_attention" \in Knobs => DP = 1
\* Only the pipelined version has an asynchronous S123 to take off.
ASSUME "async_rank_off" \in Knobs => Version = "pipelined"
ASSUME ({"B14", "B14sum", "B15"} \cap Bugs # {}) => "sidecar" \in Knobs
ASSUME "local_extra_pools" \in Knobs => "sidecar" \in Knobs
ASSUME "abort_unlock_load" \in Knobs => "abort_running" \in Knobs
\* finish_in_step leaves no request running at a RECV: nothing for abort_running to abort.
ASSUME "finish_in_step" \in Knobs => "abort_running" \notin Knobs

NR   == Len(Requests)
Keys == {Requests[i] : i \in 1 .. NR}
P    == PagesPerKey
MaxLock == 3                    \* request lock + load-back lock + write-through lock
MaxId   == 2 * NR + 1           \* one id per insertion (admission or prefetch)
Threads == {"sched", "pf", "async"}  \* scheduler, prefetch thread, async handle (pipelined)

\* The collective layer, instantiated on our thread set.
VARIABLE coll
C == INSTANCE Collectives

-----------------------------------------------------------------------------
(* Variables.                                                               *)

\* reqIdx[r]: number of requests received by rank r (RECV broadcasts).
VARIABLE reqIdx
\* waiting[r]: index of the request at the head of rank r's waiting queue, 0 if none.
VARIABLE waiting
\* backlog[r]: the requests behind the head, in arrival order (<<>> when waiting[r] = 0). The
\* queue is <<waiting[r]>> \o backlog[r] (WQ); split so that a trace snapshot's `wait` stays the head.
VARIABLE backlog
\* cursor[r]: the position in the waiting queue that rank r's admission loop is at (0 outside
\* the loop: at every lockstep point).
VARIABLE cursor
\* running[r]: index of the request rank r runs this step, 0 if none.
VARIABLE running
requestVars == <<reqIdx, waiting, running, backlog, cursor>>

\* tree[r][k]: rank r's radix node of key k (Absent if not in the tree).
VARIABLE tree
\* nextId[r]: the id the next inserted node gets (TreeNode.counter).
VARIABLE nextId
treeVars == <<tree, nextId>>

\* devFree[r], hostFree[r]: free pages of the device (L1) and host (L2) pools.
VARIABLE devFree
VARIABLE hostFree
poolVars == <<devFree, hostFree>>

\* wq[r]: write-through acks (keys), oldest first (cache_controller.ack_write_queue).
VARIABLE wq
\* wDone[r]: number of leading write acks whose GPU event has completed.
VARIABLE wDone
\* lq[r]: load-back acks (keys) (cache_controller.ack_load_queue).
VARIABLE lq
\* lDone[r]: number of leading load acks whose GPU event has completed.
VARIABLE lDone
ackVars == <<wq, wDone, lq, lDone>>

\* sbq[r]: storage backups in flight (keys; host pages protected).
VARIABLE sbq
\* baq[r]: storage backup acks (keys) waiting for S3 (ack_backup_queue).
VARIABLE baq
\* rvq[r]: revoked prefetches (request ids) waiting for S3 (prefetch_revoke_queue).
VARIABLE rvq
\* rlq[r]: host page counts waiting to be freed at S3 (host_mem_release_queue).
VARIABLE rlq
storageVars == <<sbq, baq, rvq, rlq>>

\* pf[r][i]: the prefetch operation of request i on rank r (ongoing_prefetch).
VARIABLE pf
prefetchVars == <<pf>>

\* popped[r]: how many items rank r has popped from each synced queue (history, bounded).
VARIABLE popped
historyVars == <<popped>>

\* ares[r]: result of rank r's completed asynchronous S123 not yet consumed (<<>> if none);
\* the outstanding asynchronous call itself is coll[r]["async"]. (pipelined only)
VARIABLE ares
pipeVars == <<ares>>

\* lenv[r]: rank-local environment flags that only Knobs turn on (constant otherwise, so the
\* models without knobs keep their state counts):
\*   bf  : how rank r's admission meets a full batch this step (batch_full): "no"; "busy"
\*         (the running batch is full: get_new_batch_prefill returns before its loop, on every
\*         rank alike); "late" (its batch-full test fires after the prefetch checks) or "early"
\*         (before them: the rank-local test of #30760);
\*   clk : rank r's clock orders the LRU timestamps of its nodes the other way (local_clock);
\*   dead: rank r's prefetch thread has stopped (pf_thread_dies);
\*   ab  : the request whose abort rank r processes at its next RECV, 0 if none (abort);
\*   ord : rank r's admission loop takes the waiting queue newest first (local_order).
VARIABLE lenv
LEnv0 == [bf |-> "no", clk |-> FALSE, dead |-> FALSE, ab |-> 0, ord |-> FALSE]

vars == <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars, historyVars,
          pipeVars, lenv>>

-----------------------------------------------------------------------------
(* Records.                                                                 *)

\* sx: host pages of the node that a prefetch inserted while this rank had not read their
\* sidecar page (sidecar only): the page is paired with stale sidecar data (B14).
\* at: the last access time on the replicated clock (the index of the request that last matched
\* or inserted the node; TreeNode.last_access_time): the LRU order.
Absent == [dev |-> FALSE, hp |-> 0, hw |-> 0, lock |-> 0, prot |-> FALSE, id |-> 0, sx |-> 0, at |-> 0]
Node   == [dev : BOOLEAN, hp : 0 .. P, hw : 0 .. P, lock : 0 .. MaxLock,
           prot : BOOLEAN, id : 0 .. MaxId, sx : 0 .. P, at : 0 .. NR]
IsAbsent(n) == ~n.dev /\ n.hp = 0 /\ n.hw = 0

PfStates == {"none", "issued", "reading", "revoked", "term", "fin"}
Ongoing  == {"issued", "reading", "revoked"}         \* in ongoing_prefetch (slots held: HeldSlots)
\* c: leading KV pages read; sn, sc, ss (sidecar only): sidecar pages attempted, the leading
\* run of them read successfully, all of them read successfully (the sidecar reader goes on
\* after a failed page, recording one result per page).
OpNone == [st |-> "none", c |-> 0, tgt |-> 0, fail |-> FALSE, to |-> FALSE, q |-> FALSE,
           sn |-> 0, sc |-> 0, ss |-> 0]
OpTerm == [OpNone EXCEPT !.st = "term"]               \* terminated before its S7
OpFin  == [OpNone EXCEPT !.st = "fin", !.q = TRUE]    \* gone, S7 done
PfOp   == [st : PfStates, c : 0 .. P, tgt : 0 .. P, fail : BOOLEAN, to : BOOLEAN, q : BOOLEAN,
           sn : 0 .. P, sc : 0 .. P, ss : 0 .. P]

\* bad: set when a rank pops an ack whose transfer has not completed locally (or an empty queue).
Pop0 == [w |-> 0, l |-> 0, rv |-> 0, ba |-> 0, rl |-> 0, bad |-> 0]

\* The local state of rank r as one record (what the scheduler step computes on).
LS(r) == [req |-> reqIdx[r], wait |-> waiting[r], run |-> running[r],
          blog |-> backlog[r], cur |-> cursor[r], ab |-> lenv[r].ab, ord |-> lenv[r].ord,
          tree |-> tree[r], nid |-> nextId[r], dfree |-> devFree[r], hfree |-> hostFree[r],
          wq |-> wq[r], wd |-> wDone[r], lq |-> lq[r], ld |-> lDone[r],
          sbq |-> sbq[r], baq |-> baq[r], rvq |-> rvq[r], rlq |-> rlq[r],
          pf |-> pf[r], pop |-> popped[r], ares |-> ares[r], acall |-> coll[r]["async"],
          bf |-> lenv[r].bf, clk |-> lenv[r].clk]

InitLS == [req |-> 0, wait |-> 0, run |-> 0, blog |-> <<>>, cur |-> 0, ab |-> 0, ord |-> FALSE,
           tree |-> [k \in Keys |-> Absent], nid |-> 1, dfree |-> DeviceCap, hfree |-> HostCap,
           wq |-> <<>>, wd |-> 0, lq |-> <<>>, ld |-> 0,
           sbq |-> <<>>, baq |-> <<>>, rvq |-> <<>>, rlq |-> <<>>,
           pf |-> [i \in 1 .. NR |-> OpNone], pop |-> Pop0, ares |-> <<>>, acall |-> [site |-> "none"],
           bf |-> LEnv0.bf, clk |-> LEnv0.clk]

Min(S) == C!SetMin(S)

\* The waiting queue of local state s (scheduler.waiting_queue), oldest first, and its update.
WQ(s) == IF s.wait = 0 THEN <<>> ELSE <<s.wait>> \o s.blog
SetWQ(s, q) == [s EXCEPT !.wait = IF q = <<>> THEN 0 ELSE Head(q), !.blog = IF q = <<>> THEN <<>> ELSE Tail(q)]
\* The queue position the admission loop is looking at: the cursor counts in the order the
\* schedule policy sorted the queue (calc_priority: fcfs here), the same on every rank as long as
\* the order is a function of replicated state. local_order: a rank whose order comes from a
\* rank-local source (the random policy's shuffle on a global random state this rank has drawn
\* from differently, schedule_policy.py::_sort_randomly @6ed5780c) takes it newest first.
Pos(s) == IF s.ord THEN Len(WQ(s)) + 1 - s.cur ELSE s.cur
\* The request the admission loop is looking at.
Cur(s) == WQ(s)[Pos(s)]
\* Queue q without its j-th entry.
RemoveAt(q, j) == SubSeq(q, 1, j - 1) \o SubSeq(q, j + 1, Len(q))
InQueue(s, i) == \E j \in 1 .. Len(WQ(s)) : WQ(s)[j] = i

\* Pool sizes. A model states the pools each rank is configured with (PoolSizes: equal ones are
\* one configuration, MCEqualPools). SGLang agrees on them at start-up: the KV pool is sized
\* from the MIN over all ranks of the free GPU memory (model_runner.py::profile_max_num_token,
\* get_available_gpu_memory(distributed=True): an all_reduce MIN on the world CPU group), and the
\* host pool from the device pool (hicache_ratio) or from a byte size equal on every rank
\* (hicache_size). So every rank runs with the MIN of the configured sizes: that is the
\* protocol's answer to unequal pools. local_pool_sizes: each rank uses its own entry (no
\* start-up agreement), which breaks INV-6 when the entries differ.
\* (A constant table: TLC evaluates it once; the invariants read the capacities in every state.)
PoolTable == [r \in Ranks |-> [f \in {"dev", "host"} |->
                 IF "local_pool_sizes" \in Knobs THEN PoolSizes[r][f]
                 ELSE Min({PoolSizes[q][f] : q \in Ranks})]]
PoolOf(r, f) == PoolTable[r][f]
DeviceCapOf(r) == PoolOf(r, "dev")
\* uneven_capacity: rank 0's host pool is one page larger than agreed (a pool sized per rank
\* after the agreement, e.g. from the memory that rank has free), which the protocol assumes
\* away (INV-6: allocations succeed or fail identically on every rank).
HostCapOf(r) == PoolOf(r, "host") + (IF "uneven_capacity" \in Knobs /\ r = 0 THEN 1 ELSE 0)
MaxDeviceCap == C!SetMax({DeviceCapOf(r) : r \in Ranks})
MaxHostCap == C!SetMax({HostCapOf(r) : r \in Ranks})

\* The LRU victim among candidate keys S of local state s: the least recently accessed on the
\* replicated clock, ties by key. hiradix_cache.py::evict / evict_host (a heap of leaves by
\* last_access_time). The protocol assumes the order is the same on every rank. local_clock:
\* the order comes from the rank's own clock, and a rank whose clock orders the last accesses
\* the other way (s.clk) picks the most recently used.
Older(s, j, k) == s.tree[j].at < s.tree[k].at \/ (s.tree[j].at = s.tree[k].at /\ j <= k)
Victim(S, s) ==
    IF "local_clock" \in Knobs /\ s.clk THEN CHOOSE k \in S : \A j \in S : Older(s, j, k)
    ELSE CHOOSE k \in S : \A j \in S : Older(s, k, j)

-----------------------------------------------------------------------------
(* Which groups a sync point reduces over (the heart of the versions).      *)

\* RECV: the per-step rendezvous of the whole sync domain (broadcast_pyobj of the requests and the
\* forward pass's NCCL collectives keep the domain in step); posted even on a singleton domain.
\* scheduler.py::recv_requests
RecvGroup(r) == C!Group("domain", "sched", SyncDomain(r))

\* pre20460's only group, tp_cache_group: the attn_tp CPU group with DP attention, the TP CPU
\* group without (scheduler.py: tp_cache_group = attn_tp_cpu_group if enable_dp_attention else
\* tp_cpu_group; dp_attention.py::compute_dp_attention_world_info: without DP attention the
\* attention TP group is the whole TP group). Without DP attention there is one replica, so
\* the TP group of the stage is its CP x TP grid.
TpCacheGroup(r, ch) ==
    IF "no_dp_attention" \in Knobs THEN C!Group("tp", ch, TpMembers(r))
    ELSE C!Group("attn_tp", ch, AttnTpMembers(r))

\* The groups a HiCache sync point reduces over, singleton groups skipped (`if world_size > 1`).
SyncGroupsDef(r, site) ==
    LET ch == CASE site = "S7" -> "pf"                     \* the prefetch thread has its own groups
                [] site = "S123" /\ Version = "pipelined" -> "async"   \* v39903: async all_reduce
                [] OTHER -> "sched"
        gs == IF Version = "pre20460"
                THEN <<TpCacheGroup(r, ch)>>                                 \* pre20460: tp_cache_group
                ELSE <<C!Group("attn_cp", ch, AttnCpMembers(r)),             \* #20460: CP, then TP
                       C!Group("attn_tp", ch, AttnTpMembers(r))>>
    IN  IF site = "RECV" THEN <<RecvGroup(r)>>
        ELSE IF site = "S2" /\ "B5" \in Bugs THEN <<>>          \* B5: loading_check unsynchronized
        ELSE SelectSeq(gs, LAMBDA g : Cardinality(g.m) > 1)

\* The names of each site's payload positions, for the counterexample pages (one line per shape):
\* payload RECV: next request
\* payload S1: write acks done
\* payload S2: load acks done
\* payload S3: revokes, backup acks, releases
\* payload S123: write acks done, load acks done, revokes, backup acks, releases
\* payload S4: cannot terminate, read failed
\* payload S5: pages read
\* payload S5: pages read, sidecar pages
\* payload S7: pages hit
Sites == {"RECV", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S123"}
\* A constant table (TLC evaluates it once).
SyncGroupsTable == [r \in Ranks |-> [site \in Sites |-> SyncGroupsDef(r, site)]]
SyncGroups(r, site) == SyncGroupsTable[r][site]

\* S6 is a barrier (torch.distributed.barrier): a MAX over the payload <<0>>, as the implementation
\* issues it (SyncLayer.barrier reduces [0], so that the pipeline's stages forward it as any sync
\* point) and its traces record it; every rank posts the same payload, so matching is unchanged.
OpOf(site) == IF site \in {"RECV", "S4", "S6"} THEN "MAX" ELSE "MIN"

-----------------------------------------------------------------------------
(* Rank-local computation (pure functions of a rank's local state).         *)

\* Device victims: on device, unlocked (lock_ref = 0).
DevVictims(s) == {k \in Keys : s.tree[k].dev /\ s.tree[k].lock = 0}
\* Evict one device node: a backed-up node becomes host-only, others are deleted.
\* hiradix_cache.py::evict (_evict_backuped / _evict_regular)
EvictDevOne(s) ==
    LET k == Victim(DevVictims(s), s)
        n == s.tree[k]
    IN  IF n.hp = P
          THEN [s EXCEPT !.tree[k].dev = FALSE, !.dfree = @ + P]
          ELSE [s EXCEPT !.tree[k] = Absent, !.dfree = @ + P, !.hfree = @ + n.hp]
RECURSIVE EnsureDev(_, _)
\* Evict until `need` device pages are free or nothing is evictable.
EnsureDev(s, need) ==
    IF s.dfree >= need \/ DevVictims(s) = {} THEN s ELSE EnsureDev(EvictDevOne(s), need)

\* Host victims: host-only, unlocked, not protected (no storage backup in flight).
HostVictims(s) == {k \in Keys : ~s.tree[k].dev /\ s.tree[k].hp > 0 /\ s.tree[k].lock = 0
                                 /\ ~s.tree[k].prot}
\* hiradix_cache.py::evict_host
EvictHostOne(s) ==
    LET k == Victim(HostVictims(s), s)
    IN  [s EXCEPT !.tree[k] = Absent, !.hfree = @ + s.tree[k].hp]
RECURSIVE EnsureHost(_, _)
EnsureHost(s, need) ==
    IF s.hfree >= need \/ HostVictims(s) = {} THEN s ELSE EnsureHost(EvictHostOne(s), need)

\* Write-through of node k after insertion: host slots, lock_ref++, ack queued.
\* hiradix_cache.py::write_backup
WriteThrough(s, k) ==
    LET need == P - s.tree[k].hp
        e    == EnsureHost(s, need)
    IN  IF need = 0 \/ s.tree[k].hw > 0 THEN s
        ELSE IF e.hfree < need THEN e                                  \* host full: no backup
        ELSE [e EXCEPT !.hfree = @ - need, !.tree[k].hw = need,
                       !.tree[k].lock = @ + 1, !.wq = Append(@, k)]

\* The running request finishes: unlock its node, write it through.
\* scheduler.py::process_batch_result -> hiradix_cache.py::cache_finished_req
\* An aborted running request (abort_running: s.ab = s.run) finishes the same way
\* (set_finish_with_abort, then cache_finished_req): it drops the request's lock only, and the
\* load-back lock of its node stays until S2 pops the load ack. abort_unlock_load: the abort
\* drops the load-back lock with it while the load is still in lq.
Finish(s) ==
    IF s.run = 0 THEN s
    ELSE LET k == Requests[s.run]
             u == IF "abort_unlock_load" \in Knobs /\ s.ab = s.run
                     /\ \E j \in 1 .. Len(s.lq) : s.lq[j] = k THEN 2 ELSE 1
         IN  WriteThrough([s EXCEPT !.run = 0, !.tree[k].lock = @ - u, !.tree[k].at = s.run], k)

\* Where a request that ran finishes (scheduler.py::process_batch_result -> cache_finished_req).
\* By default right after the next RECV, before the event check: the write-through it starts can
\* complete only at the step boundary after that, so the event check two steps after the admission
\* is the first to see it, as under the overlap scheduler (event_loop_overlap processes the last
\* batch's result after get_next_batch_to_run's check_hicache_events). finish_in_step: SGLang's
\* normal loop (event_loop_normal, --disable-overlap-schedule): process_batch_result at the end of
\* the step that ran the batch, before the next recv_requests, so the copy
\* (cache_controller.py::write, an event recorded on the write stream) may complete while the
\* domain waits at RECV and the next step's writing_check (hiradix_cache.py::writing_check, the
\* event's query()) may already count it. A request's result is then processed in the step that
\* admitted it: it holds no lock across a RECV, and write-through at insert
\* (hiradix_cache.py::insert -> _inc_hit_count -> write_backup) and at finish coincide (nothing is
\* observed between the admission and the end of the step). Not with abort_running.
FinishAtRecv == "finish_in_step" \notin Knobs

\* Request i arrives; if the tree misses its key and storage is on, issue a prefetch
\* (host slots for the whole key). hiradix_cache.py::prefetch_from_storage
Deliver(s, i) ==
    IF i = 0 THEN s
    ELSE LET k  == Requests[i]
             \* with storage on, prefetch_from_storage's match_prefix at arrival stamps the node
             s1 == SetWQ([s EXCEPT !.req = i,
                                   !.tree[k].at = IF ~StorageOn \/ IsAbsent(s.tree[k]) THEN @ ELSE i],
                         Append(WQ(s), i))
             e  == EnsureHost(s1, P)
         IN  IF ~StorageOn \/ ~IsAbsent(s1.tree[k]) THEN s1
             ELSE IF e.hfree < P THEN e
             ELSE [e EXCEPT !.hfree = @ - P, !.pf[i] = [OpNone EXCEPT !.st = "issued"]]

\* S1 decision: pop n write acks; the node is now on host; storage backup starts.
\* hiradix_cache.py::writing_check
RECURSIVE PopWrites(_, _)
PopWrites(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.wd = 0 THEN [s EXCEPT !.pop.bad = 1]     \* event not done here: slots still written
    ELSE LET k  == Head(s.wq)
             nd == s.tree[k]
         IN  PopWrites([s EXCEPT !.wq = Tail(@), !.wd = @ - 1, !.pop.w = @ + 1,
                         !.tree[k] = [nd EXCEPT !.hp = nd.hp + nd.hw, !.hw = 0,
                                                !.lock = @ - 1, !.prot = StorageOn],
                         !.sbq = IF StorageOn THEN Append(@, k) ELSE @], n - 1)

\* S2 decision: pop n load acks, unlock the loaded nodes. hiradix_cache.py::loading_check
RECURSIVE PopLoads(_, _)
PopLoads(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.ld = 0 THEN [s EXCEPT !.pop.bad = 1]     \* load not done here
    ELSE PopLoads([s EXCEPT !.lq = Tail(@), !.ld = @ - 1, !.pop.l = @ + 1,
                            !.tree[Head(s.lq)].lock = @ - 1], n - 1)

\* S3 decision, revoke part: the revoked prefetch leaves ongoing_prefetch (its host slots went to
\* the host-release queue with the revoke, at S7; an operation S5 already terminated is gone).
RECURSIVE PopRevokes(_, _)
PopRevokes(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.rvq = <<>> THEN [s EXCEPT !.pop.bad = 1]
    ELSE LET i == Head(s.rvq)
             s1 == [s EXCEPT !.rvq = Tail(@), !.pop.rv = @ + 1]
         IN  PopRevokes(IF s.pf[i].st = "revoked" THEN [s1 EXCEPT !.pf[i] = OpFin] ELSE s1, n - 1)
\* S3 decision, backup-ack part: release host protection.
RECURSIVE PopBackupAcks(_, _)
PopBackupAcks(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.baq = <<>> THEN [s EXCEPT !.pop.bad = 1]
    ELSE PopBackupAcks([s EXCEPT !.baq = Tail(@), !.pop.ba = @ + 1,
                                 !.tree[Head(s.baq)].prot = FALSE], n - 1)
\* S3 decision, host-release part: free host pages.
RECURSIVE PopReleases(_, _)
PopReleases(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.rlq = <<>> THEN [s EXCEPT !.pop.bad = 1]
    ELSE PopReleases([s EXCEPT !.rlq = Tail(@), !.pop.rl = @ + 1,
                               !.hfree = @ + Head(s.rlq)], n - 1)
\* hiradix_cache.py::drain_storage_control_queues
Drain(s, a, b, c) == PopReleases(PopBackupAcks(PopRevokes(s, a), b), c)

\* Rank r has the sidecar pool (item 6): a rank's extra host pools are those of its own KV pool
\* (hiradix_cache.py::_get_extra_pools @6ed5780c: the indexer pool of a DSATokenToKVPool, or of
\* a MiniMaxSparseKVPool whose index_k_pool is not None), and every extra-pool decision of the
\* rank derives from it: S5's payload length ([completed_tokens, *pool_hit_pages] over the
\* operation's pool_transfers, _sync_and_clamp_prefetch_result), the sidecar reads, best_effort's
\* S4. local_extra_pools: rank 0's KV pool has no indexer pool.
HasSidecarPool(r) == "sidecar" \in Knobs /\ ~("local_extra_pools" \in Knobs /\ r = 0)

\* A sidecar page read of this operation is still to come on this rank (the extra pool's
\* transfer is pending). sidecar only.
SidecarPending(r, op) == HasSidecarPool(r) /\ op.st = "reading" /\ op.sn < op.tgt

\* Local value of S4: can this rank terminate the prefetch of the request the admission loop
\* looks at? With a sidecar pool even best_effort waits for the sidecar transfer (#27550: the
\* host slots it writes). hiradix_cache.py::can_terminate_prefetch
CanTerminate(r, s) ==
    LET op == s.pf[Cur(s)]
        \* completed: every hit page read (a revoked operation has no hit pages to read, so it is not
        \* completed: it waits for S3 to pop its revoke, or for its timeout); a failed read is not
        \* completed either, S4's second entry (MAX) stops the prefetch on every rank then.
        finished == op.st = "reading" /\ op.c = op.tgt /\ ~SidecarPending(r, op)
    IN  CASE Policy = "best_effort"   -> ~SidecarPending(r, op)
          [] Policy = "wait_complete" -> finished
          [] Policy = "timeout"       -> finished \/ op.to

\* Local value of S5: the pages this rank's storage read completed. With a sidecar pool the
\* fix (#31443) reduces [KV pages, sidecar pages] counting only the leading run of sidecar
\* successes; B14 reduces the KV count alone; B14sum counts sidecar successes by sum.
S5Value(r, op) ==
    IF ~HasSidecarPool(r) \/ "B14" \in Bugs THEN <<op.c>>
    ELSE IF "B14sum" \in Bugs THEN <<op.c, op.ss>>
    ELSE <<op.c, op.sc>>
\* The S5 decision: the MIN over ranks and over the reduced counts.
S5Pages(x) == Min({x[j] : j \in DOMAIN x})

\* S5 decision: terminate, insert m prefetched pages into the host tree, queue the read-but-not-
\* agreed slots of the hit [m, tgt) for release (the slots past the hit went at S7; a revoked
\* operation's all went at S7; one not yet past S7 keeps its slots until its S7 releases them).
\* hiradix_cache.py::check_prefetch_progress
InsertPrefetched(r, s, m) ==
    LET w == Cur(s)
        k == Requests[w]
        op == s.pf[w]
        sx == IF HasSidecarPool(r) THEN m - Min({m, op.sc}) ELSE 0   \* stale sidecar pages
        rest == IF op.st = "reading" THEN op.tgt - m ELSE 0
    IN  [s EXCEPT !.pf[w]   = IF op.q THEN OpFin ELSE OpTerm,
                  !.tree[k] = IF m > 0 THEN [Absent EXCEPT !.hp = m, !.id = s.nid, !.sx = sx, !.at = w]
                                       ELSE @,
                  !.nid     = IF m > 0 THEN @ + 1 ELSE @,
                  !.rlq     = IF rest > 0 THEN Append(@, rest) ELSE @]

\* Admit the request the admission loop looks at: device hit (lock), host hit (load back), or
\* miss (insert); it leaves the waiting queue and runs.
\* scheduler.py::get_new_batch_prefill -> hiradix_cache.py::match_prefix / init_load_back
Admit(s0) ==
    LET w == Cur(s0)
        k == Requests[w]
        \* match_prefix stamps the matched node, at every attempt
        s == IF IsAbsent(s0.tree[k]) THEN s0 ELSE [s0 EXCEPT !.tree[k].at = w]
        e == EnsureDev(s, P)
        n == e.tree[k]
        new == n.hp = 0
        Run(x) == SetWQ([x EXCEPT !.run = w], RemoveAt(WQ(x), Pos(x)))
    IN  IF s.tree[k].dev THEN Run([s EXCEPT !.tree[k].lock = @ + 1])
        ELSE IF e.dfree < P THEN e                          \* no device memory: stays waiting
        ELSE Run([e EXCEPT !.dfree = @ - P,
                           !.tree[k] = [n EXCEPT !.dev = TRUE, !.lock = @ + (IF new THEN 1 ELSE 2),
                                                 !.id = IF new THEN e.nid ELSE @, !.at = w],
                           !.nid = IF new THEN @ + 1 ELSE @,
                           !.lq  = IF new THEN @ ELSE Append(@, k)])

\* The request stays waiting this step (its batch-full flag, if any, is used up).
Keep(s) == [s EXCEPT !.bf = "no"]

\* The prefetch thread's next operation: the oldest one it has not queried storage for.
NextS7(s) == Min({i \in 1 .. NR : s.pf[i].st \in {"issued", "term"}})

\* Append n host pages to the host-release queue (append_host_mem_release), nothing for n = 0.
Release(q, n) == IF n > 0 THEN Append(q, n) ELSE q

\* S7 decision (cache_controller.py::prefetch_thread_func, after the MIN): below the threshold
\* the request goes on the revoke queue and ALL its host slots on the host-release queue; else
\* the slots past the hit go on the host-release queue and the operation keeps the first h.
\* An operation S5 terminated before its S7 ("term") is decided the same way, and the h slots
\* it kept go back too (nothing will be read into them).
HitSynced(s, h) ==
    LET i  == NextS7(s)
        op == s.pf[i]
    IN  IF h < PrefetchThreshold
          THEN [s EXCEPT !.pf[i] = IF op.st = "term" THEN OpFin
                                   ELSE [op EXCEPT !.st = "revoked", !.q = TRUE],
                         !.rvq = Append(@, i), !.rlq = Release(@, P)]
        ELSE IF op.st = "term"
          THEN [s EXCEPT !.pf[i] = OpFin, !.rlq = Release(Release(@, P - h), h)]
          ELSE [s EXCEPT !.pf[i] = [op EXCEPT !.st = "reading", !.tgt = h, !.q = TRUE],
                         !.rlq = Release(@, P - h)]

\* release_aborted_request of request s.ab (after its S6 barrier when its prefetch is in
\* ongoing_prefetch): the request leaves the waiting queue, its prefetch is terminated
\* (terminate_prefetch: the I/O thread reads no more pages) and leaves ongoing_prefetch:
\*  - not yet past its S7 ("issued"): the prefetch thread still takes it, on every rank alike
\*    (S7 stays matched), and releases all its slots there, as for an operation S5 terminated
\*    before its S7 (OpTerm, HitSynced);
\*  - reading: the scheduler releases the c pages read so far (host_indices[:completed_tokens]),
\*    the I/O thread the unread rest of the hit when it sees the flag (prefetch_io_aux_func):
\*    tgt pages in all, but c is rank-local (how far this rank's read got). append_host_mem_release
\*    queues them one entry per page (#9797), so the queue is the same on every rank whatever
\*    c is, and S3's MIN over entry counts frees the same pages everywhere. release_whole: one
\*    entry per call, so the entry count depends on c (INV-4, then INV-6). The I/O thread's part
\*    is appended in the same step (it is observed only through S3's MIN);
\*  - revoked: its slots went at S7; its revoke entry is still drained by S3 (a no-op then).
\* hiradix_cache.py::release_aborted_request @28ee08c1 (#9874; _barrier_attn_groups since
\* #20460), cache_controller.py::terminate_prefetch / prefetch_io_aux_func @28ee08c1
ReleaseAborted(s) ==
    LET a  == s.ab
        op == s.pf[a]
        s1 == SetWQ([s EXCEPT !.ab = 0], SelectSeq(WQ(s), LAMBDA j : j # a))
        rl == IF "release_whole" \in Knobs THEN Release(Release(s1.rlq, op.c), op.tgt - op.c)
              ELSE s1.rlq \o [j \in 1 .. op.tgt |-> 1]
    IN  CASE op.st = "issued"                 -> [s1 EXCEPT !.pf[a] = OpTerm]
          [] op.st = "reading"                -> [s1 EXCEPT !.pf[a] = OpFin, !.rlq = rl]
          [] op.st = "revoked"                -> [s1 EXCEPT !.pf[a] = OpFin]
          [] OTHER                            -> s1

\* The scheduler's next site after RECV and the aborts it carried: the event check.
AfterAbort == IF Version \in {"merged", "pipelined"} THEN "S123" ELSE "S1"

-----------------------------------------------------------------------------
(* The scheduler step as a chain of sync points. Enter computes the local   *)
(* value of a sync point and posts it on the first group; Post moves to the *)
(* next group or, past the last one, Decide applies the result and enters   *)
(* the next sync point. Each returns [s |-> local state, call |-> the next  *)
(* collective call of the thread]. The scheduler always ends at RECV.       *)

\* Local value of S3: the sizes of the three storage control queues. local_payload: only up
\* to the last non-empty queue (a payload whose size depends on rank-local data; INV-1).
S3Value(s) ==
    LET v == <<Len(s.rvq), Len(s.baq), Len(s.rlq)>>
    IN  IF "local_payload" \notin Knobs \/ v[3] # 0 THEN v
        ELSE IF v[2] # 0 THEN <<v[1], v[2]>> ELSE IF v[1] # 0 THEN <<v[1]>> ELSE <<>>
\* Entry i of a result vector, 0 past its end (local_payload's short vectors).
At(x, i) == IF i <= Len(x) THEN x[i] ELSE 0

\* Apply a fused S1-S3 result vector.
ApplyS123(s, x) == Drain(PopLoads(PopWrites(s, x[1]), x[2]), x[3], x[4], x[5])

\* async_rank_off: the fused check's asynchronous path (proposal #39903) is off on rank 0 only
\* (any rank-local reason: a switch or a probe that came out differently there), so its S123
\* issues no all_reduce and consumes none; its peers' MIN then waits for it forever.
AsyncOff(r) == "async_rank_off" \in Knobs /\ r = 0

\* The singleton "group" on which the scheduler waits for its async handle (work.wait()).
HandleGroup(r) == C!Group("handle", "sched", {r})

\* Enter, Post and Decide are one recursive operator, Chain, told apart by its first argument.
\* (At start-up TLC works out the level of every definition without arguments by walking the
\* bodies of the operators it uses, again at every use outside the operator itself. With three
\* operators calling one another it walked PostOn and DecideOn again at every Post and Decide
\* in EnterOn, for every step that resumes a rank; with one it walks each body once per step:
\* docs/reference/measurements.md, "TLC's start-up".)
RECURSIVE Chain(_, _, _, _, _, _)
Enter(r, s, site) == Chain("enter", r, s, site, 0, <<>>)
Post(r, s, site, k, v) == Chain("post", r, s, site, k, v)
Decide(r, s, site, x) == Chain("decide", r, s, site, 0, x)

PostOn(r, s, site, k, v) ==
    LET gs == SyncGroups(r, site)
    IN  IF k <= Len(gs) THEN [s |-> s, call |-> C!Call(gs[k], site, k, OpOf(site), v)]
        ELSE Decide(r, s, site, v)

EnterOn(r, s, site) ==
    CASE site = "RECV" ->
            Post(r, s, "RECV", 1, <<IF Len(WQ(s)) < WaitingCap /\ s.req < NR THEN s.req + 1 ELSE 0>>)
      [] site = "ABORT" ->         \* process_input_requests -> abort_request: the abort RECV carried
            IF s.ab = 0 \/ ~InQueue(s, s.ab) THEN Enter(r, [s EXCEPT !.ab = 0], AfterAbort)
            ELSE IF s.pf[s.ab].st \in Ongoing                  \* in ongoing_prefetch, holding host
              THEN Post(r, s, "S6", 1, <<0>>)                  \* slots: the S6 barrier first
            ELSE Enter(r, ReleaseAborted(s), AfterAbort)
      [] site = "S1"   -> IF "B3" \in Bugs /\ s.wd = 0                        \* B3 (#10127): early
                            THEN Decide(r, s, "S1", <<0>>)                    \* return, no collective
                            ELSE Post(r, s, "S1", 1, <<s.wd>>)                \* writing_check
      [] site = "S2"   -> Post(r, s, "S2", 1, <<s.ld>>)                       \* loading_check
      [] site = "S3"   -> IF ~StorageOn THEN Enter(r, s, "ADMIT")             \* only with storage
                          ELSE Post(r, s, "S3", 1, S3Value(s))
      [] site = "S123" /\ Version # "pipelined" ->
                          Post(r, s, "S123", 1,                               \* v30511: fused S1-S3
                               <<s.wd, s.ld, Len(s.rvq), Len(s.baq), Len(s.rlq)>>)
      [] site = "S123" /\ Version = "pipelined" ->                            \* v39903:
            IF s.acall # C!NoCall                                             \* previous MIN still in
              THEN [s |-> s, call |-> C!Call(HandleGroup(r), "S123", 0, "WAIT", <<>>)] \* flight: wait
            ELSE LET s1 == IF s.ares = <<>> THEN s                            \* consume last step's MIN
                           ELSE [ApplyS123(s, s.ares) EXCEPT !.ares = <<>>]
                     sv == IF "P1" \in Bugs THEN s ELSE s1                     \* P1: local value
                     v  == <<sv.wd, sv.ld, Len(sv.rvq), Len(sv.baq), Len(sv.rlq)>> \* read before consuming
                     gs == SyncGroups(r, "S123")
                 IN  IF gs = <<>> THEN Enter(r, [s1 EXCEPT !.ares = v], "ADMIT")
                     ELSE IF AsyncOff(r) THEN Enter(r, s1, "ADMIT")            \* async_rank_off
                     ELSE Enter(r, [s1 EXCEPT !.acall = C!Call(gs[1], "S123", 1, "MIN", v)], "ADMIT")
      [] site = "ADMIT" -> Enter(r, [s EXCEPT !.cur = 1], "LOOP")          \* the admission loop
      [] site = "LOOP" ->                              \* over the waiting queue, oldest first
            IF s.cur > Len(WQ(s)) THEN Enter(r, s, "END")
            ELSE IF s.bf = "busy" THEN Enter(r, s, "END")                   \* running batch full
            ELSE IF "B10" \in Bugs /\ s.bf = "early"                          \* B10 (#30760): breaks
              THEN Enter(r, s, "END")                                        \* before the checks
            ELSE IF s.pf[Cur(s)].st \notin Ongoing THEN Enter(r, s, "TRY")
            ELSE IF Policy # "best_effort" THEN Enter(r, s, "S4")       \* check_prefetch_progress
            ELSE IF ~HasSidecarPool(r) THEN Enter(r, s, "S5")          \* best_effort: no S4
            ELSE IF "B15" \notin Bugs THEN Enter(r, s, "S4")     \* #27550 fixed: the sidecar wait
                                                                      \* is decided by S4's MAX
            ELSE IF SidecarPending(r, s.pf[Cur(s)])                   \* B15 (#27550): returns early,
              THEN Enter(r, s, "NEXT")                               \* rank-local, before S5's MIN
            ELSE Enter(r, s, "S5")
      \* the prefetch is not done: `continue` with the next waiting request
      [] site = "NEXT" -> Enter(r, [s EXCEPT !.cur = @ + 1], "LOOP")
      \* add_one_req: a full batch (seen early or late) or no device memory breaks the loop, and
      \* so does an admission (the running batch holds one request): every exit is replicated
      [] site = "TRY"  -> Enter(r, IF s.bf # "no" THEN s ELSE Admit(s), "END")
      \* finish_in_step: the batch's result is processed at the end of the step that ran it (see
      \* FinishAtRecv), so the request admitted here finishes before the next RECV
      [] site = "END"  -> Enter(r, LET s1 == Keep([s EXCEPT !.cur = 0])
                                   IN  IF FinishAtRecv THEN s1 ELSE Finish(s1), "RECV")
      [] site = "S4"   -> Post(r, s, "S4", 1, <<IF CanTerminate(r, s) THEN 0 ELSE 1,
                                                IF s.pf[Cur(s)].fail THEN 1 ELSE 0>>)
      [] site = "S5"   -> Post(r, s, "S5", 1, S5Value(r, s.pf[Cur(s)]))

DecideOn(r, s, site, x) ==
    CASE site = "RECV" -> Enter(r, Deliver(IF FinishAtRecv THEN Finish(s) ELSE s, x[1]), "ABORT")
      [] site = "S1"   -> Enter(r, PopWrites(s, x[1]), "S2")
      [] site = "S2"   -> Enter(r, PopLoads(s, x[1]), "S3")
      [] site = "S3"   -> Enter(r, Drain(s, At(x, 1), At(x, 2), At(x, 3)), "ADMIT")
      [] site = "S123" /\ Version # "pipelined" -> Enter(r, ApplyS123(s, x), "ADMIT")
      [] site = "S123" /\ Version = "pipelined" ->                    \* the async MIN completed
            [s |-> [s EXCEPT !.ares = x, !.acall = C!NoCall], call |-> C!NoCall]
      [] site = "S4"   -> IF x[1] = 0 \/ x[2] = 1 THEN Enter(r, s, "S5")   \* terminate
                          ELSE Enter(r, s, "NEXT")                         \* keep waiting
      [] site = "S5"   -> Enter(r, InsertPrefetched(r, s, S5Pages(x)), "TRY")
      [] site = "S6"   -> Enter(r, ReleaseAborted(s), AfterAbort)         \* after the barrier
      [] site = "S7"   -> [s |-> HitSynced(s, x[1]), call |-> C!NoCall]

\* The entries of the step's chain bind the local state they are given to a value first.
\* (TLC passes an operator argument unevaluated and evaluates it at every use where it may not
\* cache it: in ENABLED and in the action predicates of liveness checking. The chain passes
\* each new local state on as an expression of the previous one, used many times per call, so
\* the cost grew geometrically with the chain's length. A set's element is evaluated once.)
The(S) == CHOOSE y \in S : TRUE
Chain(kind, r, s, site, k, x) ==
    The({CASE kind = "enter"  -> EnterOn(r, v, site)
           [] kind = "post"   -> PostOn(r, v, site, k, x)
           [] kind = "decide" -> DecideOn(r, v, site, x) : v \in {s}})

\* Resume a member after its collective completed with result x.
Resume(r, s, call, x) ==
    IF call.op = "WAIT" THEN Enter(r, s, call.site)                  \* the handle is done: retry
    ELSE IF call.stage < Len(SyncGroups(r, call.site))
      THEN Post(r, s, call.site, call.stage + 1, x)
      ELSE Decide(r, s, call.site, x)

\* Write the new local states of the ranks in M back into the variables.
WriteBack(M, nx) ==
    LET U(v, f) == [q \in Ranks |-> IF q \in M THEN nx[q].s[f] ELSE v[q]]
    IN  /\ reqIdx'   = U(reqIdx, "req")
        /\ waiting'  = U(waiting, "wait")
        /\ backlog'  = U(backlog, "blog")
        /\ cursor'   = U(cursor, "cur")
        /\ running'  = U(running, "run")
        /\ tree'     = U(tree, "tree")
        /\ nextId'   = U(nextId, "nid")
        /\ devFree'  = U(devFree, "dfree")
        /\ hostFree' = U(hostFree, "hfree")
        /\ wq'       = U(wq, "wq")
        /\ wDone'    = U(wDone, "wd")
        /\ lq'       = U(lq, "lq")
        /\ lDone'    = U(lDone, "ld")
        /\ sbq'      = U(sbq, "sbq")
        /\ baq'      = U(baq, "baq")
        /\ rvq'      = U(rvq, "rvq")
        /\ rlq'      = U(rlq, "rlq")
        /\ pf'       = U(pf, "pf")
        /\ popped'   = U(popped, "pop")
        /\ ares'     = U(ares, "ares")
        /\ lenv'     = [q \in Ranks |-> IF q \in M THEN [lenv[q] EXCEPT !.bf = nx[q].s.bf,
                                                                        !.clk = nx[q].s.clk,
                                                                        !.ab = nx[q].s.ab]
                                                   ELSE lenv[q]]
\* The fields of a local state (LS) that WriteBack writes, and the channel's call: a completion on
\* channel ch changes the state exactly when a member's new local state differs from LS in one of
\* these or its call differs (CompletionMoves). Keep in step with WriteBack (the ENABLED check of
\* FairnessFormsTest fails if a field is missing).
WrittenFields(ch) ==
    {"req", "wait", "blog", "cur", "run", "tree", "nid", "dfree", "hfree", "wq", "wd", "lq", "ld",
     "sbq", "baq", "rvq", "rlq", "pf", "pop", "ares", "bf", "clk", "ab"}
    \cup (IF ch = "async" THEN {} ELSE {"acall"})       \* coll[q]["async"]: see CollectiveCompletes

-----------------------------------------------------------------------------
(* Termination: the legitimate end.                                         *)

\* Rank q has nothing left to do: all requests served, every queue drained, threads idle.
LocalDone(q) ==
    /\ reqIdx[q] = NR /\ waiting[q] = 0 /\ running[q] = 0
    /\ wq[q] = <<>> /\ lq[q] = <<>> /\ sbq[q] = <<>> /\ baq[q] = <<>>
    /\ rvq[q] = <<>> /\ rlq[q] = <<>>
    /\ \A i \in 1 .. NR : pf[q][i].st \in {"none", "fin"}
    /\ coll[q]["pf"] = C!NoCall
    \* pipelined: only an all-zero MIN may be in flight or unconsumed
    /\ IF coll[q]["async"] = C!NoCall THEN TRUE
       ELSE \A j \in 1 .. 5 : coll[q]["async"].val[j] = 0
    /\ \A j \in 1 .. Len(ares[q]) : ares[q][j] = 0

Done == \A q \in Ranks : LocalDone(q) /\ coll[q]["sched"].site = "RECV"

-----------------------------------------------------------------------------
(* Initial state: every rank posted on its first RECV.                      *)

Init ==
    /\ reqIdx = [r \in Ranks |-> 0]
    /\ waiting = [r \in Ranks |-> 0]
    /\ backlog = [r \in Ranks |-> <<>>]
    /\ cursor = [r \in Ranks |-> 0]
    /\ running = [r \in Ranks |-> 0]
    /\ tree = [r \in Ranks |-> InitLS.tree]
    /\ nextId = [r \in Ranks |-> 1]
    /\ devFree = [r \in Ranks |-> DeviceCapOf(r)]
    /\ hostFree = [r \in Ranks |-> HostCapOf(r)]
    /\ wq = [r \in Ranks |-> <<>>]
    /\ wDone = [r \in Ranks |-> 0]
    /\ lq = [r \in Ranks |-> <<>>]
    /\ lDone = [r \in Ranks |-> 0]
    /\ sbq = [r \in Ranks |-> <<>>]
    /\ baq = [r \in Ranks |-> <<>>]
    /\ rvq = [r \in Ranks |-> <<>>]
    /\ rlq = [r \in Ranks |-> <<>>]
    /\ pf = [r \in Ranks |-> InitLS.pf]
    /\ popped = [r \in Ranks |-> Pop0]
    /\ ares = [r \in Ranks |-> <<>>]
    /\ lenv = [r \in Ranks |-> LEnv0]
    /\ coll = [r \in Ranks |-> [sched |-> Enter(r, InitLS, "RECV").call, pf |-> C!NoCall,
                                async |-> C!NoCall]]

-----------------------------------------------------------------------------
(* Actions.                                                                 *)

\* Environment steps of rank r (event completions, storage I/O, timeouts, the prefetch
\* thread) are taken only while r's whole sync domain waits at RECV. Sound reduction: every
\* environment outcome is observed by the scheduler only after the next RECV completes (in
\* the continuation: S1 reads write events, S2 load events, S3 the storage queues, S4/S5 the
\* prefetch), and RECV cannot complete before the whole domain is posted on it, so any
\* environment step can be deferred to that state without changing what is observed.
\* A deadlocked scheduler never returns to RECV, but then the environment is irrelevant.
EnvWindow(r) == \A q \in SyncDomain(r) : coll[q]["sched"] # C!NoCall
                                         /\ coll[q]["sched"].site = "RECV"

\* shared_group: the prefetch thread reduces on the scheduler's gloo groups (the same group
\* objects), not on groups of its own. The k-th calls of the members on such a group pair up
\* whichever thread made them. The prefetch thread posts only while its scheduler waits at RECV
\* (another group), so of a rank's two calls on one group the prefetch thread's came first: a
\* scheduler call there completes only after it. (EnvWindow keeps only some of the real
\* interleavings of the two threads here; every mismatch it finds is a real one.)
PfTwin(g) == [g EXCEPT !.ch = "pf"]
PfPostedOn(q, g) == coll[q]["pf"] # C!NoCall /\ coll[q]["pf"].grp = PfTwin(g)
SharedGroupOrder(g) ==
    "shared_group" \in Knobs /\ g.ch = "sched" => \A q \in g.m : ~PfPostedOn(q, g)

\* When group g's collective can complete: every member posted on it, the calls match, and the
\* thread's own conditions hold. (The guard of CollectiveCompletes; the fairness conditions'
\* ENABLED is evaluated on it too: SomeCollectiveReady.)
CompletionReady(g) ==
    LET M  == g.m
    IN  /\ C!AllPosted(g)
        /\ C!Matched(g)
        /\ g.ch = "pf" => \A q \in M : EnvWindow(q)     \* the prefetch thread: see EnvWindow
        /\ g.kind = "handle" => \A q \in M : coll[q]["async"] = C!NoCall   \* work.wait() returns
        /\ SharedGroupOrder(g)
        /\ ~(coll[CHOOSE q \in M : TRUE][g.ch].site = "RECV" /\ \A q \in M : LocalDone(q))

\* The last member of group g arrives: the collective completes for every member, which
\* resumes up to its next collective call. (gloo all_reduce / broadcast rendezvous)
CollectiveCompletes(g) ==
    LET M  == g.m
    IN  /\ CompletionReady(g)
        \* (each member resumed once: a set's elements are evaluated when it is built, whereas a
        \* function constructor is evaluated again at every application where TLC may not cache,
        \* as in ENABLED; nx looks the results up)
        /\ \E x \in {C!Result(g)} :
           \E res \in {{<<q, Resume(q, LS(q), coll[q][g.ch], x)>> : q \in M}} :
           LET nx == [q \in M |-> (CHOOSE p \in res : p[1] = q)[2]] IN
           /\ WriteBack(M, nx)
           /\ coll' = [q \in Ranks |->
                        IF q \notin M THEN coll[q]
                        ELSE IF g.ch = "async" THEN [coll[q] EXCEPT !["async"] = nx[q].call]
                        ELSE [coll[q] EXCEPT ![g.ch] = nx[q].call, !["async"] = nx[q].s.acall]]

\* pf_thread_dies: rank r's storage query raises (a backend error seen by this rank only) and
\* the exception ends its prefetch thread: it never posts S7 again. Its peers' threads that
\* posted S7 for the same operation wait there forever; no scheduler waits for a prefetch
\* thread, so the schedulers go on (idle steps at RECV) and nothing deadlocks.
\* cache_controller.py::prefetch_thread_func (try ... except Empty: continue). pf_thread_dies only.
\* sglang: cache_controller.py::prefetch_thread_func (the exception that ends the thread)
PrefetchThreadDies(r) ==
    /\ "pf_thread_dies" \in Knobs
    /\ EnvWindow(r)
    /\ coll[r]["pf"] = C!NoCall
    /\ ~lenv[r].dead
    /\ \E i \in 1 .. NR : pf[r][i].st \in {"issued", "term"}
    /\ lenv' = [lenv EXCEPT ![r].dead = TRUE]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* Rank r's prefetch thread takes the next operation, queries storage (h leading pages
\* exist for this rank: environment) and posts S7: the first half of prefetch_thread_func's
\* loop body (PfPrefetchThreadStep is the second: S7 completes and the thread decides).
\* sglang: cache_controller.py::_storage_hit_query
PfStorageHitQuery(r) ==
    /\ EnvWindow(r)
    /\ coll[r]["pf"] = C!NoCall
    /\ \E i \in 1 .. NR : pf[r][i].st \in {"issued", "term"}
    /\ ~lenv[r].dead
    /\ \E h \in 0 .. P :
          \E nx \in {Post(r, LS(r), "S7", 1, <<h>>)} :
              /\ WriteBack({r}, [q \in {r} |-> nx])
              /\ coll' = [coll EXCEPT ![r]["pf"] = nx.call, ![r]["async"] = nx.s.acall]

\* The GPU event of rank r's oldest not-done write-through completes (in stream order).
\* cache_controller.py::write (CUDA event of the backup copy)
\* sglang: environment: the GPU copy of cache_controller.py::write completes (its CUDA event)
WriteEventCompletes(r) ==
    /\ EnvWindow(r)
    /\ wDone[r] < Len(wq[r])
    /\ wDone' = [wDone EXCEPT ![r] = @ + 1]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, wq, lq, lDone, storageVars,
                   prefetchVars, historyVars, pipeVars, lenv>>

\* The GPU event of rank r's oldest not-done load-back completes. cache_controller.py::load
\* sglang: environment: the GPU copy of cache_controller.py::load completes (its CUDA event)
LoadEventCompletes(r) ==
    /\ EnvWindow(r)
    /\ lDone[r] < Len(lq[r])
    /\ lDone' = [lDone EXCEPT ![r] = @ + 1]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, wq, wDone, lq, storageVars,
                   prefetchVars, historyVars, pipeVars, lenv>>

\* Rank r's backup thread finishes writing its oldest node to storage and acks it.
\* cache_controller.py::backup_thread_func
\* sglang: cache_controller.py::backup_thread_func
StorageBackupCompletes(r) ==
    /\ EnvWindow(r)
    /\ sbq[r] # <<>>
    /\ sbq' = [sbq EXCEPT ![r] = Tail(@)]
    /\ baq' = [baq EXCEPT ![r] = Append(@, Head(sbq[r]))]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, rvq, rlq,
                   prefetchVars, historyVars, pipeVars, lenv>>

\* Rank r's I/O thread reads the next page of prefetch i into its host slot (success), or
\* the read fails and the operation stops. cache_controller.py::_page_transfer
\* sglang: cache_controller.py::_page_transfer
StorageReadsPage(r, i) ==
    /\ EnvWindow(r)
    /\ pf[r][i].st = "reading" /\ pf[r][i].c < pf[r][i].tgt /\ ~pf[r][i].fail
    /\ \/ pf' = [pf EXCEPT ![r][i].c = @ + 1]
       \/ pf' = [pf EXCEPT ![r][i].fail = TRUE]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, historyVars, pipeVars,
                   lenv>>

\* Rank r's wall clock passes the prefetch timeout of operation i (policy "timeout").
\* sglang: environment: the wall clock passes the prefetch timeout (can_terminate_prefetch)
TimeoutFires(r, i) ==
    /\ EnvWindow(r)
    /\ Policy = "timeout"
    /\ pf[r][i].st \in Ongoing /\ ~pf[r][i].to      \* wall time since issue: revoked too
    /\ pf' = [pf EXCEPT ![r][i].to = TRUE]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, historyVars, pipeVars,
                   lenv>>

\* Rank r's I/O thread reads the next sidecar page of prefetch i (the second per-page pool,
\* e.g. the DSA indexer), independently of its KV pages: it succeeds or fails, and the
\* reader goes on to the next page either way. sidecar only. cache_controller.py (extra pools)
\* sglang: cache_controller.py::_page_transfer (extra pools)
StorageReadsSidecarPage(r, i) ==
    /\ HasSidecarPool(r)
    /\ EnvWindow(r)
    /\ pf[r][i].st = "reading" /\ pf[r][i].sn < pf[r][i].tgt
    /\ LET op == pf[r][i]
       IN  \/ pf' = [pf EXCEPT ![r][i] = [op EXCEPT !.sn = @ + 1, !.ss = @ + 1,
                                                 !.sc = IF op.sc = op.sn THEN @ + 1 ELSE @]]
           \/ pf' = [pf EXCEPT ![r][i] = [op EXCEPT !.sn = @ + 1]]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, historyVars, pipeVars,
                   lenv>>

\* The batch of domain D is full at this step's admission (a fact of the replicated state:
\* the running batch, the token budget). Either the running batch is full and the admission
\* returns before its loop on every rank ("busy": requests wait, prefetches go on), or each
\* rank's admission loop meets it at its early, rank-local batch-full test (req-pool headroom,
\* available_size(); #30760) or only after the prefetch checks: which one is per rank.
\* batch_full only. scheduler.py::get_new_batch_prefill (batch_is_full)
\* sglang: scheduler.py::get_new_batch_prefill (batch_is_full)
BatchFills(D) ==
    /\ "batch_full" \in Knobs
    /\ \A q \in D : EnvWindow(q) /\ lenv[q].bf = "no"
                 /\ (waiting[q] # 0 \/ reqIdx[q] < NR)      \* a request waits or may arrive
    /\ \E f \in [D -> {"late", "early"}] \cup {[q \in D |-> "busy"]} :
          lenv' = [q \in Ranks |-> IF q \in D THEN [lenv[q] EXCEPT !.bf = f[q]] ELSE lenv[q]]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* A waiting request of domain D is aborted, and each rank of D processes the abort at its next
\* RECV (lenv.ab). abort: the client drops it (an AbortReq, received with the requests of the
\* next RECV's broadcast: the same request on every rank; scheduler.py::abort_request
\* @6ed5780c), or its waiting timeout fires, decided on one clock for the domain (the fix of
\* #37143). WTO: scheduler.py::_abort_on_waiting_timeout @6ed5780c reads each rank's own clock
\* (time.perf_counter against the request's wait_queue_entry_time), so the timeout can fire on
\* some ranks of D only. abort only.
WQOf(q) == IF waiting[q] = 0 THEN <<>> ELSE <<waiting[q]>> \o backlog[q]
\* sglang: scheduler.py::abort_request; scheduler.py::_abort_on_waiting_timeout
AbortArrives(D) ==
    /\ "abort" \in Knobs
    /\ \A q \in D : EnvWindow(q) /\ lenv[q].ab = 0
    /\ LET wq0 == WQOf(CHOOSE q \in D : TRUE)
       IN  \E j \in 1 .. Len(wq0) :
             \E f \in {[q \in D |-> wq0[j]]} \cup (IF "WTO" \in Bugs THEN [D -> {0, wq0[j]}] ELSE {}) :
                /\ f # [q \in D |-> 0]
                /\ lenv' = [q \in Ranks |-> IF q \in D THEN [lenv[q] EXCEPT !.ab = f[q]] ELSE lenv[q]]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* The running request of domain D is aborted (an AbortReq for it, received with the next RECV's
\* requests: the same on every rank): each rank finishes it as an abort at that RECV (Finish).
\* scheduler.py::abort_request @6ed5780c (a running request: set_finish_with_abort).
\* abort_running only.
\* sglang: scheduler.py::abort_request
AbortRunningArrives(D) ==
    /\ "abort_running" \in Knobs
    /\ \A q \in D : EnvWindow(q) /\ lenv[q].ab = 0 /\ running[q] # 0
    /\ lenv' = [q \in Ranks |-> IF q \in D THEN [lenv[q] EXCEPT !.ab = running[q]] ELSE lenv[q]]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* Rank r's schedule policy comes to order the waiting queue the other way from the other
\* ranks' (local_order only; see Pos).
\* sglang: environment: the rank's schedule policy order (schedule_policy.py::_sort_randomly)
OrderSkews(r) ==
    /\ "local_order" \in Knobs
    /\ EnvWindow(r)
    /\ ~lenv[r].ord
    /\ lenv' = [lenv EXCEPT ![r].ord = TRUE]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* Rank r's clock comes to order the LRU timestamps of its nodes the other way from the other
\* ranks' clocks (timestamps within the clock's resolution, or taken on another thread).
\* local_clock only.
\* sglang: environment: the rank's clock (the LRU timestamps of hiradix_cache.py::evict)
ClockSkews(r) ==
    /\ "local_clock" \in Knobs
    /\ EnvWindow(r)
    /\ ~lenv[r].clk
    /\ lenv' = [lenv EXCEPT ![r].clk = TRUE]
    /\ UNCHANGED <<coll, requestVars, treeVars, poolVars, ackVars, storageVars, prefetchVars,
                   historyVars, pipeVars>>

\* The legitimate end: nothing left anywhere; stutter (keeps deadlock detection meaningful).
\* sglang: none: the bounded run is over (stuttering)
Terminated ==
    /\ Done
    /\ UNCHANGED vars

\* The steps of the scheduler (Sched...), of the prefetch thread (Pf...) and of the asynchronous
\* S123 handle (Async...), one action each, named after the SGLang function whose collective
\* completes in it (the implementation's step classes have the same names: WritingCheck, ...;
\* docs/reference/vocabulary.md). A step is the completion of its sync point's collective (a
\* stage of it: attn_cp, then attn_tp) on the thread's group: every member takes the decision and
\* runs on, rank-locally, up to its next collective call (Resume, through Decide and Enter), so
\* a scheduler step ends where the next one's collective is posted and the chain of a scheduler
\* step is RECV, then S6 (aborts), S1, S2, S3 or S123, then S4 and S5 per waiting prefetch.
\* Each group is tried once, from its lowest member (C!LeadsGroup): a group completes only when
\* every member has posted on it, the lowest one included, so this is the same action as trying
\* it from every member, without computing its successor once per member. The site of a
\* completing call names its step; TypeOK says that the sites below are the only ones posted.
SchedCompletesAt(r, site) == coll[r]["sched"].site = site /\ C!LeadsGroup(r, "sched")

\* The request broadcast completes: the running request finishes (FinishAtRecv), the received one
\* arrives (Deliver: prefetch_from_storage), its abort is processed (S6 first when its prefetch
\* holds host slots), and the event check's collective is posted.
\* sglang: scheduler.py::recv_requests
SchedRecvRequests ==
    \E r \in Ranks : SchedCompletesAt(r, "RECV") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S1 completes: pop the agreed write acks (PopWrites), then post S2.
\* sglang: hiradix_cache.py::writing_check
SchedWritingCheck ==
    \E r \in Ranks : SchedCompletesAt(r, "S1") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S2 completes: pop the agreed load acks (PopLoads), then post S3 (or admit, storage off).
\* sglang: hiradix_cache.py::loading_check
SchedLoadingCheck ==
    \E r \in Ranks : SchedCompletesAt(r, "S2") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S3 completes: drain the agreed revokes, backup acks and host releases (Drain), then admit.
\* sglang: hiradix_cache.py::drain_storage_control_queues
SchedDrainStorageControlQueues ==
    \E r \in Ranks : SchedCompletesAt(r, "S3") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S123 completes (merged: S1-S3 fused in one vector all_reduce; pipelined: the wait on the
\* handle of the previous step's asynchronous one returns): apply the agreed vector
\* (ApplyS123), then admit.
\* sglang: scheduler.py::check_hicache_events
SchedCheckHicacheEvents ==
    \E r \in Ranks : SchedCompletesAt(r, "S123") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S4 completes: terminate the prefetch (post S5) or keep it waiting (the next waiting request).
\* sglang: hiradix_cache.py::can_terminate_prefetch
SchedCanTerminatePrefetch ==
    \E r \in Ranks : SchedCompletesAt(r, "S4") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S5 completes: insert the agreed pages (InsertPrefetched), then try to admit the request.
\* sglang: hiradix_cache.py::check_prefetch_progress
SchedCheckPrefetchProgress ==
    \E r \in Ranks : SchedCompletesAt(r, "S5") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* The S6 barrier completes: release the aborted request's prefetch (ReleaseAborted).
\* sglang: hiradix_cache.py::release_aborted_request
SchedReleaseAbortedRequest ==
    \E r \in Ranks : SchedCompletesAt(r, "S6") /\ CollectiveCompletes(coll[r]["sched"].grp)

\* S7 completes on the prefetch thread's group: revoke or read (HitSynced); the second half of
\* prefetch_thread_func's loop body (PfStorageHitQuery is the first).
\* sglang: cache_controller.py::prefetch_thread_func
PfPrefetchThreadStep ==
    \E r \in Ranks : C!LeadsGroup(r, "pf") /\ CollectiveCompletes(coll[r]["pf"].grp)

\* pipelined: the asynchronous S123 all_reduce completes; its result waits in ares for the next
\* step's event check (proposal #39903).
\* sglang: scheduler.py::check_hicache_events (proposal #39903: the all_reduce issued async_op=True)
AsyncCheckHicacheEvents ==
    \E r \in Ranks : C!LeadsGroup(r, "async") /\ CollectiveCompletes(coll[r]["async"].grp)

\* Some posted collective completes: the steps above.
\* sglang: torch.distributed all_reduce / barrier returning on every member of the group
SomeCollectiveCompletes ==
    \/ SchedRecvRequests
    \/ SchedWritingCheck
    \/ SchedLoadingCheck
    \/ SchedDrainStorageControlQueues
    \/ SchedCheckHicacheEvents
    \/ SchedCanTerminatePrefetch
    \/ SchedCheckPrefetchProgress
    \/ SchedReleaseAbortedRequest
    \/ PfPrefetchThreadStep
    \/ AsyncCheckHicacheEvents

\* Former names of steps, for the trace specs (Trace*.tla) that still use them.
PrefetchThreadQueries(r) == PfStorageHitQuery(r)

\* The background of a rank: GPU events, storage I/O, timeouts and the prefetch thread
\* (its S7 posts and their completion). Only finitely many background steps are possible in
\* any behaviour (each consumes a bounded amount of work: a queued event, a page to read,
\* one timeout or one S7 per prefetch), so strong fairness on their disjunction implies
\* that every background step that stays enabled infinitely often is eventually taken.
Background ==
    \/ \E r \in Ranks : \/ PfStorageHitQuery(r) \/ PrefetchThreadDies(r)
                        \/ WriteEventCompletes(r)
                        \/ LoadEventCompletes(r)
                        \/ StorageBackupCompletes(r)
                        \/ \E i \in 1 .. NR : StorageReadsPage(r, i) \/ TimeoutFires(r, i)
                                             \/ StorageReadsSidecarPage(r, i)
                        \/ ClockSkews(r) \/ OrderSkews(r)
    \/ \E D \in SyncDomains : BatchFills(D) \/ AbortArrives(D) \/ AbortRunningArrives(D)
    \/ PfPrefetchThreadStep

Next ==
    \/ SomeCollectiveCompletes
    \/ Background
    \/ Terminated

\* Eager completions: the scheduler collectives that MCHiCacheSync's ReducedSpec (a partial-order
\* reduction for safety; docs/explanation/spec-design.md, "HiCacheSync: scheduler collectives fused into rounds") completes at once, without exploring the other
\* orders. A scheduler group g that is ready, not a step's RECV (the domain group: its completion
\* closes the environment window, EnvWindow, so environment steps depend on it) and not a handle
\* wait, of members with no async call in flight and without shared_group (where both threads use
\* one group). Its members are frozen until it completes: their schedulers wait on g, their
\* prefetch threads and environment steps need EnvWindow, which is FALSE while any rank of the
\* domain waits at a sync point other than RECV, and their async channel is empty. So no other
\* step reads or writes what g's completion reads or writes, none can disable it, and it disables
\* none: it commutes with every step, and stays enabled until taken.
EagerGroup(g) ==
    /\ g.ch = "sched" /\ g.kind \notin {"domain", "handle"}
    /\ "shared_group" \notin Knobs
    /\ \A q \in g.m : coll[q]["async"] = C!NoCall
    /\ CompletionReady(g)
EagerGroups ==
    {coll[r]["sched"].grp : r \in {r \in Ranks : C!LeadsGroup(r, "sched") /\ EagerGroup(coll[r]["sched"].grp)}}

-----------------------------------------------------------------------------
(* Fairness.                                                                *)

\* The two conditions are WF_vars(SomeCollectiveCompletes) and SF_vars(Background), written out
\* so that TLC evaluates them cheaply (docs/explanation/spec-design.md, "Fairness on values"). TLC
\* checks a fairness condition on every transition of the behaviour graph: WF_v(A) as
\* []<>(<<A>>_v \/ ~ENABLED <<A>>_v), SF_v(A) as <>[]~ENABLED <<A>>_v \/ []<><<A>>_v, with
\* ENABLED computed by searching A's successors (TLC's own ENABLED of these actions was most of
\* the liveness models' cost) and <<A>>_v by evaluating A on the pair of states. Below, each
\* ENABLED is a state predicate evaluated on values, and each <<A>>_v first asks which
\* collective call the transition moved; a step no call tells apart is evaluated as before.
\* Both are exact, not approximations:
\*   - ENABLED <<A>>_vars: SomeCollectiveReady and BackgroundReady are A's guards, where A's
\*     effect is total, conjoined with "the effect changes the state" (below, per action).
\*   - <<A>>_vars: on the steps of Next. A behaviour of Spec is Init then Next steps and
\*     stuttering, so a condition that agrees with <<A>>_vars on every Next step, and is false
\*     on stuttering (the subscript sees to that), gives Spec the same behaviours.
\* FairnessFormsTest checks both on models that take every kind of step (an invariant: each
\* ready predicate equals TLC's ENABLED; an action property: each step predicate equals <<A>>_vars)
\* and compares the verdicts of both forms; LivenessFormsTest keeps the properties' old forms.

\* Which collective call a step moved. Only a completion changes a scheduler or async call
\* (every environment action leaves coll UNCHANGED; PfStorageHitQuery and the prefetch
\* thread's completions set coll[q]["async"] to the local state's acall, which the S7 chain,
\* Post and HitSynced, never changes). Only a prefetch-group completion changes a posted prefetch
\* call (PfStorageHitQuery posts only where the call is NoCall; scheduler and async
\* completions write only their own channel and async). Only PfStorageHitQuery posts a prefetch
\* call where there was none (a completion's members are posted on its channel).
SchedOrAsyncCallMoved ==
    \E q \in Ranks : coll'[q]["sched"] # coll[q]["sched"] \/ coll'[q]["async"] # coll[q]["async"]
PfCallCompleted == \E q \in Ranks : coll[q]["pf"] # C!NoCall /\ coll'[q]["pf"] # coll[q]["pf"]
PfCallPosted == \E q \in Ranks : coll[q]["pf"] = C!NoCall /\ coll'[q]["pf"] # C!NoCall

\* SomeCollectiveCompletes on the steps of Next: a step that moved a scheduler, async or posted
\* prefetch call is a completion (and not a stutter); one that posted a prefetch call is
\* PfStorageHitQuery, which no completion can be (it would have to change a NoCall channel of
\* a member); any other step is evaluated as the action itself.
CollectiveStep ==
    IF SchedOrAsyncCallMoved \/ PfCallCompleted THEN TRUE
    ELSE IF PfCallPosted THEN FALSE
    ELSE SomeCollectiveCompletes

\* Background on the steps of Next: a step that moved a scheduler or async call is a completion
\* on those channels, which is no background step (and no background step can produce its
\* successor: they leave those channels unchanged); one that moved a prefetch call is a
\* prefetch-group completion (Background's last disjunct is that very action) or
\* PfStorageHitQuery; any other step is evaluated as the action itself.
BackgroundStep ==
    IF SchedOrAsyncCallMoved THEN FALSE
    ELSE IF PfCallCompleted \/ PfCallPosted THEN TRUE
    ELSE Background

\* Group g's completion changes the state: CollectiveCompletes writes each member's resumed
\* local state and call back and leaves the other ranks alone, so it changes a variable exactly
\* when some member's call or one of its WrittenFields differs from before.
CompletionMoves(g) ==
    LET x == C!Result(g)
    IN  \E q \in g.m :
          LET n == Resume(q, LS(q), coll[q][g.ch], x)
              s == LS(q)
          IN  n.call # coll[q][g.ch] \/ \E f \in WrittenFields(g.ch) : n.s[f] # s[f]

\* ENABLED <<SomeCollectiveCompletes>>_vars, on values. CollectiveCompletes(g) is
\* CompletionReady(g) and then deterministic assignments to every variable (x and res range over
\* one-element sets), so <<CollectiveCompletes(g)>>_vars is enabled exactly when g is ready and
\* its completion moves.
SomeCollectiveReady ==
    \E r \in Ranks, th \in Threads :
        C!LeadsGroup(r, th) /\ CompletionReady(coll[r][th].grp) /\ CompletionMoves(coll[r][th].grp)

\* ENABLED <<Background>>_vars, on values: each environment action's guard, in Background's
\* order. Each action below is its guard and then an effect that is always possible and always
\* changes a variable: PfStorageHitQuery posts an S7 call where there was none or, with no
\* S7 group, HitSynced takes an "issued" or "term" operation out of that state; the others
\* increment a counter below its bound, shorten a non-empty queue, set a flag that was FALSE
\* (dead, fail, to, clk, ord), or set bf from "no" or ab from 0 to a non-zero value (an abort's
\* request: AbortArrives needs a non-zero entry of the waiting queue, AbortRunningArrives a
\* running request). A prefetch-group completion always changes its members' call (the next S7
\* stage's call, or NoCall after the last), so there the guard is enough; CompletionMoves is
\* still asked, as for the other channels, since it costs nothing where no prefetch group is ready.
EnvReady(r) ==
    \/ /\ coll[r]["pf"] = C!NoCall /\ ~lenv[r].dead                \* PfStorageHitQuery (and
       /\ \E i \in 1 .. NR : pf[r][i].st \in {"issued", "term"}     \* PrefetchThreadDies: same + knob)
    \/ wDone[r] < Len(wq[r])                                         \* WriteEventCompletes
    \/ lDone[r] < Len(lq[r])                                         \* LoadEventCompletes
    \/ sbq[r] # <<>>                                                 \* StorageBackupCompletes
    \/ \E i \in 1 .. NR :
         \/ (pf[r][i].st = "reading" /\ pf[r][i].c < pf[r][i].tgt /\ ~pf[r][i].fail)  \* StorageReadsPage
         \/ (Policy = "timeout" /\ pf[r][i].st \in Ongoing /\ ~pf[r][i].to)           \* TimeoutFires
         \/ (HasSidecarPool(r) /\ pf[r][i].st = "reading" /\ pf[r][i].sn < pf[r][i].tgt) \* ...SidecarPage
    \/ "local_clock" \in Knobs /\ ~lenv[r].clk                       \* ClockSkews
    \/ "local_order" \in Knobs /\ ~lenv[r].ord                       \* OrderSkews
DomainEnvReady(D) ==
    /\ \A q \in D : EnvWindow(q)
    /\ \/ /\ "batch_full" \in Knobs                                  \* BatchFills
          /\ \A q \in D : lenv[q].bf = "no" /\ (waiting[q] # 0 \/ reqIdx[q] < NR)
       \/ /\ "abort" \in Knobs                                       \* AbortArrives
          /\ \A q \in D : lenv[q].ab = 0
          /\ LET wq0 == WQOf(CHOOSE q \in D : TRUE) IN \E j \in 1 .. Len(wq0) : wq0[j] # 0
       \/ /\ "abort_running" \in Knobs                               \* AbortRunningArrives
          /\ \A q \in D : lenv[q].ab = 0 /\ running[q] # 0
DomainKnobs == {"batch_full", "abort", "abort_running"} \cap Knobs    \* none: no domain action
BackgroundReady ==
    \/ \E r \in Ranks : EnvWindow(r) /\ EnvReady(r)
    \/ DomainKnobs # {} /\ \E D \in SyncDomains : DomainEnvReady(D)
    \/ \E r \in Ranks : /\ C!LeadsGroup(r, "pf") /\ CompletionReady(coll[r]["pf"].grp)
                        /\ CompletionMoves(coll[r]["pf"].grp)

\* gloo: a collective whose members have all called completes. Weak fairness on "some
\* collective completes" suffices for the scheduler groups: no scheduler group can starve
\* while others progress, since every step ends in RECV over the whole domain.
\* WF_vars(SomeCollectiveCompletes) by its definition, []<>(<<A>>_vars \/ ~ENABLED <<A>>_vars),
\* split as []<>X \/ []<>Y (TLC merges the two back into one disjunction, evaluated left to
\* right on every transition and stopping at the first true disjunct: the step first, since
\* most transitions are completions).
CollectivesFairness ==
    \/ []<><<CollectiveStep>>_vars
    \/ []<>~SomeCollectiveReady

\* CUDA copies complete, the storage backend answers reads and writes, wall time
\* advances and the prefetch thread is scheduled again. Background steps are enabled
\* only at step boundaries (EnvWindow), which a live scheduler reaches once per step:
\* hence strong fairness ("a ready event is noticed at some step boundary").
\* SF_vars(Background) by its definition, <>[]~ENABLED <<A>>_vars \/ []<><<A>>_vars.
BackgroundFairness ==
    \/ <>[]~BackgroundReady
    \/ []<><<BackgroundStep>>_vars

Fairness == CollectivesFairness /\ BackgroundFairness

\* The same fairness as TLC's WF and SF, for comparison (FairnessFormsTest, docs/explanation/spec-design.md).
FairnessAsWritten == WF_vars(SomeCollectiveCompletes) /\ SF_vars(Background)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

\* Lockstep point of domain D: every rank of D is posted on RECV (the step boundary). RECV
\* completes for all of D at once, so all of D are at the same step number here; and since
\* posting RECV is each rank's last move of a step, TLC explores the interleaving in which the
\* whole domain has reached it: comparing ranks here is sound and complete for divergence
\* that survives a step. Whatever the other threads are doing: a prefetch thread may be posted
\* on (or stuck in) S7 at a lockstep point.
Lockstep(D) == \A q \in D : coll[q]["sched"] # C!NoCall /\ coll[q]["sched"].site = "RECV"

\* Every rank of every domain agrees on f at every lockstep point.
\* (Each domain once, through its lowest rank, and every rank compared with that one: equality
\* is transitive, so this is the pairwise comparison in linear evaluations.)
AgreeAt(f(_)) ==
    \A r \in DomainLeaders : Lockstep(SyncDomain(r)) => LET v == f(r) IN \A q \in SyncDomain(r) : f(q) = v

\* The state the prefetch thread writes (the S7 decision of an operation: its st/tgt, its
\* revoke and its host-release entries) cannot agree at every lockstep point: S7 reduces over
\* attn_cp then attn_tp on a background thread, so its decision reaches the ranks of a domain
\* at different moments (in a CP x TP grid, the two attn_tp groups complete their second stage
\* independently), and a scheduler step may run in between. The scheduler tolerates that: it
\* reads prefetch-thread state only through S3's MIN, S4's MAX and S5's MIN. What holds, and
\* what the invariants below state, is agreement between every two ranks of a domain whose
\* prefetch threads have made the same number of S7 decisions (S7Count: S7 takes operations in
\* one order on every rank, so equal counts mean the same operations decided). The property is
\* weaker only while a decision is in flight; PrefetchThreadNeverStuck (liveness) says that it
\* is never in flight forever, so no pair stays outside the comparison for good.
\* Where S7 is not reduced across the whole domain (pre20460 with DP attention and CP > 1: its
\* attn_tp group leaves the CP ranks out), the decisions of different CP ranks are never
\* reconciled: every difference counts, at every lockstep point (B1's L3 variant).
S7Count(q) == Cardinality({i \in 1 .. NR : pf[q][i].q})
S7Unsynced == Version = "pre20460" /\ "no_dp_attention" \notin Knobs /\ CP > 1
\* Every two ranks of D with the same count (any two where S7Unsynced) have the same f: among the
\* pairs <<count, f(q)>> of D's ranks, equal counts come with equal values. Written over that set,
\* not over every pair of ranks, so that TLC evaluates f and S7Count once per rank, not once per pair
\* (docs/reference/measurements.md, "Agreement between settled ranks, once per rank").
AgreeSettledAt(f(_)) ==
    \A D \in SyncDomains :
        Lockstep(D) => LET S == {<<IF S7Unsynced THEN 0 ELSE S7Count(q), f(q)>> : q \in D}
                       IN  \A p1, p2 \in S : p1[1] = p2[1] => p1[2] = p2[2]

TypeOK ==
    /\ reqIdx \in [Ranks -> 0 .. NR]
    /\ waiting \in [Ranks -> 0 .. NR]
    /\ backlog \in [Ranks -> Seq(1 .. NR)]
    /\ \A r \in Ranks : Len(WQOf(r)) <= WaitingCap /\ (waiting[r] = 0 => backlog[r] = <<>>)
    /\ cursor \in [Ranks -> 0 .. WaitingCap + 1]
    /\ running \in [Ranks -> 0 .. NR]
    /\ tree \in [Ranks -> [Keys -> Node]]
    /\ nextId \in [Ranks -> 1 .. MaxId]
    /\ devFree \in [Ranks -> 0 .. MaxDeviceCap]
    /\ hostFree \in [Ranks -> 0 .. MaxHostCap]
    /\ \A r \in Ranks : /\ wq[r] \in Seq(Keys) /\ wDone[r] \in 0 .. Len(wq[r])
                        /\ lq[r] \in Seq(Keys) /\ lDone[r] \in 0 .. Len(lq[r])
                        /\ sbq[r] \in Seq(Keys) /\ baq[r] \in Seq(Keys)
                        /\ rvq[r] \in Seq(1 .. NR) /\ rlq[r] \in Seq(1 .. P)
    /\ pf \in [Ranks -> [1 .. NR -> PfOp]]
    /\ popped \in [Ranks -> [{"w", "l", "rv", "ba", "rl", "bad"} -> Nat]]
    /\ ares \in [Ranks -> Seq(Nat)]
    /\ lenv \in [Ranks -> [bf : {"no", "busy", "late", "early"}, clk : BOOLEAN, dead : BOOLEAN,
                           ab : 0 .. NR, ord : BOOLEAN]]
    \* the sites a thread posts on: each names a step of SomeCollectiveCompletes
    /\ \A r \in Ranks : /\ coll[r]["sched"].site \in {"none", "RECV", "S1", "S2", "S3", "S123", "S4", "S5", "S6"}
                        /\ coll[r]["pf"].site \in {"none", "S7"}
                        /\ coll[r]["async"].site \in {"none", "S123"}

\* INV-1: the k-th collective calls on every group agree on site, stage, op and size.
\* shared_group: on a group both threads use, a member's first call is its prefetch thread's
\* (see SharedGroupOrder); when every member has a call there, the first calls must agree.
FirstCallOn(q, g) ==
    IF PfPostedOn(q, g) THEN coll[q]["pf"]
    ELSE IF coll[q]["sched"] # C!NoCall /\ coll[q]["sched"].grp = g THEN coll[q]["sched"]
    ELSE C!NoCall
SharedGroupMatching ==
    "shared_group" \in Knobs =>
      \A r \in Ranks :
        coll[r]["pf"] # C!NoCall =>
          LET g == [coll[r]["pf"].grp EXCEPT !.ch = "sched"]
              F == [q \in g.m |-> FirstCallOn(q, g)]
          IN  (\A q \in g.m : F[q] # C!NoCall) =>
                \A q1, q2 \in g.m : /\ F[q1].site = F[q2].site /\ F[q1].stage = F[q2].stage
                                   /\ F[q1].op = F[q2].op /\ F[q1].size = F[q2].size
CollectiveMatching == C!CollectiveMatching /\ SharedGroupMatching

\* INV-3: identical trees (residency, pages, locks, protection, ids) at lockstep points.
TreeAgreement == AgreeAt(LAMBDA q : <<tree[q], nextId[q], reqIdx[q], waiting[q], backlog[q], running[q]>>)

\* INV-4: every synced queue consumed by the same count; same acks queued.
\* The scheduler's queues at every lockstep point; the queues the prefetch thread appends to
\* (revoke, host release) between ranks with the same S7 decisions (AgreeSettledAt).
AckAgreement == /\ AgreeAt(LAMBDA q : <<popped[q], wq[q], lq[q]>>)
                /\ AgreeSettledAt(LAMBDA q : <<rvq[q], rlq[q]>>)

\* INV-5: same prefetch decisions (issued, hit length, revoked, terminated) everywhere.
PfDecision(op) == <<op.st, op.tgt>>
PrefetchAgreement == AgreeSettledAt(LAMBDA q : [i \in 1 .. NR |-> PfDecision(pf[q][i])])

\* INV-6: allocations succeed identically: equal pool usage at lockstep points (the same as
\* equal free sizes when every rank has the same capacities; uneven_capacity breaks that).
AllocAgreement == AgreeAt(LAMBDA q : <<DeviceCapOf(q) - devFree[q], HostCapOf(q) - hostFree[q]>>)

\* INV-7: host slots: every slot owned exactly once (free list, tree, write in flight,
\* ongoing prefetch, release queue); slots in use by a transfer are owned by it.
RECURSIVE SeqSum(_), SumOver(_, _)
SeqSum(s) == IF s = <<>> THEN 0 ELSE Head(s) + SeqSum(Tail(s))
SumOver(f, S) == IF S = {} THEN 0
                 ELSE LET k == CHOOSE x \in S : TRUE IN f[k] + SumOver(f, S \ {k})
\* Host slots an operation holds: all P until its S7, the hit after it (the rest went to the
\* release queue), none once revoked (all went to the release queue) or finished.
HeldSlots(op) == CASE op.st \in {"issued", "term"} -> P
                   [] op.st = "reading"            -> op.tgt
                   [] OTHER                        -> 0
HostSlotSafety ==
    \A r \in Ranks :
      \* free list + tree (written or being written) + prefetch operations + release queue
      /\ HP0(r) :: hostFree[r] + SeqSum(rlq[r])
                + SumOver([k \in Keys |-> tree[r][k].hp + tree[r][k].hw], Keys)
                + SumOver([i \in 1 .. NR |-> HeldSlots(pf[r][i])], 1 .. NR)
                = HostCapOf(r)
      \* a write-through in flight writes into host slots its node owns
      /\ HP1(r) :: \A k \in Keys : (tree[r][k].hw > 0) <=> (\E j \in 1 .. Len(wq[r]) : wq[r][j] = k)
      \* a load-back in flight reads host slots its node owns
      /\ HP2(r) :: \A j \in 1 .. Len(lq[r]) : tree[r][lq[r][j]].hp > 0
      \* ... and writes device pages its node owns (not freed by an eviction meanwhile)
      /\ HP6(r) :: \A j \in 1 .. Len(lq[r]) : tree[r][lq[r][j]].dev
      \* a storage backup in flight reads protected, fully written host slots
      /\ HP3(r) :: \A j \in 1 .. Len(sbq[r]) : tree[r][sbq[r][j]].prot /\ tree[r][sbq[r][j]].hp = P
      \* no ack is consumed before its transfer completed on this rank (nor from an empty queue)
      /\ HP5(r) :: popped[r].bad = 0
      \* device pool accounting
      /\ HP4(r) :: devFree[r] + P * Cardinality({k \in Keys : tree[r][k].dev}) = DeviceCapOf(r)

\* Every host page a prefetch inserted has its sidecar page read on this rank (sidecar only:
\* otherwise sx stays 0). A violation is silent wrong output: the page is paired with stale
\* sidecar data (#31443). The implementation checks it at S5's insertion (controller.SidecarPool).
SidecarCoverage == \A r \in Ranks, k \in Keys : tree[r][k].sx = 0

\* Liveness. Each is one temporal formula over all ranks (not one per rank and request): the
\* streams are finite, so "every X is eventually Y" is the same as "eventually no X remains".
\* Each is written in a form TLC checks without a tableau (docs/explanation/spec-design.md, "Liveness in one
\* pass"): TLC builds one behaviour graph per distinct tableau and evaluates every fairness
\* condition's ENABLED and action predicates again in each, so "P ~> Q" cost a whole pass per
\* property. The forms below have no tableau and share one pass:
\*   Busy ~> ~Busy  ==  []<>~Busy   a law of temporal logic (both say: Busy does not hold for
\*                                   ever from some point on); no fact about the spec is used.
\*   <>X            ==  []<>X       when X is stable ([](X => []X)): RequestsProgress checks
\*                                   that fact as an action property in the same run
\*                                   (RequestsServedStable).
\* The forms they had are kept, for comparison, in modelcheck's LivenessForms*.tla (test
\* resources); LivenessFormsTest checks both against each other on models where they fail.
AnyOngoing == \E r \in Ranks, i \in 1 .. NR : pf[r][i].st \in Ongoing
\* Every prefetch eventually leaves ongoing_prefetch (none stays there forever).
\* (Was AnyOngoing ~> ~AnyOngoing.)
PrefetchTerminates == []<>~AnyOngoing
\* Every queued ack (write, load, storage backup, revoke, host release) is eventually consumed.
AckPending(r) == wq[r] # <<>> \/ lq[r] # <<>> \/ sbq[r] # <<>> \/ baq[r] # <<>>
                 \/ rvq[r] # <<>> \/ rlq[r] # <<>>
AnyAckPending == \E r \in Ranks : AckPending(r)
\* (Was (\E r \in Ranks : AckPending(r)) ~> (\A r \in Ranks : ~AckPending(r)).)
AcksConsumed == []<>~AnyAckPending
\* Every request is eventually received, admitted and run on every rank.
\* (Was <>RequestsServed; RequestsServed is stable: no request arrives after the last, and a
\* rank with none waiting or running starts none.)
RequestsServed == \A r \in Ranks : reqIdx[r] = NR /\ waiting[r] = 0 /\ running[r] = 0
RequestsServedStable == [][RequestsServed => RequestsServed']_vars
RequestsProgress == []<>RequestsServed /\ RequestsServedStable

\* No thread waits forever in a collective (PROTOCOL.md section 5, liveness), one property per
\* thread. Deadlock detection finds only a wait that stops every thread; these find the
\* partial one, where the thread's peers (or its own scheduler) go on, e.g. a prefetch thread
\* left alone in S7 while the schedulers keep stepping idle at RECV.
\* Scheduler: every sync point it enters completes (it gets back to RECV). Waiting at RECV for
\* good is the legitimate end; short of it, RECV waits only for a peer that is in a sync point.
\* (Each was (\E r \in Ranks : busy(r)) ~> (\A r \in Ranks : ~busy(r)).)
AnySchedulerInSyncPoint == \E r \in Ranks : coll[r]["sched"].site # "RECV"
SchedulerNeverStuck == []<>~AnySchedulerInSyncPoint
\* Prefetch thread: every S7 it posts completes (the thread goes idle again).
AnyPosted(th) == \E r \in Ranks : coll[r][th] # C!NoCall
PrefetchThreadNeverStuck == []<>~AnyPosted("pf")
\* The asynchronous S123 handle (pipelined): every issued all_reduce completes.
AsyncNeverStuck == []<>~AnyPosted("async")

-----------------------------------------------------------------------------
(* Reachability checks that must fail (the model is not a toy).             *)

\* Some prefetch is revoked (S7 below the threshold).
DebugPrefetchRevoked == ~(\E r \in Ranks, i \in 1 .. NR : pf[r][i].st = "revoked")
\* Some node is evicted from device and later loaded back from host.
DebugLoadBack == ~(\E r \in Ranks : lq[r] # <<>>)
\* Some request is aborted (its S6 barrier posted) while its prefetch reads pages.
DebugAbortWhileReading == ~(\E r \in Ranks : /\ coll[r]["sched"] # C!NoCall /\ coll[r]["sched"].site = "S6"
                                            /\ lenv[r].ab # 0 /\ pf[r][lenv[r].ab].st = "reading")
\* Some rank's waiting queue holds two requests while the first one's prefetch is in flight.
DebugTwoWaiting == ~(\E r \in Ranks : Len(WQOf(r)) = 2 /\ pf[r][waiting[r]].st \in Ongoing)
\* Some prefetched page reaches the host tree.
DebugPrefetchInserted == ~(\E r \in Ranks, k \in Keys : ~tree[r][k].dev /\ tree[r][k].hp > 0
                                                       /\ tree[r][k].id > 0 /\ ~tree[r][k].prot
                                                       /\ \E i \in 1 .. NR : pf[r][i].st = "fin")

=============================================================================
(***************************************************************************)
(* Measured cost (TLC 2.18 fork, -workers 1, 2 cores shared with other     *)
(* jobs at load ~9, 2026-11-29). Columns: model, tier, (DP,CP,TP),         *)
(* expected verdict, distinct states, depth, seconds (JVM start included). *)
(* ci tier in all: about 7 minutes at that load. See catalogue.json.       *)
(***************************************************************************)
\* Rows whose figures changed with the S7 slot release (revoke: all slots at S7; hit: the tail
\* at S7, [m, h) at S5) re-measured 2026-11-29 by ./hicache-sync check (36 ci models, 36 as
\* expected) and check --tier deep (4 of 4 as expected).
\*   post20460_cp2            ci   (1,2,1) holds                            13291   66   22.4
\*   merged_cp2               ci   (1,2,1) holds                             8029   46   18.2
\*   post20460_cp2tp2         ci   (1,2,2) holds                             9382  107   32.3
\*   merged_cp2tp2            ci   (1,2,2) holds                             4570   59   30.7
\*   post20460_cp2_live       ci   (1,2,1) holds                              884   36   74.1
\*   merged_cp2_live          ci   (1,2,1) holds                              520   24   55.9
\*   post20460_cp2tp2_live    ci   (1,2,2) holds                             9382  107  293.6
\*   merged_cp2tp2_live       ci   (1,2,2) holds                             4570   59  168.1
\*   pre20460_cp2             ci   (1,2,1) violates TreeAgreement               6    5    3.1
\*   pre20460_tp2             ci   (1,1,2) holds                            13291   66   27.2
\*   debug_prefetch_revoked   ci   (1,2,1) violates DebugPrefetchRevoked       37    9    4.0
\*   debug_load_back          ci   (1,2,1) violates DebugLoadBack             436   17    4.7
\*   debug_prefetch_inserted  ci   (1,2,1) violates DebugPrefetchInserted    3378   29   11.3
\*   b1_fixed                 ci   (1,2,1) holds                               30   20    2.8
\*   b3_early_return          ci   (1,1,2) deadlock                             8    5    1.9
\*   b3_fixed                 ci   (1,1,2) holds                               30   20    2.2
\*   b5_loading_unsynced      ci   (1,2,1) violates TreeAgreement              31   18    2.4
\*   b5_fixed                 ci   (1,2,1) holds                               46   25    2.3
\*   pipelined_p1_cp2         ci   (1,2,1) violates HostSlotSafety            740   13    2.9
\*   pipelined_cp2            deep (1,2,1) holds                            42459   61   13.9
\*   pipelined_cp2tp2         deep (1,2,2) holds                            38091   69   17.3
\*   pipelined_cp2_live       deep (1,2,1) holds                             2003   29  180.3
\*   post20460_cp2tp2_req2    deep (1,2,2) holds                           337726  170  100.7
\* Issue-3 models (B10, B14, B15, knobs), measured 2026-11-29 at load ~12 with ./hicache-sync
\* check (all 30 ci models: 9 min 6 s):
\*   b10_batch_full_exit          ci   (1,2,1) deadlock                            40    7    2.1
\*   b10_fixed                    ci   (1,2,1) holds                             3186   36   13.2
\*   b14_sidecar_min_kv_only      ci   (1,2,1) violates SidecarCoverage           519   19    1.7
\*   b14_sidecar_sum_count        ci   (1,2,1) violates SidecarCoverage          7670   21   23.2
\*   b14_fixed                    ci   (1,2,1) holds                             8091   40   14.9
\*   b15_best_effort_early_return ci   (1,2,1) deadlock                          2245   15    8.4
\*   b15_fixed                    ci   (1,2,1) holds                             3796   29    7.9
\*   knob_uneven_capacity         ci   (1,2,1) violates AllocAgreement             20   15    2.8
\*   knob_local_clock             ci   (1,2,1) violates TreeAgreement             210   18    2.9
\*   knob_shared_group            ci   (1,2,1) violates CollectiveMatching         13    8    1.7
\*   knob_local_payload           ci   (1,2,1) violates CollectiveMatching        705   27    4.1

\* 30 Nov 2026 (agreement at every lockstep point, per-thread liveness, LRU on the replicated clock,
\* tp_cache_group without DP attention, PoolSizes), re-measured 2026-11-30 by ./hicache-sync check
\* --model ... --workers 1 at load 22-30 (eight sessions on 2 cores: times 5-8x the quiet ones).
\* Every ci model of this module kept its verdict; distinct states unchanged except b5_* (the load-
\* back scenario re-requests key 1: the arrival and admission stamps split states the key order
\* merged):
\*   b5_loading_unsynced          ci   (1,2,1) violates TreeAgreement              32   18   21.5
\*   b5_fixed                     ci   (1,2,1) holds                               48   25   17.7
\*   merged_cp2_live (+3 props)   ci   (1,2,1) holds                              520   24  116.1
\*   knob_pf_thread_dies          ci   (1,2,1) violates PrefetchThreadNeverStuck  744   24   34.6
\*   pre20460_cp2_no_dp_attention ci   (1,2,1) holds                               30   20   12.3
\*   pools_unequal_agreed         ci   (1,2,1) holds                               30   20   20.4
\*   knob_local_pool_sizes        ci   (1,2,1) violates AllocAgreement             20   15   18.8
\*   pipelined_cp2                deep (1,2,1) holds                            42459   61  249.6
\*   pipelined_cp2tp2             deep (1,2,2) holds                            38091   69  224.3
\* knob_pf_thread_dies with the old Lockstep and the old liveness properties (PrefetchTerminates,
\* AcksConsumed, RequestsProgress) instead: no error (exit 0, 744 distinct states): the stuck
\* thread was not caught before.
\* 30 Nov 2026, the waiting queue (waiting queue, aborts with S6, release_whole, local_order) and AsyncNeverStuck,
\* measured 2026-11-30 with plain TLC -workers 1 -Xmx3g at load 36-56 (seven sessions on 2 cores),
\* on the final spec (Enter evaluating its state once). Every model above re-run on it kept its
\* verdict and its distinct-state count (b1/b3/b5/b10/b14/b15 models, the knobs, the debug models,
\* pre20460_cp2*, merged_cp2, merged_cp2_live, post20460_cp2, pipelined_p1_cp2):
\*   wait_timeout_local_clock     ci   (1,2,1) violates CollectiveMatching          54    8   46.6
\*   abort_cp2                    ci   (1,2,1) holds                              1082   36  101.1
\*   debug_abort_while_reading    ci   (1,2,1) violates DebugAbortWhileReading     241   11   55.9
\*   debug_two_waiting            ci   (1,2,1) violates DebugTwoWaiting              7    7   30.7
\*   knob_release_whole           ci   (1,2,1) violates AckAgreement              1520   16   83.1
\*   abort_release_pages          ci   (1,2,1) holds                              2812   38   69.8
\*   knob_local_order             ci   (1,2,1) violates TreeAgreement               88   13   31.9
\*   waiting2_storage_off         ci   (1,2,1) holds                                49   28   20.7
\*   pipelined_cp2_async_live     ci   (1,2,1) holds (+ AsyncNeverStuck)            83   19  110.6
\*   knob_pf_thread_dies          ci   (1,2,1) violates PrefetchThreadNeverStuck   744   24   80.0
\*   abort_waiting                deep (1,2,1) holds                             65023   60  350.0 (before the
\*                                     Enter change, load 28; same semantics)
\* 1 Dec 2026: async_rank_off, local_extra_pools (HasSidecarPool), abort_running with HP6,
\* measured 2026-11-30 21:33-21:40 with ./hicache-sync check (one TLC worker) at load 5-11. Every
\* other model of this module (the 43 earlier ci ones and the five deep ones) re-run on this spec
\* kept its verdict and its distinct-state count (21:35-21:53, load 3-11):
\*   knob_async_rank_off          ci   (1,2,1) violates AsyncNeverStuck              3    3    4.5
\*   knob_local_extra_pools       ci   (1,2,1) violates CollectiveMatching         591   15   10.6
\*   abort_running_load_back      ci   (1,2,1) holds                                82   30    4.3
\*   knob_abort_unlock_load       ci   (1,2,1) violates HostSlotSafety              61   24    4.1
\* 1 Dec 2026 (fairness on values: SomeCollectiveReady, BackgroundReady, CollectiveStep,
\* BackgroundStep), measured 2026-12-01 05:38-05:39 with ./hicache-sync check --jobs 1 (one TLC
\* worker, C1) at load 3.3-3.5; verdicts, distinct states and depths unchanged, both liveness
\* counterexamples unchanged state for state:
\*   post20460_cp2tp2_live        ci   (1,2,2) holds                              9382  107    8.8
\*   merged_cp2tp2_live           ci   (1,2,2) holds                              4570   59    5.9
\*   pipelined_cp2_live           deep (1,2,1) holds                              2003   29    3.5
\*   post20460_cp2_live           ci   (1,2,1) holds                               884   36    2.3
\*   merged_cp2_live              ci   (1,2,1) holds                               520   24    2.2
\*   knob_pf_thread_dies          ci   (1,2,1) violates PrefetchThreadNeverStuck   744   24    2.0
\*   pipelined_cp2_async_live     ci   (1,2,1) holds                                83   19    1.6
\*   knob_async_rank_off          ci   (1,2,1) violates AsyncNeverStuck              3    3    1.5
