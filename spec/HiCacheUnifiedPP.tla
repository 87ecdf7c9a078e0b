-------------------------- MODULE HiCacheUnifiedPP --------------------------
(***************************************************************************)
(* PD prefill with pipeline stages (version `unified`): when does a stage  *)
(* admit a bootstrapped request whose storage prefetch is in flight?       *)
(* The question of #34287 / #34568.                                         *)
(*                                                                          *)
(* MODELLED. Two PP stages, one rank each (the CP x TP reduction inside a  *)
(* stage is the MIN of HiCacheUnified and is not repeated here). Stage 0   *)
(* runs ahead of stage 1 by at most MaxSkew steps (the isend backpressure  *)
(* of unified_radix_cache.py::_drain_async_work @db570fe6); stage 1's step *)
(* k consumes what stage 0 forwarded at its step k.                         *)
(*  - the request's final prefetch ack is enqueued on every stage at one    *)
(*    wall-clock moment (the completion sync reduces over the PP and TP    *)
(*    ranks together, #27010: cache_controller.py::prefetch_sync_thread_   *)
(*    func @later);                                                         *)
(*  - Drain = "stage_local": each stage drains its own queue size (S3 with *)
(*    _all_reduce_attn_groups, per stage: unified_radix_cache.py::         *)
(*    drain_storage_control_queues @db570fe6); "forwarded": stage 0's      *)
(*    count, forwarded down the pipeline (_all_reduce = PP0 reduces, then  *)
(*    _pp_sync: drain_storage_control_queues @later);                      *)
(*  - Ready = "drain": the prefetch is done on a stage when its final ack   *)
(*    is drained (wait_complete, _drain_ack_prefetch @later); "thread": a   *)
(*    storage thread marks it done itself (a hypothesis for the PP-ticket  *)
(*    path of #36700, whose sync thread writes operation.completed_tokens; *)
(*    not read in full, see docs/explanation/unified.md);                              *)
(*  - Admission = "per_stage": the bootstrap consensus ring of             *)
(*    scheduler_pp_mixin.py::_pp_pd_get_bootstrapped_ids @db570fe6 puts    *)
(*    the request in every stage's waiting queue at the same step index,   *)
(*    and each stage admits it once its own check_prefetch_progress says   *)
(*    done (scheduler.py::_get_new_batch_prefill_raw @db570fe6);           *)
(*    "consensus": #34568, readiness folded into the ring (stage 0         *)
(*    proposes only when ready, stage 1 confirms only when ready, the      *)
(*    confirmed request enters every waiting queue at one step index).     *)
(*                                                                          *)
(* ABSTRACTED: one request, one ack; the ring's round trip is one message  *)
(* each way; steps are bounded by Steps.                                   *)
(***************************************************************************)
EXTENDS Naturals, Sequences

CONSTANTS
    Drain,      \* "stage_local" | "forwarded"
    Ready,      \* "drain" | "thread"
    Admission,  \* "per_stage" | "consensus"
    MaxSkew,    \* how many steps stage 0 may run ahead of stage 1
    Steps       \* steps per stage (bound)

ASSUME Drain \in {"stage_local", "forwarded"} /\ Ready \in {"drain", "thread"}
ASSUME Admission \in {"per_stage", "consensus"}
ASSUME MaxSkew \in Nat \ {0} /\ Steps \in Nat \ {0}

Stages == {0, 1}

\* step[s]: steps stage s has run.
VARIABLE step
\* q[s]: final prefetch acks queued on stage s (ack_prefetch_queue).
VARIABLE q
\* fwd: stage 0's per-step messages to stage 1 (forwarded count, enter, proposal).
VARIABLE fwd
\* done[s]: the prefetch has finished on stage s (left ongoing_prefetch).
VARIABLE done
\* inWait[s]: the request is in stage s's waiting queue; admitted[s]: the step that admitted it.
VARIABLE inWait
VARIABLE admitted
\* env: the ack has been enqueued (ack), the KV bootstrap has completed (boot), a storage
\* thread marked the prefetch done (thread readiness, Ready = "thread").
VARIABLE env
\* confirmed: stage 1 confirmed stage 0's proposal (consensus; the ring's way back).
VARIABLE confirmed
\* bad: some stage popped more acks than it held.
VARIABLE bad
vars == <<step, q, fwd, done, inWait, admitted, env, confirmed, bad>>

TypeOK ==
    /\ step \in [Stages -> 0 .. Steps] /\ q \in [Stages -> 0 .. 1]
    /\ done \in [Stages -> BOOLEAN] /\ inWait \in [Stages -> BOOLEAN]
    /\ admitted \in [Stages -> 0 .. Steps] /\ confirmed \in BOOLEAN /\ bad \in BOOLEAN

Init ==
    /\ step = [s \in Stages |-> 0] /\ q = [s \in Stages |-> 0] /\ fwd = <<>>
    /\ done = [s \in Stages |-> FALSE] /\ inWait = [s \in Stages |-> FALSE]
    /\ admitted = [s \in Stages |-> 0]
    /\ env = [ack |-> FALSE, boot |-> FALSE]
    /\ confirmed = FALSE /\ bad = FALSE

\* The completion sync delivers the final ack on every stage at once.
\* sglang: cache_controller.py::prefetch_sync_thread_func (the final ack reaches every stage)
AckArrives ==
    /\ ~env.ack
    /\ env' = [env EXCEPT !.ack = TRUE]
    /\ q' = [s \in Stages |-> q[s] + 1]
    /\ UNCHANGED <<step, fwd, done, inWait, admitted, confirmed, bad>>

\* The request's KV bootstrap completes (seen by the ring from the next step on).
\* sglang: environment: the request's KV bootstrap completes (disaggregation)
Bootstrapped ==
    /\ ~env.boot
    /\ env' = [env EXCEPT !.boot = TRUE]
    /\ UNCHANGED <<step, q, fwd, done, inWait, admitted, confirmed, bad>>

\* Readiness stage s sees at its step after draining n acks.
ReadyAfter(s, n) == done[s] \/ n > 0 \/ (Ready = "thread" /\ env.ack)

\* Stage 0's step: drain, decide the bootstrap consensus, admit, forward.
\* sglang: scheduler_pp_mixin.py (stage 0's step: drain, admit, forward)
Stage0Step ==
    /\ step[0] < Steps /\ step[0] - step[1] < MaxSkew
    /\ LET n       == q[0]
           d       == ReadyAfter(0, n)
           fresh   == ~inWait[0] /\ admitted[0] = 0
           propose == Admission = "consensus" /\ env.boot /\ fresh /\ d
           enter   == fresh /\ IF Admission = "per_stage" THEN env.boot ELSE confirmed
           w       == inWait[0] \/ enter
           adm     == w /\ d /\ admitted[0] = 0
       IN /\ step' = [step EXCEPT ![0] = @ + 1]
          /\ q' = [q EXCEPT ![0] = @ - n]
          /\ done' = [done EXCEPT ![0] = d]
          /\ inWait' = [inWait EXCEPT ![0] = w]
          /\ admitted' = [admitted EXCEPT ![0] = IF adm THEN step[0] + 1 ELSE @]
          /\ fwd' = Append(fwd, [n |-> n, enter |-> enter, propose |-> propose])
    /\ UNCHANGED <<env, confirmed, bad>>

\* Stage 1's step k: consumes stage 0's k-th message, drains, admits, confirms.
\* sglang: scheduler_pp_mixin.py (a later stage's step: receive, drain, admit)
Stage1Step ==
    /\ step[1] < step[0] /\ fwd # <<>>
    /\ LET m   == Head(fwd)
           n   == IF Drain = "forwarded" THEN m.n ELSE q[1]
           d   == ReadyAfter(1, n)
           w   == inWait[1] \/ m.enter
           adm == w /\ d /\ admitted[1] = 0
       IN /\ step' = [step EXCEPT ![1] = @ + 1]
          /\ bad' = (bad \/ n > q[1])
          /\ q' = [q EXCEPT ![1] = IF n > @ THEN 0 ELSE @ - n]
          /\ done' = [done EXCEPT ![1] = d]
          /\ inWait' = [inWait EXCEPT ![1] = w]
          /\ admitted' = [admitted EXCEPT ![1] = IF adm THEN step[1] + 1 ELSE @]
          /\ confirmed' = (confirmed \/ (m.propose /\ d))
          /\ fwd' = Tail(fwd)
    /\ UNCHANGED env

\* sglang: none: the bounded run is over (stuttering)
Finished == step[0] = Steps /\ step[1] = Steps /\ UNCHANGED vars

Next == AckArrives \/ Bootstrapped \/ Stage0Step \/ Stage1Step \/ Finished
Spec == Init /\ [][Next]_vars

\* Admitted by stage s at or before its step k.
AdmittedBy(s, k) == admitted[s] # 0 /\ admitted[s] <= k

\* INV-3 for the pipeline: once both stages have run step k, they have admitted the same
\* requests by step k (their k-th batches match; else the PP proxy tensors desynchronise).
TreeAgreement ==
    \A k \in 1 .. Steps :
        (step[0] >= k /\ step[1] >= k) => (AdmittedBy(0, k) <=> AdmittedBy(1, k))
\* INV-4: no stage pops an ack it does not hold.
AckAgreement == ~bad
\* Reachability (must fail): both stages admit the request.
DebugAdmitted == ~(admitted[0] # 0 /\ admitted[1] # 0)

=============================================================================
Measured (TLC 2.18, -workers 1, load 29-30, 30 Nov 2026, MaxSkew 2, Steps 6): 28-294 distinct
states, depth 5-15, 3-5 s per model.
