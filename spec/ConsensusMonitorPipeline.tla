----------------------- MODULE ConsensusMonitorPipeline -----------------------
(***************************************************************************)
(* SGLang's rank consensus checker (#34406) as a monitor of                *)
(* HiCacheUnifiedPipeline (PP > 1): would it report the PP drain bugs      *)
(* (F2, the pre-#37562 stage-local drain, the #36700 ticket questions),    *)
(* and when? The same construction as ConsensusMonitor.tla (read its       *)
(* header for what the checker does): strictly additive, the monitor       *)
(* observes each step of Next and records the events the decorated         *)
(* functions queue on that rank; the k-th events of all ranks are compared *)
(* once every rank has queued one.                                          *)
(*                                                                          *)
(* WHY THE PP GROUP: the checker's worker reduces over "a copy of attn_cp  *)
(* + attn_tp, or tp, plus pp" (scheduler.py::init_rank_consensus_checker   *)
(* @db570fe6), so the events of every stage are compared with each other, *)
(* by position (stages are not in lockstep, but the k-th call of           *)
(* check_prefetch_progress is the same request's check at the same step    *)
(* index on every stage).                                                   *)
(*                                                                          *)
(* DECORATED calls this module makes (unified_radix_cache.py @db570fe6):   *)
(*    check_prefetch_progress  called at admission with a waiting request; *)
(*                             returns True iff it left ongoing_prefetch   *)
(*    match_prefix             after a True (init_next_round_input); its   *)
(*                             result: the host hit (the node is "host")   *)
(* (release_aborted_request: no aborts in HiCacheUnifiedPipeline.)         *)
(***************************************************************************)
EXTENDS HiCacheUnifiedPipeline

\* clog[r]: rank r's queued events not yet compared, each <<fn, phase, request, value>>.
VARIABLE clog
monVars == <<vars, clog>>

NoCheck == "<no check>"
Event(fn, phase, i, v) == <<fn, phase, i, v>>
Repr(b) == IF b THEN "True" ELSE "False"
Opt(c, e) == IF c THEN <<e>> ELSE <<>>

\* SchedAdmit(r) ran this step with a waiting request: check_prefetch_progress is called and
\* returns in the same step (no S4 in this module).
CppCalled(r) == pc[r] = "admit" /\ pc'[r] # "admit" /\ waiting[r] # 0
CppResult(r) == ~pf'[r].on
HostHit(r) == IF tree[r][waiting[r]] = "host" \/ tree'[r][waiting[r]] = "host" THEN "1" ELSE "0"

\* The events rank r queues in this step, in program order.
StepEvents(r) ==
    LET i == waiting[r] IN
    Opt(CppCalled(r), Event("check_prefetch_progress", "called", i, NoCheck))
    \o Opt(CppCalled(r), Event("check_prefetch_progress", "returns", i, Repr(CppResult(r))))
    \o Opt(CppCalled(r) /\ CppResult(r), Event("match_prefix", "called", i, NoCheck))
    \o Opt(CppCalled(r) /\ CppResult(r), Event("match_prefix", "returns", i, HostHit(r)))

\* Position-by-position comparison while every rank has an event there and they agree.
RECURSIVE Compare(_)
Compare(l) ==
    IF /\ \A r \in Ranks : Len(l[r]) > 0
       /\ \A r \in Ranks : Head(l[r]) = Head(l[0])
      THEN Compare([r \in Ranks |-> Tail(l[r])])
      ELSE l

MonInit == Init /\ clog = [r \in Ranks |-> <<>>]
\* sglang: a step of the protocol (Next) as utils/rank_consensus_checker.py observes it
MonNext == Next /\ clog' = Compare([r \in Ranks |-> clog[r] \o StepEvents(r)])
MonSpec == MonInit /\ [][MonNext]_monVars

\* The checker's comparison of the oldest uncompared position fails (os._exit).
ConsensusCheckerFires ==
    /\ \A r \in Ranks : Len(clog[r]) > 0
    /\ \E r \in Ranks : Head(clog[r]) # Head(clog[0])
NoConsensusAlarm == ~ConsensusCheckerFires

\* Reachability (must fail): some rank queues an event its peers have not queued yet.
DebugConsensusQueued == \A r \in Ranks : clog[r] = <<>>

=============================================================================
