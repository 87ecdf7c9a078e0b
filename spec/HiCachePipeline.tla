--------------------------- MODULE HiCachePipeline ---------------------------
(***************************************************************************)
(* HiCache with pipeline parallelism: PP stages of CP x TP ranks that are  *)
(* NOT in scheduler lockstep, and the L3 storage threads of #27010.        *)
(*                                                                          *)
(* MODELLED (sources: sgl-project/sglang hiradix_cache.py,                 *)
(* cache_controller.py, scheduler_pp_mixin.py; PRs #22607 (the plan),      *)
(* #27285 (L2 + PP), #27010 (L3 + PP), #33473 (batched write/load counts   *)
(* with PP; its all-world-collective predecessor bytedance-iaas/sglang     *)
(* #676, fixed by #677)):                                                   *)
(*  - every rank has its own scheduler with its own step counter. Stage 0  *)
(*    starts step k with the request broadcast of its tp group (RECV);     *)
(*    stage s > 0 starts step k only when the pipeline message of step k   *)
(*    from stage s-1 has arrived (send/recv on the pp pair of the same     *)
(*    tp position). A stage may run at most MaxLag steps ahead of the next *)
(*    (the pipeline channel's capacity: micro-batches in flight);          *)
(*  - per rank: write-through acks and load-back acks whose GPU events     *)
(*    complete per rank, in stream order (environment nondeterminism);     *)
(*    the tree, pools and eviction as in HiCacheSync (abstraction below);  *)
(*  - the ack-count sync across stages, constant PPSync:                   *)
(*      "stage_local"     each stage MIN-reduces S1/S2/S3 (S123) over its  *)
(*                        own CP x TP groups only (before #27285: B6);     *)
(*      "world_allreduce" one symmetric all_reduce over the whole sync     *)
(*                        domain, every stage, on the scheduler thread     *)
(*                        (B6's rejected fix; with Version "merged" the    *)
(*                        batched all-world collective of B19);            *)
(*      "forward"         stage 0 reduces over its own CP x TP groups and  *)
(*                        sends the decided counts down the pipeline with  *)
(*                        step k's message; stage s > 0 pops exactly that  *)
(*                        many, blocking until its own events are done     *)
(*                        (#27285; batched: #33473 / #677).                *)
(*    The prefetch termination (S4, MAX) and completion (S5, MIN) follow   *)
(*    the same mode: in "forward" stage 0 decides and forwards;            *)
(*  - storage (StorageOn, #27010): storage keys are per stage, so the S7   *)
(*    local hit count is chosen per rank per stage (environment); the      *)
(*    prefetch thread's S7 MIN (channel "pf"); the I/O thread reads the    *)
(*    hit pages batch by batch (BatchPages), one ack per batch, also after *)
(*    a read failure or termination (acks of 0 pages); the prefetch sync   *)
(*    thread (channel "pfsync") MIN-reduces each batch ack (site "S5B")    *)
(*    and counts the leading run of complete batches; the scheduler's S4   *)
(*    (may terminate? wait_complete: final ack synced; timeout: or the     *)
(*    rank's timeout fired) and S5 (MIN of synced pages) are decided by    *)
(*    stage 0 and forwarded; the unread tail of the host slots stays with  *)
(*    the prefetch until its final batch ack is synced, then goes to the   *)
(*    host release queue, drained at S3 by the forwarded count.            *)
(*    S7 and S5B reduce over attn_cp, attn_tp and then the pp group (each  *)
(*    skipped when a singleton).                                           *)
(*                                                                          *)
(* BUG KNOBS (Bugs): "B7" S7 and S5B reduce over CP x TP only (no pp       *)
(* group: stages see different storage hits); "B7tail" the scheduler       *)
(* releases the unread tail of the host slots at termination, before the   *)
(* final batch ack (while a batch may still be written into it).           *)
(* PPSync "stage_local" is B6, "world_allreduce" is B19 / B6's rejected    *)
(* fix. KNOBS (Knobs): "local_pool_sizes" each rank (each stage) runs with *)
(* its own PoolSizes entry instead of the start-up MIN (see PoolOf).       *)
(*                                                                          *)
(* ABSTRACTED (and why):                                                    *)
(*  - the radix tree is one node per request key; eviction is LRU on the   *)
(*    replicated clock, as in HiCacheSync (a node's last access time is    *)
(*    the index of the request that last matched or inserted it: every    *)
(*    stage sees the same request stream, so the order is the same on     *)
(*    every stage whatever its lag). It is enough to show                  *)
(*    that different ack pops give different trees: a popped write ack     *)
(*    unlocks its node, which an admission may then evict, and that        *)
(*    changes the next request's hit (device / host load-back / miss),     *)
(*    i.e. the batch shape;                                                 *)
(*  - properties compare ranks at EQUAL STEP NUMBERS: each rank appends a  *)
(*    record of its decisions and tree to a per-step log at the end of     *)
(*    every step 1..MaxSteps; later steps (idle steps while the last       *)
(*    transfers finish) run the same protocol but are not logged, so the   *)
(*    step counter saturates and the state space is finite. Prefetch       *)
(*    decisions are compared per prefetch, whenever two ranks both made    *)
(*    them;                                                                 *)
(*  - rank-local computation between two blocking points (a collective, a  *)
(*    pipeline receive, a wait on a local event) is one atomic step; the   *)
(*    last arriver of a collective resumes every member;                   *)
(*  - the revoke queue is folded into the host release queue (a revoked    *)
(*    prefetch's slots are queued for release when the scheduler           *)
(*    terminates it); storage backups L2 -> L3 are not modelled here       *)
(*    (HiCacheSync has them); a prefetch is terminated only after its S7   *)
(*    (the timeout is armed when reading starts); one I/O thread serves    *)
(*    the prefetches in order;                                             *)
(*  - stage 0 stops (and sends "stop" down the pipeline) when its RECV     *)
(*    finds every rank of its stage quiescent: the finite end of the run.  *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANTS
    Version,            \* "post20460" (S1, S2, S3 one by one) | "merged" (one vector S123)
    PPSync,             \* "stage_local" | "world_allreduce" | "forward"
    Policy,             \* prefetch stop policy: "wait_complete" | "timeout"
    StorageOn,          \* L3 storage (prefetch) enabled
    Requests,           \* the request stream (keys), entering at stage 0
    PagesPerKey,        \* pages of one key (one radix node)
    DeviceCap,          \* device KV pool pages of the equal-pools configuration (MCEqualPools)
    HostCap,            \* host KV pool pages of the equal-pools configuration
    PoolSizes,          \* per rank (any stage), its configured pools: [dev |-> pages, host |-> pages]
    PrefetchThreshold,  \* pages: below this S7 result the prefetch is revoked
    BatchPages,         \* pages per storage I/O batch (one ack per batch)
    MaxLag,             \* pipeline channel capacity (steps a stage may run ahead of the next)
    MaxSteps,           \* scheduler steps that are logged and compared
    Bugs,               \* subset of {"B7", "B7tail"}
    Knobs               \* subset of {"local_pool_sizes"} \cup MoreKnobs (HiCacheSync's names; "More knobs")

\* Knobs beyond local_pool_sizes (section "More knobs" below): HiCacheSync's local_clock,
\* uneven_capacity and local_payload, host-only placement's skipped load sync (#28269), and the
\* storage threads' group choice (HiCacheUnified's pf_shared_group / sync_shared_group).
MoreKnobs == {"local_clock", "uneven_capacity", "local_payload", "host_only", "host_only_pp_guard",
              "pf_shared_group", "sync_shared_group"}

ASSUME Version \in {"post20460", "merged"}
ASSUME PPSync \in {"stage_local", "world_allreduce", "forward"}
ASSUME Policy \in {"wait_complete", "timeout"}
ASSUME StorageOn \in BOOLEAN
ASSUME PagesPerKey \in Nat \ {0} /\ DeviceCap \in Nat /\ HostCap \in Nat
ASSUME PrefetchThreshold \in Nat /\ BatchPages \in Nat \ {0}
ASSUME MaxLag \in Nat \ {0} /\ MaxSteps \in Nat \ {0}
ASSUME Bugs \subseteq {"B7", "B7tail"}
ASSUME Knobs \subseteq {"local_pool_sizes"} \cup MoreKnobs
ASSUME PoolSizes \in [Ranks -> [dev : Nat, host : Nat]]

NR   == Len(Requests)
Keys == {Requests[i] : i \in 1 .. NR}
P    == PagesPerKey
MaxLock == 3                    \* request lock + load-back lock + write-through lock
MaxId   == 2 * NR + 1
Threads == {"sched", "pf", "pfsync"}   \* scheduler, prefetch thread, prefetch sync thread

VARIABLE coll
C == INSTANCE Collectives

\* ls[r]: the whole local state of rank r (one record: the scheduler step computes on it).
VARIABLE ls
\* chan[r]: pipeline messages from the previous stage (same tp position) not yet received by r.
VARIABLE chan

vars == <<coll, ls, chan>>

Min(S) == C!SetMin(S)
Max(S) == C!SetMax(S)

\* Pool sizes per rank and stage (PoolSizes; MCEqualPools gives every rank DeviceCap and
\* HostCap). As in HiCacheSync, every rank runs with the MIN over all ranks (every stage) of the
\* configured sizes: SGLang sizes the KV pool from the MIN of the free GPU memory over the world
\* group at start-up (model_runner.py::profile_max_num_token), the host pool from it. Stages
\* hold different layers, so equal token capacity per stage is exactly what the forwarded
\* decisions (#27285) need: a follower evicts by its own pool. local_pool_sizes: no agreement.
\* (A constant table, as HiCacheSync's: TLC evaluates it once; the invariants read it per state.)
PoolTable == [r \in Ranks |-> [f \in {"dev", "host"} |->
                 IF "local_pool_sizes" \in Knobs THEN PoolSizes[r][f]
                 ELSE Min({PoolSizes[q][f] : q \in Ranks})]]
PoolOf(r, f) == PoolTable[r][f]
DeviceCapOf(r) == PoolOf(r, "dev")
HostCapOf(r) == PoolOf(r, "host") + (IF "uneven_capacity" \in Knobs /\ r = 0 THEN 1 ELSE 0)

-----------------------------------------------------------------------------
(* Pipeline neighbours.                                                     *)

HasNext(r) == StageOf(r) < PP - 1
NextRank(r) == r + StageSize
HasPrev(r) == StageOf(r) > 0
PrevRank(r) == r - StageSize

-----------------------------------------------------------------------------
(* Records.                                                                 *)

\* at: last access time on the replicated clock (the request index; LRU order, as HiCacheSync).
Absent == [dev |-> FALSE, hp |-> 0, hw |-> 0, lock |-> 0, id |-> 0, at |-> 0]
Node   == [dev : BOOLEAN, hp : 0 .. P, hw : 0 .. P, lock : 0 .. MaxLock, id : 0 .. MaxId,
           at : 0 .. NR]
IsAbsent(n) == ~n.dev /\ n.hp = 0 /\ n.hw = 0

\* Batches of a read of t pages, and the size of batch j (1-based).
NB(t) == (t + BatchPages - 1) \div BatchPages
BatchSize(t, j) == Min({BatchPages, t - (j - 1) * BatchPages})

\* A prefetch operation on one rank.
\*  st: none | issued (S7 pending) | reading | revoked | term (terminated, tail slots still held
\*      until the final batch ack) | fin
\*  tgt: pages to read (the S7 MIN); acks: the I/O thread's batch acks (pages read per batch);
\*  infl: a batch read is writing into host slots now; sy: batch acks synced (S5B); cmp: synced
\*  pages (leading run); own: host slots the operation owns; hitd/hit: the S7 decision;
\*  tstep/ins: the step at which the scheduler terminated it and the pages it inserted.
OpNone == [st |-> "none", tgt |-> 0, acks |-> <<>>, infl |-> FALSE, fail |-> FALSE, sy |-> 0,
           cmp |-> 0, to |-> FALSE, own |-> 0, hitd |-> FALSE, hit |-> 0, tstep |-> 0, ins |-> 0,
           late |-> FALSE]
\* A finished operation keeps only its decisions (and whether its tail waited for the final
\* ack): its transfer fields are dead, and dropping them merges states that differ only there.
Fin(op, late) == [OpNone EXCEPT !.st = "fin", !.hitd = op.hitd, !.hit = op.hit,
                                !.tstep = op.tstep, !.ins = op.ins, !.late = late]
Ongoing == {"issued", "reading", "revoked", "term"}

\* The pipeline message of one step: the request delivered at this step and, with "forward",
\* stage 0's decisions (ack counts popped; prefetch terminated and pages inserted).
Msg(req, acks, term, m) == [stop |-> FALSE, req |-> req, acks |-> acks, term |-> term, m |-> m]
StopMsg == [stop |-> TRUE, req |-> 0, acks |-> <<0, 0, 0>>, term |-> 0, m |-> 0]

Pop0 == [w |-> 0, l |-> 0, rl |-> 0]

InitLS == [pc |-> "begin", step |-> 0, msg |-> Msg(0, <<0, 0, 0>>, 0, 0), outbox |-> <<>>,
           req |-> 0, wait |-> 0, run |-> 0,
           tree |-> [k \in Keys |-> Absent], nid |-> 1, dfree |-> DeviceCap, hfree |-> HostCap,
           wq |-> <<>>, wd |-> 0, lq |-> <<>>, ld |-> 0, rlq |-> <<>>,
           pf |-> [i \in 1 .. NR |-> OpNone],
           dreq |-> 0, cur |-> Pop0, term |-> 0, m |-> 0, bad |-> 0, log |-> <<>>,
           clk |-> FALSE]   \* clk: local_clock (section "More knobs")

-----------------------------------------------------------------------------
(* Groups.                                                                  *)

NonSingleton(gs) == SelectSeq(gs, LAMBDA g : Cardinality(g.m) > 1)
\* The CP x TP groups of r's stage, in #20460's order (attn_cp, then attn_tp).
StageGroups(r, ch) == NonSingleton(<<C!Group("attn_cp", ch, AttnCpMembers(r)),
                                     C!Group("attn_tp", ch, AttnTpMembers(r))>>)
\* #27010: the pp group joins (same tp position on every stage of the replica).
DomainGroups(r, ch) == StageGroups(r, ch) \o
                       NonSingleton(<<C!Group("pp", ch, PpMembers(r) \cap SyncDomain(r))>>)

GroupsDef(r, site) ==
    CASE site = "RECV" -> NonSingleton(<<C!Group("tp", "sched", StageDomain(r))>>)
      [] site \in {"S7", "S5B"} ->
            LET ch == IF site = "S7" THEN "pf" ELSE "pfsync"
            IN  IF "B7" \in Bugs THEN StageGroups(r, ch) ELSE DomainGroups(r, ch)
      [] PPSync = "world_allreduce" -> <<C!Group("world", "sched", SyncDomain(r))>>
      [] OTHER -> StageGroups(r, "sched")

\* The names of each site's payload positions, for the counterexample pages (one line per shape):
\* payload RECV: next request, busy
\* payload S1: write acks done
\* payload S2: load acks done
\* payload S3: releases
\* payload S123: write acks done, load acks done, releases
\* payload S4: cannot terminate
\* payload S5: pages read
\* payload S7: pages hit
Sites == {"RECV", "S1", "S2", "S3", "S123", "S4", "S5", "S7", "S5B"}
GroupsTable == [r \in Ranks |-> [site \in Sites |-> GroupsDef(r, site)]]
Groups(r, site) == GroupsTable[r][site]

OpOf(site) == IF site \in {"RECV", "S4"} THEN "MAX" ELSE "MIN"
ChOf(site) == CASE site = "S7" -> "pf" [] site = "S5B" -> "pfsync" [] OTHER -> "sched"

\* Stage s > 0 copies stage 0's decisions instead of reducing (#27285).
Follower(r) == PPSync = "forward" /\ StageOf(r) > 0

-----------------------------------------------------------------------------
(* More knobs: HiCacheSync's broken assumptions in the pipeline, and the    *)
(* guard SGLang evaluates before its load-completion sync under host-only  *)
(* placement. Each is off by default (Knobs = {} in every other model).     *)
(*   "local_clock"     a rank's clock orders its LRU victims the other way  *)
(*                     from some point on (ClockSkews; HiCacheSync's knob); *)
(*   "uneven_capacity" rank 0's host pool is one page larger;               *)
(*   "local_payload"   (merged) the S123 vector leaves out the release     *)
(*                     count when this rank's release queue is empty: its  *)
(*                     length follows rank-local data (HiCacheSync's knob); *)
(*   "host_only"       #28269 (open, "Support host-only HiCache tree") as   *)
(*                     its diff reads: loading_check skips its all_reduce   *)
(*                     (the MIN and, under PP, the forward) when the tree   *)
(*                     placement is host_only, and each rank pops its own   *)
(*                     ready load acks. Applies to S2 (post20460: the       *)
(*                     separate loading_check of the PR's base) and to a   *)
(*                     later stage's forwarded load count;                  *)
(*   "host_only_pp_guard" the review's suggestion on #28269: skip only when *)
(*                     pp_size == 1 (the PP sync is kept).                  *)
(*   "pf_shared_group" / "sync_shared_group" the prefetch thread (S7) or   *)
(*                     the prefetch sync thread (S5B) reduces on the       *)
(*                     scheduler's attn_cp / attn_tp group objects instead *)
(*                     of groups of its own (HiCacheUnified's knobs): the  *)
(*                     k-th calls of the members on such a group pair up   *)
(*                     whichever thread made them (SharedGroupMatching).   *)
(*                     The pp group stays the thread's own (the scheduler  *)
(*                     makes no collective call on it).                    *)
(***************************************************************************)

\* local_clock: the most recently used of S instead (ties by key, the other way).
SkewedVictim(S, s) ==
    CHOOSE k \in S : \A j \in S : s.tree[j].at < s.tree[k].at \/ (s.tree[j].at = s.tree[k].at /\ j <= k)

\* host_only: the load-completion sync is skipped (with the guard: only when PP = 1).
HostOnlySkip == "host_only" \in Knobs /\ ~("host_only_pp_guard" \in Knobs /\ PP > 1)

\* The counts a later stage pops: stage 0's forwarded ones, or under HostOnlySkip its own
\* ready load acks in place of the forwarded load count.
FollowerAcks(s) == IF HostOnlySkip THEN <<s.msg.acks[1], s.ld, s.msg.acks[3]>> ELSE s.msg.acks

\* pf_shared_group / sync_shared_group: the kinds of the scheduler's groups that storage thread
\* th reduces on (its stage groups; its pp group stays its own). A shared group's scheduler twin
\* is the group record with channel "sched" (same kind, same members: the same object).
SharedKinds(th) ==
    IF \/ th = "pf" /\ "pf_shared_group" \in Knobs
       \/ th = "pfsync" /\ "sync_shared_group" \in Knobs
      THEN {"attn_cp", "attn_tp"} ELSE {}
Twin(g) == [g EXCEPT !.ch = "sched"]
SchedOn(r, g) == coll[r]["sched"] # C!NoCall /\ coll[r]["sched"].grp = Twin(g)
\* Storage thread th of rank r may start its chain at site: under a shared-group knob, not onto a
\* group its scheduler has a call on now. So of a rank's two calls on one group, the storage
\* thread's (at its first group) came first (SharedGroupMatching relies on it); the other order
\* is not explored: every mismatch found is a real one. (IF, not \/: TLC explores each disjunct
\* of an action as a branch of its own.)
ShareFree(r, th, site) ==
    IF SharedKinds(th) = {} \/ Groups(r, site) = <<>> THEN TRUE
    ELSE Groups(r, site)[1].kind \notin SharedKinds(th) \/ ~SchedOn(r, Groups(r, site)[1])

\* The merged S123 vector; local_payload: without its release entry when the queue is empty here.
S123Vec(s) == IF "local_payload" \in Knobs /\ s.rlq = <<>> THEN <<s.wd, s.ld>>
              ELSE <<s.wd, s.ld, Len(s.rlq)>>

-----------------------------------------------------------------------------
(* Rank-local computation (as HiCacheSync, without storage backup).         *)

\* The least recently used of the candidate keys S, ties by key. hiradix_cache.py::evict
Victim(S, s) ==
    IF "local_clock" \in Knobs /\ s.clk THEN SkewedVictim(S, s) ELSE
    CHOOSE k \in S : \A j \in S : s.tree[k].at < s.tree[j].at \/ (s.tree[k].at = s.tree[j].at /\ k <= j)
DevVictims(s) == {k \in Keys : s.tree[k].dev /\ s.tree[k].lock = 0}
EvictDevOne(s) ==
    LET k == Victim(DevVictims(s), s)
        n == s.tree[k]
    IN  IF n.hp = P
          THEN [s EXCEPT !.tree[k].dev = FALSE, !.dfree = @ + P]
          ELSE [s EXCEPT !.tree[k] = Absent, !.dfree = @ + P, !.hfree = @ + n.hp]
RECURSIVE EnsureDev(_, _)
EnsureDev(s, need) ==
    IF s.dfree >= need \/ DevVictims(s) = {} THEN s ELSE EnsureDev(EvictDevOne(s), need)

HostVictims(s) == {k \in Keys : ~s.tree[k].dev /\ s.tree[k].hp > 0 /\ s.tree[k].lock = 0}
EvictHostOne(s) ==
    LET k == Victim(HostVictims(s), s)
    IN  [s EXCEPT !.tree[k] = Absent, !.hfree = @ + s.tree[k].hp]
RECURSIVE EnsureHost(_, _)
EnsureHost(s, need) ==
    IF s.hfree >= need \/ HostVictims(s) = {} THEN s ELSE EnsureHost(EvictHostOne(s), need)

\* hiradix_cache.py::write_backup
WriteThrough(s, k) ==
    LET need == P - s.tree[k].hp
        e    == EnsureHost(s, need)
    IN  IF need = 0 \/ s.tree[k].hw > 0 THEN s
        ELSE IF e.hfree < need THEN e
        ELSE [e EXCEPT !.hfree = @ - need, !.tree[k].hw = need,
                       !.tree[k].lock = @ + 1, !.wq = Append(@, k)]

\* hiradix_cache.py::cache_finished_req
Finish(s) ==
    IF s.run = 0 THEN s
    ELSE LET k == Requests[s.run]
         IN  WriteThrough([s EXCEPT !.run = 0, !.tree[k].lock = @ - 1, !.tree[k].at = s.run], k)

\* Request i enters the waiting queue; a miss with storage on issues a prefetch that owns
\* host slots for the whole key. hiradix_cache.py::prefetch_from_storage
Deliver(s, i) ==
    IF i = 0 THEN s
    ELSE LET k  == Requests[i]
             \* with storage on, prefetch_from_storage's match_prefix at arrival stamps the node
             s1 == [s EXCEPT !.req = i, !.wait = i,
                             !.tree[k].at = IF ~StorageOn \/ IsAbsent(s.tree[k]) THEN @ ELSE i]
             e  == EnsureHost(s1, P)
         IN  IF ~StorageOn \/ ~IsAbsent(s1.tree[k]) THEN s1
             ELSE IF e.hfree < P THEN e
             ELSE [e EXCEPT !.hfree = @ - P, !.pf[i] = [OpNone EXCEPT !.st = "issued", !.own = P]]

\* S1: pop n write acks (the node is now on host). hiradix_cache.py::writing_check
RECURSIVE PopWrites(_, _)
PopWrites(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.wd = 0 THEN [s EXCEPT !.bad = 1]          \* event not done here (or no ack)
    ELSE LET k  == Head(s.wq)
             nd == s.tree[k]
         IN  PopWrites([s EXCEPT !.wq = Tail(@), !.wd = @ - 1,
                         !.tree[k] = [nd EXCEPT !.hp = nd.hp + nd.hw, !.hw = 0,
                                                !.lock = @ - 1]], n - 1)
\* S2: pop n load acks. hiradix_cache.py::loading_check
RECURSIVE PopLoads(_, _)
PopLoads(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.ld = 0 THEN [s EXCEPT !.bad = 1]
    ELSE PopLoads([s EXCEPT !.lq = Tail(@), !.ld = @ - 1,
                            !.tree[Head(s.lq)].lock = @ - 1], n - 1)
\* S3 (host release part): free n queued host page runs.
RECURSIVE PopReleases(_, _)
PopReleases(s, n) ==
    IF n = 0 THEN s
    ELSE IF s.rlq = <<>> THEN [s EXCEPT !.bad = 1]
    ELSE PopReleases([s EXCEPT !.rlq = Tail(@), !.hfree = @ + Head(s.rlq)], n - 1)

ApplyAcks(s, n) ==
    [PopReleases(PopLoads(PopWrites(s, n[1]), n[2]), n[3])
        EXCEPT !.cur = [w |-> n[1], l |-> n[2], rl |-> n[3]]]

\* A follower may pop the forwarded counts once its own events are done (it blocks, #27285).
Ready(s, n) == s.wd >= n[1] /\ s.ld >= n[2] /\ Len(s.rlq) >= n[3]

\* S4 local value: may this rank terminate the waiting request's prefetch?
CanTerminate(s) ==
    LET op == s.pf[s.wait]
    IN  op.hitd /\ (op.st = "revoked" \/ op.sy = NB(op.tgt) \/ (Policy = "timeout" /\ op.to))

\* Terminate the waiting request's prefetch and insert m synced pages into the host tree.
\* The tail (own - m slots) goes to the release queue now only if no batch can still write
\* into it (final batch ack synced, or revoked); else the sync thread releases it at the
\* final ack (#27010). "B7tail": released now regardless.
Terminate(s, m) ==
    LET w  == s.wait
        k  == Requests[w]
        op == s.pf[w]
        tail == op.own - m
        final == op.st = "revoked" \/ op.sy = NB(op.tgt)
        now == final \/ "B7tail" \in Bugs
    IN  [s EXCEPT
           !.pf[w]   = LET t == [op EXCEPT !.st = "term", !.own = IF now THEN 0 ELSE tail,
                                              !.tstep = s.step, !.ins = m]
                       IN  IF final THEN Fin(t, FALSE) ELSE t,
           !.tree[k] = IF m > 0 THEN [Absent EXCEPT !.hp = m, !.id = s.nid, !.at = w] ELSE @,
           !.nid     = IF m > 0 THEN @ + 1 ELSE @,
           !.rlq     = IF now /\ tail > 0 THEN Append(@, tail) ELSE @,
           \* inserting pages that were not read (and synced) on this rank
           !.bad     = IF ~op.hitd \/ m > op.cmp \/ op.st \notin Ongoing THEN 1 ELSE @,
           !.term = 1, !.m = m]

\* Admit the waiting request: device hit, host hit (load back) or miss (insert).
Admit(s0) ==
    LET w == s0.wait
        k == Requests[w]
        \* match_prefix stamps the matched node, at every attempt
        s == IF IsAbsent(s0.tree[k]) THEN s0 ELSE [s0 EXCEPT !.tree[k].at = w]
        e == EnsureDev(s, P)
        n == e.tree[k]
        new == n.hp = 0
    IN  IF s.tree[k].dev THEN [s EXCEPT !.tree[k].lock = @ + 1, !.run = w, !.wait = 0]
        ELSE IF e.dfree < P THEN e
        ELSE [e EXCEPT !.dfree = @ - P,
                       !.tree[k] = [n EXCEPT !.dev = TRUE, !.lock = @ + (IF new THEN 1 ELSE 2),
                                             !.id = IF new THEN e.nid ELSE @, !.at = w],
                       !.nid = IF new THEN @ + 1 ELSE @,
                       !.lq  = IF new THEN @ ELSE Append(@, k),
                       !.run = w, !.wait = 0]

\* Nothing left to do on this rank (stage 0's stop condition, reduced at RECV).
Quiet(s) == /\ s.req = NR /\ s.wait = 0 /\ s.run = 0
            /\ s.wq = <<>> /\ s.lq = <<>> /\ s.rlq = <<>>
            /\ \A i \in 1 .. NR : s.pf[i].st \in {"none", "fin"}

\* RECV's first value: the index of the next request to deliver, 0 while one waits or none is left.
\* (Also what TraceHiCachePipeline checks a recorded RECV against, on every stage.)
RecvNext(s) == IF s.wait = 0 /\ s.req < NR THEN s.req + 1 ELSE 0

\* The log record of a step: what the properties compare at equal step numbers.
\* Pool usage, not free pages: ranks may have different pools (local_pool_sizes).
LogRec(r, s) == [tree |-> s.tree, nid |-> s.nid, wait |-> s.wait, run |-> s.run,
                 pop |-> s.cur, wq |-> s.wq, lq |-> s.lq,
                 dused |-> DeviceCapOf(r) - s.dfree, hused |-> HostCapOf(r) - s.hfree]

\* Background decisions.
NextS7(s) == Min({i \in 1 .. NR : s.pf[i].st = "issued"})
\* The I/O thread serves prefetches in order: the oldest one with batches left to ack.
IoPending(s) == {i \in 1 .. NR : s.pf[i].st \in {"reading", "term"}
                                  /\ Len(s.pf[i].acks) < NB(s.pf[i].tgt)}
NextIo(s) == Min(IoPending(s))
SyncPending(s) == {i \in 1 .. NR : Len(s.pf[i].acks) > s.pf[i].sy}
NextSB(s) == Min(SyncPending(s))

\* S7 decision: revoke below the threshold, else read the MIN pages. prefetch_thread_func
HitSynced(s, h) ==
    LET i  == NextS7(s)
        op == s.pf[i]
    IN  [s EXCEPT !.pf[i] = [op EXCEPT !.st = IF h < PrefetchThreshold THEN "revoked" ELSE "reading",
                                       !.tgt = IF h < PrefetchThreshold THEN 0 ELSE h,
                                       !.hitd = TRUE, !.hit = h]]

\* S5B decision for the next batch ack: count it if all earlier batches were complete; at the
\* final ack of a terminated prefetch, release its tail. prefetch sync thread (#27010)
BatchSynced(s, x) ==
    LET i  == NextSB(s)
        op == s.pf[i]
        j  == op.sy + 1
        before == Min({(j - 1) * BatchPages, op.tgt})
        cmp == IF op.cmp = before THEN op.cmp + x ELSE op.cmp
        last == j = NB(op.tgt)
        rel  == last /\ op.st = "term"
    IN  [s EXCEPT !.pf[i] = IF rel THEN Fin(op, op.own > 0)
                            ELSE [op EXCEPT !.sy = j, !.cmp = cmp],
                  !.rlq = IF rel /\ op.own > 0 THEN Append(@, op.own) ELSE @]

-----------------------------------------------------------------------------
(* The scheduler step as a chain of blocking points. Enter computes a      *)
(* sync point's local value and posts it on its first group; Post moves to *)
(* the next group or, past the last one, Decide applies the result and     *)
(* enters the next point. Each returns [s |-> local state, call |-> the    *)
(* next collective call of the thread, or NoCall].                         *)

\* Enter, Post and Decide are one recursive operator, Chain, as in HiCacheSync.tla (which says why:
\* TLC's start-up walks each operator body once per use outside that operator).
RECURSIVE Chain(_, _, _, _, _, _)
Enter(r, s, site) == Chain("enter", r, s, site, 0, <<>>)
Post(r, s, site, k, v) == Chain("post", r, s, site, k, v)
Decide(r, s, site, x) == Chain("decide", r, s, site, 0, x)

PostOn(r, s, site, k, v) ==
    LET gs == Groups(r, site)
    IN  IF k <= Len(gs) THEN [s |-> s, call |-> C!Call(gs[k], site, k, OpOf(site), v)]
        ELSE Decide(r, s, site, v)

Stay(s) == [s |-> s, call |-> C!NoCall]

EnterOn(r, s, site) ==
    CASE site = "RECV" ->                                   \* stage 0: request broadcast
            Post(r, s, "RECV", 1, <<RecvNext(s), IF Quiet(s) THEN 0 ELSE 1>>)
      [] site = "SYNC" ->                                   \* check_hicache_events
            IF Follower(r)
              THEN IF Ready(s, FollowerAcks(s)) THEN Enter(r, ApplyAcks(s, FollowerAcks(s)), "ADMIT")
                   ELSE Stay([s EXCEPT !.pc = "wait_ev"])    \* block on own events
            ELSE IF Version = "merged" THEN Post(r, s, "S123", 1, S123Vec(s))
            ELSE Post(r, s, "S1", 1, <<s.wd>>)
      [] site = "S2" -> IF HostOnlySkip THEN Enter(r, [PopLoads(s, s.ld) EXCEPT !.cur.l = s.ld], "S3")
                        ELSE Post(r, s, "S2", 1, <<s.ld>>)
      [] site = "S3" -> IF ~StorageOn THEN Enter(r, s, "ADMIT")
                        ELSE Post(r, s, "S3", 1, <<Len(s.rlq)>>)
      [] site = "ADMIT" ->
            IF s.wait = 0 THEN Enter(r, s, "END")
            ELSE IF s.pf[s.wait].st \in Ongoing \ {"term"}
              THEN IF Follower(r)
                     THEN IF s.msg.term = 1 THEN Enter(r, Admit(Terminate(s, s.msg.m)), "END")
                          ELSE Enter(r, s, "END")
                   ELSE Post(r, s, "S4", 1, <<IF CanTerminate(s) THEN 0 ELSE 1>>)
            ELSE Enter(r, Admit(s), "END")
      [] site = "END" ->                                    \* log, send step k's message
            [s |-> [s EXCEPT !.log = IF s.step <= MaxSteps THEN Append(@, LogRec(r, s)) ELSE @,
                             !.pc = "begin",
                             \* the step's scratch fields are dead now: reset (fewer states)
                             !.msg = InitLS.msg, !.dreq = 0, !.cur = Pop0, !.term = 0, !.m = 0,
                             !.outbox = IF HasNext(r)
                                          THEN <<Msg(s.dreq, <<s.cur.w, s.cur.l, s.cur.rl>>,
                                                     s.term, s.m)>>
                                          ELSE <<>>],
             call |-> C!NoCall]

\* Start step k: deliver the request, finish the running one. scheduler.py event loop
StartStep(r, s, req) ==
    Enter(r, Deliver(Finish([s EXCEPT !.step = Min({@ + 1, MaxSteps + 1}), !.pc = "run",
                                      !.dreq = req, !.cur = Pop0, !.term = 0, !.m = 0]), req),
          "SYNC")

DecideOn(r, s, site, x) ==
    CASE site = "RECV" -> IF x[2] = 0                          \* every rank of stage 0 quiet
                            THEN Stay([s EXCEPT !.pc = "done",
                                         !.outbox = IF HasNext(r) THEN <<StopMsg>> ELSE <<>>])
                            ELSE StartStep(r, s, x[1])
      [] site = "S1"   -> Enter(r, [PopWrites(s, x[1]) EXCEPT !.cur.w = x[1]], "S2")
      [] site = "S2"   -> Enter(r, [PopLoads(s, x[1]) EXCEPT !.cur.l = x[1]], "S3")
      [] site = "S3"   -> Enter(r, [PopReleases(s, x[1]) EXCEPT !.cur.rl = x[1]], "ADMIT")
      [] site = "S123" -> Enter(r, ApplyAcks(s, IF Len(x) = 3 THEN x ELSE x \o <<0>>), "ADMIT")
      [] site = "S4"   -> IF x[1] = 0 THEN Post(r, s, "S5", 1, <<s.pf[s.wait].cmp>>)
                          ELSE Enter(r, s, "END")                \* keep waiting
      [] site = "S5"   -> Enter(r, Admit(Terminate(s, x[1])), "END")
      [] site = "S7"   -> Stay(HitSynced(s, x[1]))
      [] site = "S5B"  -> Stay(BatchSynced(s, x[1]))

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

Resume(r, s, call, x) ==
    IF call.stage < Len(Groups(r, call.site))
      THEN Post(r, s, call.site, call.stage + 1, x)
      ELSE Decide(r, s, call.site, x)

\* Commit the new local states nx[q] of the ranks q in M, their next call on channel ch, and
\* their outgoing pipeline messages (appended to the channels ch0, the channels before).
CommitOn(M, nx, ch, ch0) ==
    /\ ls' = [q \in Ranks |-> IF q \in M THEN [nx[q].s EXCEPT !.outbox = <<>>] ELSE ls[q]]
    /\ coll' = [q \in Ranks |-> IF q \in M THEN [coll[q] EXCEPT ![ch] = nx[q].call] ELSE coll[q]]
    /\ chan' = [q \in Ranks |-> IF HasPrev(q) /\ PrevRank(q) \in M
                                  THEN ch0[q] \o nx[PrevRank(q)].s.outbox
                                  ELSE ch0[q]]
Commit(M, nx, ch) == CommitOn(M, nx, ch, chan)

-----------------------------------------------------------------------------
(* Initial state.                                                           *)

Init ==
    /\ ls = [r \in Ranks |-> [InitLS EXCEPT !.dfree = DeviceCapOf(r), !.hfree = HostCapOf(r)]]
    /\ coll = [r \in Ranks |-> [th \in Threads |-> C!NoCall]]
    /\ chan = [r \in Ranks |-> <<>>]

-----------------------------------------------------------------------------
(* Actions.                                                                 *)

\* Room in the pipeline channel to the next stage (a stage runs at most MaxLag steps ahead).
Room(r) == IF HasNext(r) THEN Len(chan[NextRank(r)]) < MaxLag ELSE TRUE

\* Rank r begins its next step: stage 0 posts RECV; stage s > 0 receives step k's message.
\* sglang: scheduler.py::recv_requests; scheduler_pp_mixin.py (a later stage receives the step)
StepBegins(r) ==
    /\ ls[r].pc = "begin"
    /\ coll[r]["sched"] = C!NoCall
    /\ Room(r)
    /\ IF StageOf(r) = 0
         THEN \E nx \in {Enter(r, ls[r], "RECV")} : Commit({r}, [q \in {r} |-> nx], "sched")
         ELSE /\ chan[r] # <<>>
              /\ LET m == Head(chan[r])
                     nx == IF m.stop
                             THEN Stay([ls[r] EXCEPT !.pc = "done",
                                          !.outbox = IF HasNext(r) THEN <<StopMsg>> ELSE <<>>])
                             ELSE StartStep(r, [ls[r] EXCEPT !.msg = m], m.req)
                 \* the receive takes the message off r's channel
                 IN  CommitOn({r}, [q \in {r} |-> nx], "sched", [chan EXCEPT ![r] = Tail(@)])

\* A follower's own events are done: it pops the forwarded counts and goes on.
\* sglang: hiradix_cache.py::writing_check / loading_check (a follower pops the forwarded counts)
EventsReady(r) ==
    /\ ls[r].pc = "wait_ev"
    /\ Ready(ls[r], FollowerAcks(ls[r]))
    /\ \E nx \in {Enter(r, ApplyAcks([ls[r] EXCEPT !.pc = "run"], FollowerAcks(ls[r])), "ADMIT")} :
          Commit({r}, [q \in {r} |-> nx], "sched")

\* The last member of group g arrives: the collective completes for every member.
CollectiveCompletes(g) ==
    /\ C!AllPosted(g)
    /\ C!Matched(g)
    /\ \E nx \in {LET x == C!Result(g) IN [q \in g.m |-> Resume(q, ls[q], coll[q][g.ch], x)]} :
          Commit(g.m, nx, g.ch)

\* GPU events complete per rank, in stream order. cache_controller.py (CUDA events)
\* sglang: environment: the GPU copy of cache_controller.py::write completes (its CUDA event)
WriteEventCompletes(r) ==
    /\ ls[r].wd < Len(ls[r].wq)
    /\ ls' = [ls EXCEPT ![r].wd = @ + 1]
    /\ UNCHANGED <<coll, chan>>
\* sglang: environment: the GPU copy of cache_controller.py::load completes (its CUDA event)
LoadEventCompletes(r) ==
    /\ ls[r].ld < Len(ls[r].lq)
    /\ ls' = [ls EXCEPT ![r].ld = @ + 1]
    /\ UNCHANGED <<coll, chan>>

\* The prefetch thread queries this stage's storage (h leading pages exist for this rank's
\* keys: environment) and posts S7. cache_controller.py::prefetch_thread_func
\* sglang: cache_controller.py::prefetch_thread_func
PrefetchThreadQueries(r) ==
    /\ StorageOn
    /\ coll[r]["pf"] = C!NoCall
    /\ \E i \in 1 .. NR : ls[r].pf[i].st = "issued"
    /\ ShareFree(r, "pf", "S7")
    /\ \E h \in 0 .. P :
          \E nx \in {Post(r, ls[r], "S7", 1, <<h>>)} : Commit({r}, [q \in {r} |-> nx], "pf")

\* The I/O thread starts reading the next batch into its host slots (not after a failure or
\* once the scheduler terminated the prefetch).
\* sglang: cache_controller.py::prefetch_io_aux_func
IoStartsBatch(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET i == NextIo(ls[r]) IN
       /\ ~ls[r].pf[i].infl /\ ~ls[r].pf[i].fail /\ ls[r].pf[i].st = "reading"
       /\ ls' = [ls EXCEPT ![r].pf[i].infl = TRUE]
    /\ UNCHANGED <<coll, chan>>
\* The batch read ends: all its pages land, or the read fails (ack of 0 pages).
\* sglang: cache_controller.py::_page_transfer
IoEndsBatch(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET i == NextIo(ls[r])
           op == ls[r].pf[i]
       IN  /\ op.infl
           /\ \/ ls' = [ls EXCEPT ![r].pf[i] = [op EXCEPT !.infl = FALSE,
                                      !.acks = Append(@, BatchSize(op.tgt, Len(op.acks) + 1))]]
              \/ ls' = [ls EXCEPT ![r].pf[i] = [op EXCEPT !.infl = FALSE, !.fail = TRUE,
                                                          !.acks = Append(@, 0)]]
    /\ UNCHANGED <<coll, chan>>
\* After a failure or termination the remaining batches are acked without reading: every
\* rank emits the same number of acks (#27010).
\* sglang: cache_controller.py::_page_transfer (the remaining batches acked unread)
IoSkipsBatch(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET i == NextIo(ls[r])
           op == ls[r].pf[i]
       IN  /\ ~op.infl /\ (op.fail \/ op.st = "term")
           /\ ls' = [ls EXCEPT ![r].pf[i].acks = Append(@, 0)]
    /\ UNCHANGED <<coll, chan>>

\* The prefetch sync thread posts the next batch ack (S5B).
\* sglang: cache_controller.py::prefetch_thread_func (the batch ack's MIN)
SyncThreadPosts(r) ==
    /\ coll[r]["pfsync"] = C!NoCall
    /\ SyncPending(ls[r]) # {}
    /\ ShareFree(r, "pfsync", "S5B")
    /\ LET op == ls[r].pf[NextSB(ls[r])] IN
       \E nx \in {Post(r, ls[r], "S5B", 1, <<op.acks[op.sy + 1]>>)} :
          Commit({r}, [q \in {r} |-> nx], "pfsync")

\* The rank's wall clock passes the prefetch timeout (policy "timeout"). A follower never reads
\* its own clock (stage 0 decides termination), so its timeouts are not modelled.
\* sglang: environment: the wall clock passes the prefetch timeout (can_terminate_prefetch)
TimeoutFires(r, i) ==
    /\ Policy = "timeout"
    /\ ~Follower(r)
    /\ ls[r].pf[i].st = "reading" /\ ~ls[r].pf[i].to
    /\ ls' = [ls EXCEPT ![r].pf[i].to = TRUE]
    /\ UNCHANGED <<coll, chan>>

\* local_clock: rank r's clock starts ordering its victims the other way (between its steps).
\* sglang: environment: the rank's clock (time.monotonic) orders its eviction victims its own way
ClockSkews(r) ==
    /\ "local_clock" \in Knobs /\ ~ls[r].clk /\ ls[r].pc = "begin"
    /\ ls' = [ls EXCEPT ![r].clk = TRUE]
    /\ UNCHANGED <<coll, chan>>

\* The legitimate end: every scheduler stopped; stutter.
Done == \A r \in Ranks : ls[r].pc = "done"
\* sglang: none: the bounded run is over (stuttering)
Terminated == Done /\ UNCHANGED vars

SchedulerMoves == \E r \in Ranks : StepBegins(r) \/ EventsReady(r)
\* Each group tried once, from its lowest member (C!LeadsGroup): it completes only when every
\* member has posted on it, so this is the same action without one successor per member.
\* sglang: torch.distributed all_reduce / barrier returning on every member of the group
SomeCollectiveCompletes ==
    \E r \in Ranks, th \in Threads :
        C!LeadsGroup(r, th) /\ CollectiveCompletes(coll[r][th].grp)
\* Group coll[r][th].grp completes, tried from its lowest member r (as in SomeCollectiveCompletes).
GroupCompletes(r, th) == C!LeadsGroup(r, th) /\ CollectiveCompletes(coll[r][th].grp)
Background ==
    \E r \in Ranks : \/ WriteEventCompletes(r) \/ LoadEventCompletes(r)
                     \/ PrefetchThreadQueries(r) \/ IoStartsBatch(r) \/ IoEndsBatch(r)
                     \/ IoSkipsBatch(r) \/ SyncThreadPosts(r)
                     \/ \E i \in 1 .. NR : TimeoutFires(r, i)
                     \/ ClockSkews(r)

Next == SchedulerMoves \/ SomeCollectiveCompletes \/ Background \/ Terminated

\* Fairness: schedulers keep stepping and gloo collectives whose members all called complete
\* (weak: once enabled they stay enabled until taken); GPU copies complete, storage answers,
\* wall time passes and threads are scheduled (strong: a ready event is noticed eventually
\* even if the rank is busy in between). Each group's completion is fair on its own
\* (GroupCompletes): weak fairness on SomeCollectiveCompletes alone is met by the schedulers'
\* collectives completing step after step while a prefetch thread's S7, posted by all its
\* members, never completes, a behaviour gloo does not have (the S7 group's members wait on no
\* other thread), in which PrefetchTerminates fails (pp_merged_cp2_storage_live).
Fairness == /\ WF_vars(SchedulerMoves) /\ WF_vars(SomeCollectiveCompletes)
            /\ \A r \in Ranks, th \in Threads : WF_vars(GroupCompletes(r, th))
            /\ SF_vars(Background)

Spec == Init /\ [][Next]_vars /\ Fairness

\* Partial-order reduction (docs/explanation/spec-design.md, "HiCachePipeline: the storage threads"), SAFETY ONLY: a cfg selects it
\* with `SPECIFICATION ReducedSpec` (no fairness: never with PROPERTIES); Spec stays the default.
\* Eager steps: storage-thread steps that commute with every other step and cannot hide a
\* violation. In a state where one is enabled, only it is explored (an ample set of one action
\* instance with all its branches): the lowest rank that has one, the first kind in this order.
\*  - EagerPfPost: the prefetch thread posts S7 (stage 0 or no forwarding: its scheduler never
\*    terminates an issued prefetch: S4's MAX holds r's own CanTerminate, which needs hitd);
\*    EagerSyncPost: the prefetch sync thread posts S5B. Only onto a real collective
\*    (Groups # <<>>): a post that
\*    decides inline would write the fields the scheduler reads. A post writes only coll[r][ch],
\*    which only the completion of r's group reads (not enabled before the post) and the
\*    invariants CollectiveMatching / TypeOK, which a post can falsify but never repair.
\*  - EagerSkip: the I/O thread acks a batch without reading (after a failure or termination).
\*    It appends to acks, which no invariant reads; the S5B post reads only acks already there.
\*  - EagerEnd: a batch read ends for a prefetch the scheduler already terminated (st = "term",
\*    own > 0). Nothing can change own until the final ack (which needs this step), so the only
\*    invariant conjunct it touches, HP3 (infl => own > 0), holds before and after it. Never
\*    while st = "reading": there a scheduler's termination may still release the slots the
\*    batch writes into (B7tail), and ending the batch first would hide that.
\* Why it is sound (proof in docs/explanation/spec-design.md, "HiCachePipeline: the storage threads"): each eager step stays enabled and
\* commutes with every other step enabled with it; it never turns a violating state into a
\* non-violating one; and runs of eager steps are finite (each raises the posted storage calls,
\* the acks appended or the batches not in flight, which only non-eager steps lower). So every
\* violation (or deadlock) of Spec is reachable under ReducedSpec. Used with LiveSymmetryView
\* (MCHiCachePipeline.tla), and after the two reductions below (applied first, in ReducedNext's
\* ELSE branch: FusedNext).
EagerPfPost(r) ==
    /\ StorageOn /\ ~Follower(r) /\ Groups(r, "S7") # <<>>
    /\ coll[r]["pf"] = C!NoCall
    /\ \E i \in 1 .. NR : ls[r].pf[i].st = "issued"
EagerSyncPost(r) ==
    /\ Groups(r, "S5B") # <<>>
    /\ coll[r]["pfsync"] = C!NoCall
    /\ SyncPending(ls[r]) # {}
EagerSkip(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET op == ls[r].pf[NextIo(ls[r])] IN ~op.infl /\ (op.fail \/ op.st = "term")
EagerEnd(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET op == ls[r].pf[NextIo(ls[r])] IN op.infl /\ op.st = "term" /\ op.own > 0
\* (Not under a shared-group knob: there a post can break SharedGroupMatching's order and is
\* guarded by the scheduler's calls; ReducedNext is then FusedNext.)
Eager(r) == /\ SharedKinds("pf") = {} /\ SharedKinds("pfsync") = {}
            /\ EagerPfPost(r) \/ EagerSyncPost(r) \/ EagerSkip(r) \/ EagerEnd(r)
EagerStep(r) ==
    CASE EagerPfPost(r)   -> PrefetchThreadQueries(r)
      [] EagerSyncPost(r) -> SyncThreadPosts(r)
      [] EagerSkip(r)     -> IoSkipsBatch(r)
      [] OTHER            -> IoEndsBatch(r)
\* Second reduction (Lipton), applied first: a batch that ends well while its prefetch is still
\* "reading" goes straight on to the next batch in the same step (the I/O thread's start is a
\* left mover: only r's own termination of the prefetch, which disables the start, fails to
\* commute with it; the state between the two steps differs only in infl, which with own = P
\* no invariant can tell). A run that terminates in that gap reads, under LiveSymmetryView, as
\* the start followed by a failed read (see the docs for the case analysis).
\* sglang: cache_controller.py::_page_transfer (the batch ends; the next one starts)
IoEndsBatchGoesOn(r) ==
    /\ IoPending(ls[r]) # {}
    /\ LET i  == NextIo(ls[r])
           op == ls[r].pf[i]
           n  == Len(op.acks) + 1
       IN  /\ op.infl
           /\ \/ ls' = [ls EXCEPT ![r].pf[i] = [op EXCEPT !.infl = op.st = "reading" /\ n < NB(op.tgt),
                                                          !.acks = Append(@, BatchSize(op.tgt, n))]]
              \/ ls' = [ls EXCEPT ![r].pf[i] = [op EXCEPT !.infl = FALSE, !.fail = TRUE,
                                                          !.acks = Append(@, 0)]]
    /\ UNCHANGED <<coll, chan>>
\* Third reduction: a timeout fires only when r's scheduler's next step may read it. Only
\* CanTerminate reads `to`, at S4's post, which comes right after the last sync call of the step
\* (or inline in StepBegins when the whole chain up to ADMIT is local). The timeout commutes
\* with every step but that read (termination disables it, but then `to` is dead), and no
\* invariant reads it: a timeout fired earlier is the same run with the timeout moved right,
\* to just before the read, or dropped where nothing reads it.
SchedChainToAdmit(r) ==
    SelectSeq(<<"RECV">> \o (IF Version = "merged" THEN <<"S123">>
                            ELSE IF StorageOn THEN <<"S1", "S2", "S3">> ELSE <<"S1", "S2">>),
              LAMBDA site : Groups(r, site) # <<>>)
LastCallBeforeAdmit == [r \in Ranks |-> IF SchedChainToAdmit(r) = <<>> THEN "none"
                                        ELSE SchedChainToAdmit(r)[Len(SchedChainToAdmit(r))]]
MayReadTimeoutNext(r) ==
    LET last == LastCallBeforeAdmit[r]
        c    == coll[r]["sched"]
    IN  IF last = "none" THEN c = C!NoCall /\ ls[r].pc = "begin"
        ELSE c # C!NoCall /\ c.site = last /\ c.stage = Len(Groups(r, last))
FusedBackground ==
    \E r \in Ranks : \/ WriteEventCompletes(r) \/ LoadEventCompletes(r)
                     \/ PrefetchThreadQueries(r) \/ IoStartsBatch(r) \/ IoEndsBatchGoesOn(r)
                     \/ IoSkipsBatch(r) \/ SyncThreadPosts(r)
                     \/ (MayReadTimeoutNext(r) /\ \E i \in 1 .. NR : TimeoutFires(r, i))
                     \/ ClockSkews(r)
FusedNext == SchedulerMoves \/ SomeCollectiveCompletes \/ FusedBackground \/ Terminated
ReducedNext ==
    IF \E r \in Ranks : Eager(r)
      THEN EagerStep(CHOOSE r \in Ranks : Eager(r) /\ \A q \in Ranks : Eager(q) => r <= q)
      ELSE FusedNext
ReducedSpec == Init /\ [][ReducedNext]_vars

-----------------------------------------------------------------------------
(* Properties: the names of HiCacheSync, compared at equal step numbers.    *)

\* Two ranks of one sync domain (any stages) agree on f of their logs at every step both logged.
\* (Each unordered pair once: the relation is symmetric. SyncPairs is a constant table: TLC
\* evaluates it once, not the pairs' sync domains in every state.)
SyncPairs == {pr \in Ranks \X Ranks : pr[1] < pr[2] /\ SyncDomain(pr[1]) = SyncDomain(pr[2])}
LogAgree(f(_)) ==
    \A pr \in SyncPairs :
        LET l1 == ls[pr[1]].log
            l2 == ls[pr[2]].log
        IN  \A k \in 1 .. (IF Len(l1) < Len(l2) THEN Len(l1) ELSE Len(l2)) : f(l1[k]) = f(l2[k])

TypeOK ==
    /\ \A r \in Ranks :
        /\ ls[r].pc \in {"begin", "run", "wait_ev", "done"}
        /\ ls[r].step \in 0 .. MaxSteps + 1
        /\ ls[r].tree \in [Keys -> Node]
        /\ ls[r].dfree \in 0 .. DeviceCapOf(r) /\ ls[r].hfree \in 0 .. HostCapOf(r)
        /\ ls[r].wd \in 0 .. Len(ls[r].wq) /\ ls[r].ld \in 0 .. Len(ls[r].lq)
        /\ Len(ls[r].log) <= MaxSteps
        /\ Len(chan[r]) <= MaxLag + 1
    /\ \A r \in Ranks, th \in Threads : coll[r][th] = C!NoCall \/ coll[r][th].site \in Sites

\* INV-1. Under a shared-group knob also SharedGroupMatching: on a group two threads of a rank
\* use, a member's first call is its storage thread's when that thread's call is at its first
\* group (ShareFree); when every member has a call there, the first calls must agree. (A call
\* at a later group of the thread's chain, posted when the previous group completed, may have
\* come after the scheduler's: there, with both posted, the order is not modelled.)
OrderUnknown == [site |-> "unknown"]
FirstCallOn(q, th, c) ==
    IF coll[q][th] # C!NoCall /\ coll[q][th].grp = c.grp
      THEN IF SchedOn(q, c.grp) /\ coll[q][th].stage > 1 THEN OrderUnknown ELSE coll[q][th]
    ELSE IF SchedOn(q, c.grp) THEN coll[q]["sched"]
    ELSE C!NoCall
SharedGroupMatching ==
    \A r \in Ranks, th \in {"pf", "pfsync"} :
        LET c == coll[r][th]
        IN  (c # C!NoCall /\ c.grp.kind \in SharedKinds(th)) =>
              LET F == [q \in c.grp.m |-> FirstCallOn(q, th, c)]
              IN  (\A q \in c.grp.m : F[q] # C!NoCall /\ F[q] # OrderUnknown) =>
                    \A q \in c.grp.m : C!Signature(q, F[q].grp.ch) = C!Signature(r, th)
CollectiveMatching == C!CollectiveMatching /\ SharedGroupMatching

\* INV-3: the same tree (residency, pages, locks, ids) and queue state after every step k.
TreeAgreement == LogAgree(LAMBDA e : <<e.tree, e.nid, e.wait, e.run>>)

\* INV-4: the same ack counts popped at every step k, the same acks queued.
AckAgreement == LogAgree(LAMBDA e : <<e.pop, e.wq, e.lq>>)

\* INV-5: the same decision for every prefetch: S7 hit, termination step, pages inserted.
PrefetchAgreement ==
    \A pr \in SyncPairs, i \in 1 .. NR :
        LET o1 == ls[pr[1]].pf[i]
            o2 == ls[pr[2]].pf[i]
        IN  /\ (o1.hitd /\ o2.hitd) => o1.hit = o2.hit
            /\ (o1.tstep > 0 /\ o2.tstep > 0) => <<o1.tstep, o1.ins>> = <<o2.tstep, o2.ins>>

\* INV-6: equal pool usage after every step k (equal free sizes when the pools are equal).
AllocAgreement == LogAgree(LAMBDA e : <<e.dused, e.hused>>)

\* INV-7: every host slot owned exactly once; slots a transfer uses are owned by it.
RECURSIVE SeqSum(_), SumOver(_, _)
SeqSum(s) == IF s = <<>> THEN 0 ELSE Head(s) + SeqSum(Tail(s))
SumOver(f, S) == IF S = {} THEN 0
                 ELSE LET k == CHOOSE x \in S : TRUE IN f[k] + SumOver(f, S \ {k})
HostSlotSafety ==
    \A r \in Ranks :
      LET s == ls[r] IN
      \* free list + release queue + tree (written or being written) + prefetches
      /\ HP0(r) :: s.hfree + SeqSum(s.rlq)
                + SumOver([k \in Keys |-> s.tree[k].hp + s.tree[k].hw], Keys)
                + SumOver([i \in 1 .. NR |-> s.pf[i].own], 1 .. NR)
                = HostCapOf(r)
      /\ HP1(r) :: \A k \in Keys : (s.tree[k].hw > 0) <=> (\E j \in 1 .. Len(s.wq) : s.wq[j] = k)
      /\ HP2(r) :: \A j \in 1 .. Len(s.lq) : s.tree[s.lq[j]].hp > 0
      \* a storage batch being written lands in slots its prefetch still owns (#27010)
      /\ HP3(r) :: \A i \in 1 .. NR : s.pf[i].infl => s.pf[i].own > 0
      \* no ack consumed before its transfer completed here; no unread page inserted
      /\ HP5(r) :: s.bad = 0
      /\ HP4(r) :: s.dfree + P * Cardinality({k \in Keys : s.tree[k].dev}) = DeviceCapOf(r)

\* The legitimate end leaves nothing behind: every ack consumed, every prefetch finished, no
\* message in flight. (With the deadlock check this is the finite part of the liveness
\* properties below: every state that is not the end has a successor; the cycles that avoid
\* the end are idle steps waiting for a background step that fairness eventually takes.)
EndClean == Done => \A r \in Ranks : /\ ~(ls[r].wq # <<>> \/ ls[r].lq # <<>> \/ ls[r].rlq # <<>>)
                                    /\ \A i \in 1 .. NR : ls[r].pf[i].st \in {"none", "fin"}
                                    /\ chan[r] = <<>>

\* Liveness. Written in a form TLC checks without a tableau, so that all the properties share one
\* pass over the behaviour graph (see HiCacheSync's properties and docs/explanation/spec-design.md):
\* Busy ~> ~Busy  ==  []<>~Busy, a law of temporal logic. The forms they had are kept in
\* modelcheck's LivenessForms*.tla (test resources); LivenessFormsTest checks both against each other.
AnyOngoing == \E r \in Ranks, i \in 1 .. NR : ls[r].pf[i].st \in Ongoing
\* (Was AnyOngoing ~> ~AnyOngoing.)
PrefetchTerminates == []<>~AnyOngoing
AckPending(r) == ls[r].wq # <<>> \/ ls[r].lq # <<>> \/ ls[r].rlq # <<>>
AnyAckPending == \E r \in Ranks : AckPending(r)
\* (Was (\E r \in Ranks : AckPending(r)) ~> (\A r \in Ranks : ~AckPending(r)).)
AcksConsumed == []<>~AnyAckPending
\* No thread waits forever in a collective (one property per thread; HiCacheSync has the same
\* names): every call a thread posts completes and the thread gets back to no call. A partial
\* wait (the thread's peers or the other threads go on) is not a deadlock: only these find it.
\* (Was (\E r \in Ranks : coll[r][th] # C!NoCall) ~> (\A r \in Ranks : coll[r][th] = C!NoCall).)
AnyPosted(th) == \E r \in Ranks : coll[r][th] # C!NoCall
ThreadNeverStuck(th) == []<>~AnyPosted(th)
SchedulerNeverStuck == ThreadNeverStuck("sched")
PrefetchThreadNeverStuck == ThreadNeverStuck("pf")
\* The prefetch sync thread (S5B, #27010).
SyncThreadNeverStuck == ThreadNeverStuck("pfsync")

-----------------------------------------------------------------------------
(* Reachability checks that must fail (the model is not a toy).             *)

\* A later stage waits for its own events before popping the forwarded counts.
DebugFollowerBlocks == ~(\E r \in Ranks : ls[r].pc = "wait_ev")
\* A stage runs ahead: stage 0 has finished a step that stage 1 has not begun.
DebugStageSkew == ~(\E r \in Ranks : HasNext(r) /\ ls[r].step > ls[NextRank(r)].step + 1)
\* A node is loaded back from host (load acks in the counts).
DebugLoadBack == ~(\E r \in Ranks : ls[r].lq # <<>>)
\* Every rank inserted a prefetched page into its host tree.
DebugPrefetchInserted == ~(\A r \in Ranks : ls[r].pf[1].ins > 0)
\* A prefetch terminated before its final batch ack kept its unread tail until that ack, then finished.
DebugTailAfterFinalAck == ~(\E r \in Ranks : ls[r].pf[1].st = "fin" /\ ls[r].pf[1].late)

=============================================================================
(***************************************************************************)
(* Measured cost (TLC 2.18 fork, -workers 1, `./hicache-sync check         *)
(* --record`, 2 cores shared with other jobs at load ~10-13, 2026-11-29).  *)
(* Columns: model, tier, (DP,CP,TP,PP), expected verdict, distinct states, *)
(* depth, seconds (JVM start included). See catalogue.json. Each bug model *)
(* is its fixed twin's cfg with one constant changed (PPSync or Bugs).     *)
(***************************************************************************)
\*   b6_stage_local                 ci   (1,1,1,2) violates TreeAgreement                19    8    4.3
\*   b6_fixed                       ci   (1,1,1,2) holds                                 87   19    3.5
\*   b6_world_allreduce             ci   (1,1,1,2) deadlock                               2    2    2.4
\*   b19_world_collective           ci   (1,1,1,2) deadlock                               2    2    2.7
\*   b19_fixed                      ci   (1,1,1,2) holds                                440   25    6.5
\*   b7_hit_cp_tp_only              ci   (1,1,1,2) violates PrefetchAgreement            27    5    4.8
\*   b7_fixed                       ci   (1,1,1,2) holds                              14814   31   19.6
\*   b7_tail_released_early         ci   (1,1,1,2) violates HostSlotSafety              163    9    5.2
\*   pp_debug_follower_blocks       ci   (1,1,1,2) violates DebugFollowerBlocks          29    8    3.8
\*   pp_debug_load_back             ci   (1,1,1,2) violates DebugLoadBack                74   11    3.9
\*   pp_debug_stage_skew            ci   (1,1,1,2) violates DebugStageSkew                3    3    3.4
\*   pp_debug_prefetch_inserted     deep (1,1,1,2) violates DebugPrefetchInserted      2954   15    9.7
\*   pp_debug_tail_after_final_ack  ci   (1,1,1,2) violates DebugTailAfterFinalAck     2034   14   10.5
\*   b6_fixed_cp2                   deep (1,2,1,2) holds                               1783   56   13.8
\*   b19_fixed_cp2                  deep (1,2,1,2) holds                              21042   72   44.7
\*   b7_fixed_steps3                deep (1,1,1,2) holds                              23865   33   18.6
\*   b6_fixed_live                  deep (1,1,1,2) holds                                 87   19   58.0
\* 30 Nov 2026 (LRU on the replicated clock, PoolSizes and Knobs, ThreadNeverStuck), re-measured
\* 2026-11-30 by ./hicache-sync check --model ... --workers 1 at load 22-30 (eight sessions on 2
\* cores): every model kept its verdict and its distinct states (the LRU order equals the key
\* order in these scenarios and the stamps add no distinctions). New rows:
\*   pp_pools_unequal_agreed        ci   (1,1,1,2) holds                                 87   19   21.6
\*   pp_knob_local_pool_sizes       ci   (1,1,1,2) violates TreeAgreement                 5    5   21.7
\*   b6_fixed_live (+3 properties)  deep (1,1,1,2) holds                                 87   19  460.3
\*   b7_fixed_cp2 (not in the catalogue: > 439,000 distinct states after 5 min, unfinished):
\*     -simulate num=20000 -depth 80 -seed 1, stopAfter 120 s: 132,409 states checked, no violation;
\*     the same run with Bugs = {"B7tail"}: HostSlotSafety violated after 1,978 states (12 s).
\*   b7_fixed_cp2 with VIEW RankSymmetryView (1 Dec 2026, docs/explanation/spec-design.md): 3,372,501 distinct,
\*     depth 41, 457,072 on the queue after 25 CPU minutes: still not exhaustive.
\*   b7_fixed_cp2 with ReducedSpec and VIEW LiveSymmetryView (1 Dec 2026, docs/explanation/spec-design.md):
\*     643,942 distinct, depth 81, exhaustive, no error; 212.7 s user CPU, 1,196.8 s wall at load 7-12
\*     (deep row b7_fixed_cp2; the Spec cfg is MCHiCachePipeline_b7_fixed_cp2_unreduced.cfg).
