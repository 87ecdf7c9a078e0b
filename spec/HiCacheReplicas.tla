--------------------------- MODULE HiCacheReplicas ---------------------------
(***************************************************************************)
(* Several attention-DP replicas: start-up group creation, independent     *)
(* traffic per replica, and the L3 storage writer election.                *)
(*                                                                          *)
(* HiCacheSync.tla models what happens inside one sync domain; the three    *)
(* failures here live between domains or before any domain exists, so     *)
(* this module keeps a deliberately thin per-rank cache and a faithful     *)
(* model of the groups. Each bug is one constant away:                     *)
(*                                                                          *)
(*  - GroupOrder (B16, #15805). torch.distributed.new_group is a world      *)
(*    collective: every rank of the job calls it, and the k-th call of     *)
(*    every rank must name the same member list (the store rendezvous is   *)
(*    keyed by the call number), otherwise nobody completes.               *)
(*      "own_groups" : each rank creates the groups it belongs to (ranks  *)
(*                     0-1 create [0,1] while 2-3 create [2,3]): hang at   *)
(*                     start-up, a TLC deadlock;                           *)
(*      "sorted_all" : every rank creates every distinct group, sorted by  *)
(*                     size then members (impl: Topology.allDistinctGroups).*)
(*  - CacheGroup (B2, #7158). The group HiCache's sync points reduce over.  *)
(*      "tp"      : the tp group of the stage, which with DP attention     *)
(*                  spans every replica: replica A's S1 waits for replica  *)
(*                  B, which is idle and never calls it: deadlock;         *)
(*      "attn_tp" : the groups of one replica: attn_cp then attn_tp (PR    *)
(*                  #20460; with CP = 1 this is the attn_tp group of #7158).*)
(*  - Writer (B13, #37149). With rank-replicated KV one rank per replicated *)
(*    group writes each page to L3.                                        *)
(*      "global_tp0" : the rank with tp_rank 0 writes: CP shard 1 is never  *)
(*                     written, a reader's S7 MIN is 0, every prefetch is  *)
(*                     revoked; no hang (violates StorageShardCoverage);   *)
(*      "attn_tp0"   : attn_tp rank 0 of every (dp, cp) writes: one writer  *)
(*                     per CP coordinate.                                  *)
(*                                                                          *)
(* MODELLED (sglang parallel_state.py initialize_model_parallel, scheduler  *)
(* event loop, hiradix_cache.py writing_check / prefetch, cache_controller  *)
(* backup and prefetch threads): group creation as world collectives; per   *)
(* replica a request stream (Traffic) received through RECV, the domain's   *)
(* step rendezvous; S7 (storage-hit MIN on the prefetch thread's groups)   *)
(* for every request when storage is on; a request that S7 revokes is      *)
(* computed and written through (ack queued); S1 writing_check (MIN of the *)
(* leading done write acks) every step; popped acks start the storage      *)
(* backup, which the elected writers perform; a replica keeps stepping     *)
(* while it has requests or unpopped acks (a synced condition), then idles *)
(* without calling any collective (the idle replica of B2).                *)
(* Environment: GPU write events (per rank, in order), storage writes.     *)
(*                                                                          *)
(* ABSTRACTED (and why):                                                    *)
(*  - the radix tree and the pools: every request misses L1/L2 (its key    *)
(*    left both since its last use), so every request queries L3. Tree and *)
(*    pool agreement inside a domain are HiCacheSync's job; here only the  *)
(*    counts that decide which collectives run are state;                  *)
(*  - one page per key per CP shard: a rank's S7 local hit is 1 iff the     *)
(*    storage holds its CP coordinate's shard of the key (KV is replicated *)
(*    across the attn_tp ranks of one CP coordinate), threshold 1 page;    *)
(*  - S7 runs on the prefetch thread's own groups (channel "pf") but in    *)
(*    sequence with the step (the scheduler waits for the hit decision, as *)
(*    wait_complete does); HiCacheSync models the thread's concurrency;    *)
(*  - rank-local computation between two collectives is one atomic step,   *)
(*    done by the action that completes the collective (the last arriver   *)
(*    resumes every member up to its next call), as in HiCacheSync: the    *)
(*    ranks of a domain query storage in the same state;                   *)
(*  - S2-S6, eviction, host protection: not involved in these failures;     *)
(*  - PP = 1: the pipeline is HiCachePipeline's subject.                    *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANTS
    GroupOrder,         \* "own_groups" (B16) | "sorted_all"
    CacheGroup,         \* "tp" (B2) | "attn_tp"
    Writer,             \* "global_tp0" (B13) | "attn_tp0"
    StorageOn,          \* L3 on: S7 per request, storage backup after S1
    Traffic,            \* Traffic[d + 1]: the request stream (keys) of replica d
    PrefetchThreshold   \* pages: an S7 MIN below it revokes the prefetch

ASSUME PP = 1
ASSUME GroupOrder \in {"own_groups", "sorted_all"}
ASSUME CacheGroup \in {"tp", "attn_tp"}
ASSUME Writer \in {"global_tp0", "attn_tp0"}
ASSUME StorageOn \in BOOLEAN
ASSUME PrefetchThreshold \in Nat \ {0}
ASSUME /\ Len(Traffic) = DP
       /\ \A d \in 1 .. DP : \A i \in 1 .. Len(Traffic[d]) : Traffic[d][i] \in Nat \ {0}

Threads == {"sched", "pf"}      \* scheduler (also start-up), prefetch thread (S7)

VARIABLE coll
C == INSTANCE Collectives

\* The call sites this module's threads post on (the sync points; docs/reference/vocabulary.md).
Sites == {"RECV", "S1", "S7", "new_group"}

\* ls[r]: rank r's local state (one record; see InitLS).
VARIABLE ls
\* l3[k]: the CP coordinates whose shard of key k the storage holds.
VARIABLE l3
\* missed (history): keys that S7 revoked although their backup had completed before the query.
VARIABLE missed

vars == <<coll, ls, l3, missed>>

-----------------------------------------------------------------------------
(* Constants derived from the topology.                                     *)

NReq(r)   == Len(Traffic[DpOf(r) + 1])
KeyOf(r, i) == Traffic[DpOf(r) + 1][i]
Keys      == UNION {{Traffic[d][i] : i \in 1 .. Len(Traffic[d])} : d \in 1 .. DP}
CpCoords  == 0 .. CP - 1
MaxReq    == C!SetMax({Len(Traffic[d]) : d \in 1 .. DP} \cup {0})

\* Every group SGLang creates (Java GroupKind: attn_tp, attn_cp, cp_tp, tp, pp, sync_domain).
GroupsOf(r) == {AttnTpMembers(r), AttnCpMembers(r), StageDomain(r), TpMembers(r),
                PpMembers(r), SyncDomain(r)}
AllGroups   == UNION {GroupsOf(r) : r \in Ranks}

RECURSIVE Ascending(_)
Ascending(S) == IF S = {} THEN <<>> ELSE <<C!SetMin(S)>> \o Ascending(S \ {C!SetMin(S)})

\* Size first, then lexicographic on the ascending members (Topology.compareGroups).
GroupLess(a, b) ==
    \/ Cardinality(a) < Cardinality(b)
    \/ /\ Cardinality(a) = Cardinality(b)
       /\ LET sa == Ascending(a)
              sb == Ascending(b)
          IN  \E i \in 1 .. Len(sa) : sa[i] < sb[i] /\ \A j \in 1 .. i - 1 : sa[j] = sb[j]

RECURSIVE SortGroups(_)
SortGroups(G) ==
    IF G = {} THEN <<>>
    ELSE LET m == CHOOSE g \in G : \A h \in G \ {g} : GroupLess(g, h)
         IN  <<m>> \o SortGroups(G \ {m})

\* The sequence of new_group calls of rank r (parallel_state.initialize_model_parallel).
CreationDef(r) ==
    IF GroupOrder = "sorted_all" THEN SortGroups(AllGroups)              \* the fix
    ELSE SortGroups({g \in AllGroups : r \in g})                         \* B16: own groups only
CreationTable == [r \in Ranks |-> CreationDef(r)]

WorldGroup == C!Group("world", "sched", Ranks)

\* The j-th new_group call of rank r. The store rendezvous is keyed by the call number and
\* waits for the member list named there; `key` carries that list (no payload: size 0).
NewGroupCall(r, j) ==
    [key |-> CreationTable[r][j], site |-> "new_group", stage |-> j, grp |-> WorldGroup,
     op |-> "BARRIER", size |-> 0, val |-> <<>>]       \* key first: shown first in traces

\* Every posted call names the same group (only new_group calls carry a key).
SameKey(g) == \A q1, q2 \in g.m : coll[q1][g.ch].key = coll[q2][g.ch].key

\* The groups a cache sync point reduces over, singletons skipped (`if world_size > 1`).
CacheStagesDef(r) ==
    SelectSeq(IF CacheGroup = "tp"
                THEN <<[kind |-> "tp", m |-> TpMembers(r)]>>               \* B2: spans replicas
                ELSE <<[kind |-> "attn_cp", m |-> AttnCpMembers(r)],        \* #20460: CP, then TP
                       [kind |-> "attn_tp", m |-> AttnTpMembers(r)]>>,
              LAMBDA x : Cardinality(x.m) > 1)
CacheStages == [r \in Ranks |-> CacheStagesDef(r)]

ChOf(site) == IF site = "S7" THEN "pf" ELSE "sched"
OpOf(site) == IF site = "RECV" THEN "MAX" ELSE "MIN"
NStages(r, site) == IF site = "RECV" THEN 1 ELSE Len(CacheStages[r])
\* RECV: the step rendezvous of the domain (broadcast of the requests), posted even when single.
SiteGroup(r, site, j) ==
    IF site = "RECV" THEN C!Group("domain", "sched", SyncDomain(r))
    ELSE C!Group(CacheStages[r][j].kind, ChOf(site), CacheStages[r][j].m)

\* B13: who writes its shard of a backed-up key (rank-replicated KV: one writer per group).
IsWriter(r) == IF Writer = "global_tp0" THEN TpRank(r) = 0 ELSE TpOf(r) = 0

-----------------------------------------------------------------------------
(* Rank-local computation.                                                  *)

\* gc: new_group calls completed; req: requests received; cur: key of the request whose S7
\* is in progress (0 if none); wq: write-through acks (keys), wd: leading ones done;
\* ins / pop: acks queued / popped so far; bk: keys whose storage backup this rank started
\* (S1 popped their ack); sbq: keys this rank still has to write to L3 (writers only);
\* hits: requests served from L3.
InitLS == [gc |-> 0, req |-> 0, cur |-> 0, wq |-> <<>>, wd |-> 0, ins |-> 0, pop |-> 0,
           bk |-> {}, sbq |-> {}, hits |-> 0]

\* The backup of k is done: every rank of some domain started it and none still writes it.
\* (The final S1 stages of a domain complete group by group, so "some rank popped k's ack"
\* is not enough: the other CP coordinate may not have started yet.)
BackedUp(k) == \E r \in Ranks : \A q \in SyncDomain(r) : k \in ls[q].bk /\ k \notin ls[q].sbq

\* S7 local value: leading pages of k that storage holds for this rank (its CP shard).
LocalHit(r, k) == IF CpOf(r) \in l3[k] THEN 1 ELSE 0

\* What a rank does next: its state, its next call (or NoCall), and the keys it adds to
\* the global (history) set `missed`.
Out(s, call, miss) == [s |-> s, call |-> call, miss |-> miss]

\* The request's KV is computed and inserted; write-through queues its ack.
\* hiradix_cache.py::cache_finished_req -> write_backup
Compute(s, k) == [s EXCEPT !.wq = Append(@, k), !.ins = @ + 1]

RECURSIVE Post(_, _, _, _, _, _), Decide(_, _, _, _, _)

\* Post stage j of `site` with payload v, or decide locally once every stage is done.
PostOn(r, s, site, j, v, miss) ==
    IF j <= NStages(r, site)
      THEN Out(s, C!Call(SiteGroup(r, site, j), site, j, OpOf(site), v), miss)
      ELSE Decide(r, s, site, v, miss)

\* The next step: RECV while the replica has requests or unpopped acks (both identical
\* across the domain), else idle: an idle scheduler calls no collective.
NextStep(r, s, miss) ==
    IF s.req < NReq(r) \/ s.pop < s.ins
      THEN Post(r, s, "RECV", 1, <<>>, miss)
      ELSE Out(s, C!NoCall, miss)

\* Every stage of `site` has completed with result v.
DecideOn(r, s, site, v, miss) ==
    CASE site = "RECV" ->
            IF s.req < NReq(r)
              THEN LET k  == KeyOf(r, s.req + 1)
                       s1 == [s EXCEPT !.req = @ + 1]
                   IN  IF StorageOn
                         \* prefetch_from_storage; the ghost second component is 1 iff the
                         \* key's backup had completed when the domain queried storage
                         THEN Post(r, [s1 EXCEPT !.cur = k], "S7", 1,
                                   <<LocalHit(r, k), IF BackedUp(k) THEN 1 ELSE 0>>, miss)
                         ELSE LET s2 == Compute(s1, k) IN Post(r, s2, "S1", 1, <<s2.wd>>, miss)
              ELSE Post(r, s, "S1", 1, <<s.wd>>, miss)        \* a step without a new request
      [] site = "S7" ->
            \* prefetch_thread_func: read (an L3 hit) or revoke, then compute the request
            LET k  == s.cur
                s1 == IF v[1] >= PrefetchThreshold THEN [s EXCEPT !.hits = @ + 1, !.cur = 0]
                      ELSE Compute([s EXCEPT !.cur = 0], k)
                m1 == IF v[1] < PrefetchThreshold /\ v[2] = 1 THEN miss \cup {k} ELSE miss
            IN  Post(r, s1, "S1", 1, <<s1.wd>>, m1)
      [] site = "S1" ->
            \* writing_check: pop exactly MIN acks; their storage backup starts
            LET n  == v[1]
                ks == {s.wq[i] : i \in 1 .. n}
                s1 == [s EXCEPT !.wq = SubSeq(@, n + 1, Len(@)), !.wd = @ - n, !.pop = @ + n,
                                !.bk = IF StorageOn THEN @ \cup ks ELSE @,
                                !.sbq = IF StorageOn /\ IsWriter(r) THEN @ \cup ks ELSE @]
            IN  NextStep(r, s1, miss)

\* The chain's entries bind the local state they are given to a value first, as in HiCacheSync
\* (TLC passes an operator argument unevaluated and re-evaluates it at every use where it may not
\* cache it, in ENABLED and in liveness checking's action predicates; a set's element is
\* evaluated once).
The(S) == CHOOSE y \in S : TRUE
Post(r, s, site, j, v, miss) == The({PostOn(r, w, site, j, v, miss) : w \in {s}})
Decide(r, s, site, v, miss) == The({DecideOn(r, w, site, v, miss) : w \in {s}})

\* After the j-th new_group call: the next one, or the scheduler's first step.
AfterCreate(r, s) ==
    IF s.gc < Len(CreationTable[r])
      THEN Out(s, NewGroupCall(r, s.gc + 1), {})
      ELSE NextStep(r, s, {})

\* Member r resumes after the collective of its posted call completed with result x.
Resume(r, call, x) ==
    IF call.site = "new_group"
      THEN AfterCreate(r, [ls[r] EXCEPT !.gc = @ + 1])
      ELSE Post(r, ls[r], call.site, call.stage + 1, x, {})

\* coll[r] after r's call on channel ch completed and r posted `next`.
Repost(cr, ch, next) ==
    LET cleared == [cr EXCEPT ![ch] = C!NoCall]
    IN  IF next = C!NoCall THEN cleared ELSE [cleared EXCEPT ![next.grp.ch] = next]

-----------------------------------------------------------------------------
(* Actions.                                                                 *)

\* A rank posted on its domain's RECV is at a lockstep point.
AtRecv(r) == coll[r]["sched"] # C!NoCall /\ coll[r]["sched"].site = "RECV"

Init ==
    /\ ls = [r \in Ranks |-> InitLS]
    /\ l3 = [k \in Keys |-> {}]
    /\ missed = {}
    /\ coll = [r \in Ranks |->
                 LET o == AfterCreate(r, InitLS)
                 IN  Repost([th \in Threads |-> C!NoCall], "sched", o.call)]

\* The last member of g arrives: the collective completes for every member, which resumes
\* up to its next collective call. A new_group rendezvous also needs the same member list.
CollectiveCompletes(g) ==
    /\ C!AllPosted(g)
    /\ C!Matched(g)
    /\ g.kind = "world" => SameKey(g)
    /\ \E nx \in {LET x == C!Result(g) IN [q \in g.m |-> Resume(q, coll[q][g.ch], x)]} :
          /\ ls' = [q \in Ranks |-> IF q \in g.m THEN nx[q].s ELSE ls[q]]
          /\ coll' = [q \in Ranks |-> IF q \in g.m THEN Repost(coll[q], g.ch, nx[q].call)
                                      ELSE coll[q]]
          /\ missed' = missed \cup UNION {nx[q].miss : q \in g.m}
          /\ UNCHANGED l3

\* sglang: torch.distributed all_reduce / barrier / new_group returning on every member
SomeCollectiveCompletes ==
    \E r \in Ranks, th \in Threads :
        coll[r][th] # C!NoCall /\ CollectiveCompletes(coll[r][th].grp)

\* Environment steps happen only while every rank of r's domain is at a step boundary
\* (posted on RECV, or idle), as HiCacheSync's EnvWindow: a sound reduction, since the
\* domain observes GPU events and storage contents only when it posts its next S1 / S7,
\* which happens after the next RECV completes; an event that "happened" mid-step is
\* observed exactly as one that happened at the next boundary.
Idle(r) == \A th \in Threads : coll[r][th] = C!NoCall
EnvWindow(r) == \A q \in SyncDomain(r) : AtRecv(q) \/ Idle(q)

\* The GPU event of rank r's oldest not-done write-through completes (stream order).
\* sglang: environment: the GPU copy of cache_controller.py::write completes (its CUDA event)
WriteEventCompletes(r) ==
    /\ EnvWindow(r)
    /\ ls[r].wd < Len(ls[r].wq)
    /\ ls' = [ls EXCEPT ![r].wd = @ + 1]
    /\ UNCHANGED <<coll, l3, missed>>

\* Rank r's backup thread writes its CP shard of key k to storage.
\* cache_controller.py::backup_thread_func
\* sglang: cache_controller.py::backup_thread_func
StorageWriteCompletes(r) ==
    /\ EnvWindow(r)
    /\ \E k \in ls[r].sbq :
          /\ ls' = [ls EXCEPT ![r].sbq = @ \ {k}]
          /\ l3' = [l3 EXCEPT ![k] = @ \cup {CpOf(r)}]
          /\ UNCHANGED <<coll, missed>>

Background == \E r \in Ranks : WriteEventCompletes(r) \/ StorageWriteCompletes(r)

\* Everything idle and written: stutter (keeps deadlock detection meaningful).
Done == \A r \in Ranks : Idle(r) /\ ls[r].sbq = {}
\* sglang: none: the bounded run is over (stuttering)
Terminated == Done /\ UNCHANGED vars

Next == SomeCollectiveCompletes \/ Background \/ Terminated

\* Fairness: gloo completes a collective whose members have all called it (weak); CUDA
\* events complete and the storage backend answers writes: these are enabled only at step
\* boundaries (EnvWindow), which a live domain reaches again and again, hence strong
\* fairness ("a ready event is noticed at some step boundary"). Only finitely many
\* background steps exist (each consumes a queued ack or a pending write).
Fairness == WF_vars(SomeCollectiveCompletes) /\ SF_vars(Background)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

LS == [gc : 0 .. Cardinality(AllGroups), req : 0 .. MaxReq, cur : Keys \cup {0},
       wq : Seq(Keys), wd : 0 .. 2 * MaxReq, ins : 0 .. 2 * MaxReq, pop : 0 .. 2 * MaxReq,
       bk : SUBSET Keys, sbq : SUBSET Keys, hits : 0 .. MaxReq]

TypeOK ==
    /\ \A r \in Ranks : ls[r] \in LS /\ ls[r].wd <= Len(ls[r].wq)
    /\ l3 \in [Keys -> SUBSET CpCoords]
    /\ missed \subseteq Keys

\* INV-1 on every group, the new_group rendezvous included.
CollectiveMatching == C!CollectiveMatching


\* INV-4: at a lockstep point every rank of a domain has popped the same number of write acks.
AckAgreement ==
    \A r, q \in Ranks : DpOf(r) = DpOf(q) /\ AtRecv(r) /\ AtRecv(q) => ls[r].pop = ls[q].pop

\* INV-8: the ranks that write a storage key are the ranks that will read it: once the
\* backup of k has completed, every CP coordinate's shard of k is in storage.
StorageShardCoverage == \A k \in Keys : BackedUp(k) => l3[k] = CpCoords

\* The symptom of a broken INV-8: no prefetch of a key whose backup had completed before
\* the domain queried storage is revoked (L3 "silently never hits").
StorageHits == missed = {}

\* Liveness: every replica receives all its requests, and every write ack is popped.
RequestsProgress == \A r \in Ranks : <>(ls[r].req = NReq(r))
AcksConsumed == <>[](\A r \in Ranks : ls[r].wq = <<>>)

=============================================================================
