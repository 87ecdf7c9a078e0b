-------------------------- MODULE TraceHiCacheSync --------------------------
(***************************************************************************)
(* Trace validation: is a recorded run of the implementation a behaviour   *)
(* of HiCacheSync? (Cirstea, Kuppe, Loillier, Merz, "Validating Traces of  *)
(* Distributed Programs Against TLA+ Specifications", 2024.)               *)
(*                                                                          *)
(* The run is given as the module TraceLog, written by                     *)
(* `./hicache-sync validate-trace` from the NDJSON file the implementation *)
(* recorded (`simulate --trace`): TraceLog defines Trace, a sequence of    *)
(* events, and the run's constants (Trace* operators, substituted for the  *)
(* protocol's constants by the cfg).                                        *)
(*                                                                          *)
(* Events and observation:                                                  *)
(*  - CollectiveCompletes: one collective of one group completed for all   *)
(*    its members. The implementation records one line per member; the     *)
(*    converter merges the k-th lines of a group's members into one event  *)
(*    (at the place of the first), because the spec completes a collective *)
(*    for every member in one step.                                         *)
(*  - Environment actions (GPU copy events, storage backups and reads,     *)
(*    timeouts, the prefetch thread querying storage) are NOT logged: the  *)
(*    spec is finer-grained than the log there (partial observation). TLC  *)
(*    chooses them; a choice that does not produce the local values the    *)
(*    ranks logged at their next collective dies there.                    *)
(*  - Rank-local computation between two collectives is one atomic step in *)
(*    the spec (done when the earlier collective completes), and is        *)
(*    observed through the values the rank posts next, the acks it popped  *)
(*    at a sync point, and optional snapshots logged at RECV.               *)
(*  - Anything else (RankFailed: a rank detected a collective mismatch or  *)
(*    an invariant; IncompleteCollective / MismatchedCollective: the       *)
(*    converter found members' lines that cannot form one collective)      *)
(*    matches no IsX predicate, so validation stops at it: a failure is    *)
(*    never part of a behaviour.                                            *)
(*                                                                          *)
(* Java field (trace package, NDJSON)  <->  spec field                      *)
(*   ev = "CollectiveCompletes"          CollectiveCompletes(g)            *)
(*   grp, ch, m (sorted members)         g = C!Group(grp, ch, {m[i]})      *)
(*   site, stage, op                     coll[m[i]][ch].site/.stage/.op    *)
(*   val[i]  (member m[i]'s payload)     coll[m[i]][ch].val                 *)
(*   res[i]  (what m[i] got back)        C!Result(g)                        *)
(*   pop[i]  (acks popped, last stage)   popped'[m[i]] - popped[m[i]]       *)
(*           S1 <<w>>, S2 <<l>>, S3 <<rv, ba, rl>>, S123 <<w,l,rv,ba,rl>>   *)
(*   snap[i] (at RECV)                   devFree, hostFree, Len(wq), Len(lq)*)
(*                                       Len(rvq), Len(rlq), waiting, running*)
(*           checked when the RECV completes, and (but Len(rvq)) when the *)
(*           member posts that RECV: lookahead, so that a state the run  *)
(*           was never in is cut before the invariants are checked on it *)
(*   line, r, step                       reporting only                     *)
(*                                                                          *)
(* Features (header field Features): a trace declaring finish_in_step or   *)
(* aborts is checked with the knob of that name ("finish_in_step",         *)
(* "abort"), filled into the cfg's Knobs by validate-trace; the abort      *)
(* itself is an environment step (AbortArrives), its S6 is logged.         *)
(***************************************************************************)
EXTENDS HiCacheSync, TraceLog, TLC

\* l: index of the next event of Trace to match (Len(Trace) + 1 once all are matched).
VARIABLE l

\* Pool sizes of a traced run: the header's DeviceCap and HostCap on every rank.
TraceEqualPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> HostCap]]
traceVars == <<vars, l>>

-----------------------------------------------------------------------------
(* Reading one event.                                                       *)

\* The group an event names, as the spec writes groups.
TraceGroup(e) == C!Group(e.grp, e.ch, {e.m[i] : i \in DOMAIN e.m})

\* Member e.m[i] has posted exactly the call the event says it made.
PostedAsLogged(e, i) ==
    LET c == coll[e.m[i]][e.ch]
    IN  /\ c # C!NoCall
        /\ c.grp = TraceGroup(e)
        /\ c.site = e.site
        /\ c.stage = e.stage
        /\ c.op = e.op
        /\ c.val = e.val[i]

\* Acks rank q popped in this step, in the order the event logs them for its site.
PopDiff(q, site) ==
    LET d(f) == popped'[q][f] - popped[q][f]
    IN  CASE site = "S1"   -> <<d("w")>>
          [] site = "S2"   -> <<d("l")>>
          [] site = "S3"   -> <<d("rv"), d("ba"), d("rl")>>
          [] site = "S123" -> <<d("w"), d("l"), d("rv"), d("ba"), d("rl")>>
          [] OTHER         -> <<>>

\* A logged pop count (<<>>: not logged) is what the spec popped.
PopAsLogged(e, i) == e.pop[i] = <<>> \/ e.pop[i] = PopDiff(e.m[i], e.site)

\* A logged snapshot (obs = FALSE: not logged) is the member's state while it waits on the call.
SnapAsLogged(e, i) ==
    LET s == e.snap[i]
        q == e.m[i]
    IN  ~s.obs \/ /\ devFree[q] = s.dfree
                  /\ hostFree[q] = s.hfree
                  /\ Len(wq[q]) = s.nwq
                  /\ Len(lq[q]) = s.nlq
                  /\ Len(rvq[q]) = s.nrv
                  /\ Len(rlq[q]) = s.nrl
                  /\ waiting[q] = s.wait
                  /\ running[q] = s.run

\* Index of the first event at or after j where rank q takes part in a RECV, or 0 if none.
NextRecv(q, j) ==
    LET js == {k \in j .. Len(Trace) : /\ Trace[k].ev = "CollectiveCompletes"
                                      /\ Trace[k].site = "RECV"
                                      /\ \E i \in DOMAIN Trace[k].m : Trace[k].m[i] = q}
    IN  IF js = {} THEN 0 ELSE C!SetMin(js)

\* A member that this step leaves posted on RECV (a lockstep point) is in the state it logged
\* with that RECV (lookahead, so that a state the run never was in is cut before the model's
\* invariants are checked on it). Only what cannot change while the scheduler waits on RECV:
\* not Len(rvq) nor Len(rlq), which the prefetch thread's S7 decision (a revoke, the slots past
\* the hit) may still grow.
SnapAheadAsLogged(q) ==
    coll'[q]["sched"] # C!NoCall /\ coll'[q]["sched"].site = "RECV" =>
        LET k == NextRecv(q, l + 1)
        IN  \* IF, not "k = 0 \/ ...": TLC explores every disjunct of an action, so Trace[0] would be read
            IF k = 0 THEN TRUE
            ELSE LET e == Trace[k]
                     i == CHOOSE x \in DOMAIN e.m : e.m[x] = q
                 IN  \/ ~e.snap[i].obs
                     \/ /\ devFree'[q] = e.snap[i].dfree
                        /\ hostFree'[q] = e.snap[i].hfree
                        /\ Len(wq'[q]) = e.snap[i].nwq
                        /\ Len(lq'[q]) = e.snap[i].nlq
                        /\ waiting'[q] = e.snap[i].wait
                        /\ running'[q] = e.snap[i].run

-----------------------------------------------------------------------------
(* One predicate per logged event, named after the action it matches.       *)

\* The collective of event l completes: every member posted what it logged, every member got
\* back what it logged, and the acks each popped are those the spec pops.
IsCollectiveCompletes ==
    /\ l <= Len(Trace)
    /\ LET e == Trace[l]
           g == TraceGroup(e)
       IN  /\ e.ev = "CollectiveCompletes"
           \* the calls each member posted (site, stage, op, local value)
           /\ \A i \in DOMAIN e.m : PostedAsLogged(e, i)
           \* the result each member received (evaluated on the posted calls, before the step)
           /\ \A i \in DOMAIN e.m : e.res[i] = C!Result(g)
           \* the state each member waited in, where it logged one
           /\ \A i \in DOMAIN e.m : SnapAsLogged(e, i)
           \* the protocol step itself
           /\ CollectiveCompletes(g)
           \* the decision each member applied
           /\ \A i \in DOMAIN e.m : PopAsLogged(e, i)
           \* the state each member then waits in at its next RECV
           /\ \A i \in DOMAIN e.m : SnapAheadAsLogged(e.m[i])
    /\ l' = l + 1

\* Environment steps are not logged (partial observation): any of the spec's may happen
\* between two events; the next logged local values prune the wrong choices.
EnvironmentStep ==
    /\ \/ \E r \in Ranks : \/ PrefetchThreadQueries(r)
                           \/ WriteEventCompletes(r)
                           \/ LoadEventCompletes(r)
                           \/ StorageBackupCompletes(r)
                           \/ \E i \in 1 .. NR : StorageReadsPage(r, i) \/ TimeoutFires(r, i)
       \* a waiting request is aborted (knob abort, trace feature aborts): the abort itself is not
       \* logged; the S6 barrier it causes and the queue it leaves are
       \/ \E D \in SyncDomains : AbortArrives(D)
    /\ UNCHANGED l

TraceInit ==
    /\ Init
    /\ l = 1
    /\ TLCSet(1, 0)         \* largest l reached so far (see TraceProgress)
    /\ TLCSet(2, 0)         \* states printed at that l

TraceNext ==
    \/ IsCollectiveCompletes
    \/ EnvironmentStep

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

-----------------------------------------------------------------------------
(* Verdict and report.                                                      *)

\* Violated (TLC exit 12) exactly when some behaviour of the spec matches every event:
\* the trace is accepted. Checking ends without a violation (exit 0): rejected.
TraceNotFullyMatched == l <= Len(Trace)

\* What each rank has posted (site, stage, group, value) or "none": what the spec allows next.
Posted == [r \in Ranks |-> [th \in Threads |->
              IF coll[r][th] = C!NoCall THEN "none"
              ELSE <<coll[r][th].site, coll[r][th].stage, coll[r][th].grp.kind, coll[r][th].val>>]]

\* A CONSTRAINT that never cuts: prints the first few states at each new largest l, so the
\* runner can name the first event no behaviour matches and what the spec allowed there
\* (deterministic with one worker).
TraceProgress ==
    IF l > TLCGet(1)
      THEN TLCSet(1, l) /\ TLCSet(2, 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
      ELSE IF l = TLCGet(1) /\ TLCGet(2) < 6
        THEN TLCSet(2, TLCGet(2) + 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
        ELSE TRUE

=============================================================================
Measured (validate-trace, TLC one worker, 2 cores shared with other jobs, 2026-11-29; fixtures
regenerated after the spec's S7 slot release change (revoke: all slots at S7; hit: the tail at
S7, [m, h) at S5); traces in modelcheck/src/test/resources/trace, behaviours of the spec made by
TraceGenHiCacheSync; wall time includes TLC's start-up, about 3 s):
  trace                           ranks  events  lines  distinct  TLC time  verdict
  hand-post20460-cp2                2       3       6        4     2.6 s   accepted
  merged-cp2-seed1                  2      25      50      757     4.1 s   accepted
  merged-cp2-seed2                  2      25      50      374     3.3 s   accepted
  merged-cp2-seed3 (2 pages/key)    2      25      50      781     7.2 s   accepted
  post20460-cp2-seed4               2      30      60      822     5.8 s   accepted
  pre20460-cp2-diverge              2       2       4        -       -     breaks AckAgreement
  merged-cp2tp2-seed5 (long tier)   4      20      46    7,654     7.8 s   accepted
  long-merged-cp2-seed6             2     120     240    2,978     8.7 s   accepted
  long-post20460-cp2tp2-seed7       4     100     212   87,930    44.1 s   accepted
Traces of the simulator (`simulate --trace`, spec-shaped runs, storage off; SimulatorTraceTest and
SimulateTraceCommandTest, 2026-11-29, load ~10 on 2 cores; keys drawn by the seed, device 2 keys, host 3):
  run (version, dp,cp,tp, seed, requests, pages/key)  ranks  events  lines  distinct  TLC time  verdict
  merged    1,2,1 seed 1, 8 req, 1 p                     2      42      84      263    14 s     accepted
  post20460 1,2,1 seed 2, 8 req, 2 p                     2      69     138      322     9 s     accepted
  pre20460  1,1,2 seed 4, 8 req, 1 p                     2      57     114      183     6 s     accepted
  merged    1,2,2 seed 3, 8 req, 1 p (CLI defaults)      4      70     112      332     9 s     accepted
  pre20460  1,2,1 seed 1, 8 req, 1 p                     2      17      34       24     6 s     breaks TreeAgreement
  merged    1,2,2 seed 11, 16 req, 2 p (long tier)       4     150     240    1,195    35 s     accepted
  post20460 1,2,2 seed 12, 16 req, 1 p (long tier)       4     279     620    1,817    30 s     accepted
  post20460 2,2,1 seed 13, 24 req, 1 p (long tier)       4     204     408    3,152    43 s     accepted
Storage on (simulate --trace --storage memory, 1 page/key, 10 requests over 4 keys, device 1 key,
host 2; S7 on channel pf at the step boundary; 2026-11-29, load ~4):
  run (version, dp,cp,tp, policy, seed)               ranks  events  lines  distinct  TLC time  verdict
  merged    1,2,1 timeout seed 1 (CI until 30 Nov 2026)     2      72     144    1,586    11 s     accepted
  post20460 1,2,1 wait_complete seed 1 (CI until 30 Nov 2026)     2     132     264      911     8 s     accepted
  merged    1,2,1 best_effort seed 3 (CI, CLI)           2      64     128      420    10 s     accepted
  merged    1,2,1 best_effort seed 6 (long tier)         2      64     128      422     7 s     accepted
  pre20460  1,1,2 timeout seed 1 (long tier)             2     132     264    2,016     7 s     accepted
  merged    1,2,2 timeout seed 1 (long tier, revokes)    4     166     256   31,145    84 s     accepted
  merged    1,2,2 timeout seed 2 (a hit; not in a tier)  4     194     284  236,092   313 s     accepted
(merged at 1,2,2: each fused S123 (and S4, S5, S7) line set is split into 2 attn_cp + 2 attn_tp events,
hence events > lines/4.)
The cost grows with the unlogged environment steps that TLC interleaves (4 ranks: GPU events,
storage and timeouts of every rank commute); logging them would shrink it.

Diary of trace divergences:
  2026-11-29  pre20460-cp2-diverge (pre20460, CP=2, TP=1): the ranks log different pool sizes
              at the RECV of step 2 (event 3); TLC reports AckAgreement broken by a behaviour
              matching event 1 already (the spec's own pre20460 divergence: with no HiCache
              collective under CP, the ranks' revoke queues may differ and the snapshot does not
              log them). Expected: the legacy protocol is wrong under CP.
  2026-11-29  an edited S1 result on one rank: rejected at that event; the spec had posted
              S1 <<0>> on both ranks (MIN = 0).
  2026-11-29  simulator traces (spec-shaped): pre20460 at CP = 2, seed 1: the simulator's checker sees
              the ranks pop different write-ack counts at step 5 (no S1 collective, B1); TLC: a
              behaviour matching the trace up to the RECV of step 5 breaks TreeAgreement, and the ranks'
              snapshots differ at the next RECV (write acks 1 vs 2). Expected.
  2026-11-29  storage on (tracestore): the simulator's S7 puts a revoked request's slots, and a hit's
              unhit tail, on the host-release queue at once (SGLang's prefetch_thread_func); the
              spec freed them at S3's revoke pop / in one P - m entry at S5. The first revoke was
              rejected at the next RECV (its snapshot's release count). Spec changed to SGLang's
              order; the spec-made fixtures were regenerated.
  2026-11-30  the agreement invariants are evaluated at every lockstep point, prefetch-thread
              state only between ranks with equal S7Count. pre20460-cp2-diverge (rank 0 revoked, rank 1
              not yet) was then ACCEPTED; it breaks an invariant again through S7Unsynced (pre20460's
              S7 never reaches the other CP rank: every difference counts). The spec now evicts LRU on
              the replicated clock, and spec-shaped simulations use the tree's own LRU order (no
              smallest-key override); the storage-on SimulatorTraceTest runs moved from seed 1 to
              seed 3, which still revokes and then reads a hit (seed 1 no longer hits).
  2026-11-30  trsync: an engine-built rank (public API, built-in stepped environment) was
              rejected: a write-through begun at a finish was done at the same step's event check,
              which the default order (Finish right after RECV) cannot have. SGLang's normal event loop
              processes a batch's result before the next RECV, so the copy may complete before the next
              writing_check: knob finish_in_step (feature finish_in_step); the engine's traces are
              accepted with it (EngineTraceTest), and so are the simulator's (--trace-loop spec-in-step).
  2026-11-30  aborts traced (--trace-aborts): every S6 was rejected at once; the spec posted S6 with an
              empty payload, the implementation's SyncLayer.barrier reduces [0]. The spec now posts <<0>>.
  2026-11-29  first simulator traces past their last RECV were not checkable: "k = 0 \/ ..." in the
              lookahead read Trace[0] (TLC explores every disjunct of an action); now an IF.

