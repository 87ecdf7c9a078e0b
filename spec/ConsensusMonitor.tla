-------------------------- MODULE ConsensusMonitor --------------------------
(***************************************************************************)
(* SGLang's rank consensus checker (#34406, merge 2ef0fe46) as a monitor   *)
(* of HiCacheUnified: which of the catalogue's bugs would it report, and   *)
(* when? Strictly additive: HiCacheUnified's actions are not edited; the   *)
(* monitor observes each step of Next and records the events the checker's *)
(* decorated functions would have queued on that rank.                     *)
(*                                                                          *)
(* WHAT THE CHECKER DOES (utils/rank_consensus_checker.py @db570fe6):      *)
(*  - rank_consensus / assert_same: each decorated call, on the scheduler  *)
(*    thread, queues "<fn> called params=..." before the body and          *)
(*    "<fn> returns result=..." after it (the payload "<no check>" when    *)
(*    the decorator compares nothing).                                     *)
(*  - _worker_loop: a daemon thread per rank blocks on its first queued    *)
(*    event, MIN-reduces the queue sizes over its own gloo groups (a copy  *)
(*    of attn_cp + attn_tp, or tp, plus pp: scheduler.py::                 *)
(*    init_rank_consensus_checker @db570fe6), drains that many and         *)
(*    _check_for_consensus compares a sha1 of the batch (MIN vs MAX of its *)
(*    bytes); a difference -> logger.critical and os._exit.                *)
(*  So every rank drains the same number of events per batch: the k-th     *)
(*    event of every rank is compared with the k-th of every other, and    *)
(*    only once EVERY rank has queued it (a rank that queues nothing more  *)
(*    leaves its peers' workers blocked in the MIN: a hang stays silent).  *)
(*                                                                          *)
(* DECORATED in unified_radix_cache.py @db570fe6 (the only three):         *)
(*    match_prefix            same_params=["params"], same_results=[hit    *)
(*                            lengths]   (here: request index, host hit)   *)
(*    check_prefetch_progress same_params, same_results (request, bool)    *)
(*    release_aborted_request same_params (request; result not compared)   *)
(*  Call sites (scheduler.py::_get_new_batch_prefill_raw @db570fe6): the   *)
(*  admission loop breaks on batch_is_full BEFORE check_prefetch_progress, *)
(*  calls it only `if self.enable_hicache_storage`, and on True calls      *)
(*  req.init_next_round_input -> match_prefix. release_aborted_request is  *)
(*  called by _abort_on_waiting_timeout; its barrier is inside the body,   *)
(*  so its "called" event is queued before the barrier and its "returns"   *)
(*  event after it.                                                         *)
(*                                                                          *)
(* ABSTRACTION: clog[r] holds rank r's events not yet compared. Comparing  *)
(* position by position as soon as every rank has an event at that        *)
(* position is the checker's batching with no worker delay: the monitor    *)
(* fires at the EARLIEST state at which the real checker can detect the    *)
(* divergence (the os._exit comes some worker iterations later). On a      *)
(* mismatch the events stay queued (the process exits), so the alarm is a  *)
(* state predicate that, once true, stays true.                            *)
(***************************************************************************)
EXTENDS HiCacheUnified

\* clog[r]: rank r's queued events not yet compared, each <<fn, phase, request, value>>
\* (value: the compared payload as the checker's string: "True"/"False", a hit length, or
\* "<no check>"; a string for every event, so any two events compare).
VARIABLE clog
monVars == <<vars, clog>>

NoCheck == "<no check>"
Event(fn, phase, i, v) == <<fn, phase, i, v>>
Repr(b) == IF b THEN "True" ELSE "False"

-----------------------------------------------------------------------------
(* Which decorated calls a step of HiCacheUnified makes on rank r. Read    *)
(* from the step (unprimed and primed state), not from inside the actions. *)

\* SchedAdmit(r) ran this step.
AdmitRan(r) == pc[r] = "admit" /\ pc'[r] # "admit"
\* The rank-local batch-full break before the prefetch checks (SchedAdmit's `early`).
EarlyBreak(r) == "batch_full" \in Knobs /\ env[r].bf /\ "B10" \in Bugs
\* check_prefetch_progress is called on the waiting request (enable_hicache_storage only).
CppCalled(r) == AdmitRan(r) /\ waiting[r] # 0 /\ ~EarlyBreak(r) /\ storage[r]
\* ... and returned in the same step (it did not post S4); returns True iff the request is
\* no longer in ongoing_prefetch.
CppReturnedNow(r) == CppCalled(r) /\ pc'[r] # "posted"
\* S4Complete resumed rank r inside check_prefetch_progress.
CppReturnedAtS4(r) == pc[r] = "posted" /\ Posted(r, "sched", "S4") /\ pc'[r] = "recv"
CppResult(r) == ~pf'[r].on
\* init_next_round_input -> match_prefix: after check_prefetch_progress returned True, or
\* without storage as soon as the loop reaches the request.
MatchCalled(r) ==
    \/ (CppReturnedNow(r) \/ CppReturnedAtS4(r)) /\ CppResult(r)
    \/ AdmitRan(r) /\ waiting[r] # 0 /\ ~EarlyBreak(r) /\ ~storage[r]
HostHit(r) == IF tree[r][waiting[r]] = "host" \/ tree'[r][waiting[r]] = "host" THEN "1" ELSE "0"

\* _abort_on_waiting_timeout -> release_aborted_request: SchedAbortCheck fired (it posted the
\* barrier S6, or removed the request), and its return (now, or at AbortBarrierComplete).
AbortCalled(r) == pc[r] = "abort" /\ (pc'[r] = "posted" \/ (waiting[r] # 0 /\ waiting'[r] = 0))
AbortReturnedNow(r) == AbortCalled(r) /\ pc'[r] # "posted"
AbortReturnedAtS6(r) == pc[r] = "posted" /\ Posted(r, "sched", "S6") /\ pc'[r] = "events"

Opt(c, e) == IF c THEN <<e>> ELSE <<>>

\* The events rank r queues in this step, in program order.
StepEvents(r) ==
    LET i == waiting[r] IN
    Opt(AbortCalled(r), Event("release_aborted_request", "called", i, NoCheck))
    \o Opt(AbortReturnedNow(r) \/ AbortReturnedAtS6(r),
           Event("release_aborted_request", "returns", i, NoCheck))
    \o Opt(CppCalled(r), Event("check_prefetch_progress", "called", i, NoCheck))
    \o Opt(CppReturnedNow(r) \/ CppReturnedAtS4(r),
           Event("check_prefetch_progress", "returns", i, Repr(CppResult(r))))
    \o Opt(MatchCalled(r), Event("match_prefix", "called", i, NoCheck))
    \o Opt(MatchCalled(r), Event("match_prefix", "returns", i, HostHit(r)))

\* The workers compare position by position while every rank has an event there and the
\* events agree; the first disagreeing position stays (the checker exits on it).
RECURSIVE Compare(_)
Compare(l) ==
    IF /\ \A r \in Ranks : Len(l[r]) > 0
       /\ \A r \in Ranks : Head(l[r]) = Head(l[0])
      THEN Compare([r \in Ranks |-> Tail(l[r])])
      ELSE l

-----------------------------------------------------------------------------
MonInit == Init /\ clog = [r \in Ranks |-> <<>>]
\* sglang: a step of the protocol (Next) as utils/rank_consensus_checker.py observes it
MonNext == Next /\ clog' = Compare([r \in Ranks |-> clog[r] \o StepEvents(r)])
\* Safety only: the monitor adds no fairness (its verdicts are about states).
MonSpec == MonInit /\ [][MonNext]_monVars

\* The checker's comparison of the oldest uncompared position fails: every rank has queued
\* an event there and two of them differ (_check_for_consensus -> os._exit).
ConsensusCheckerFires ==
    /\ \A r \in Ranks : Len(clog[r]) > 0
    /\ \E r \in Ranks : Head(clog[r]) # Head(clog[0])
NoConsensusAlarm == ~ConsensusCheckerFires

\* A run that can go no further (every thread blocked: a gloo hang, TLC's deadlock) while the
\* checker has not fired: the hang is silent to the checker (its workers wait in their MIN
\* for an event the blocked ranks never queue). Holds trivially where the protocol never
\* hangs; must fail on the hang bugs to say "the checker does not see this one".
NoSilentHang == ENABLED Next \/ ConsensusCheckerFires

\* Reachability check that must fail (the monitor is not vacuous): some rank queues an event
\* that its peers have not queued yet, i.e. the decorated calls are observed.
DebugConsensusQueued == \A r \in Ranks : clog[r] = <<>>

=============================================================================
