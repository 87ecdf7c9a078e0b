---- MODULE LivenessFormsSync ----
\* HiCacheSync's liveness properties in the form they had before they were restated for TLC's
\* speed (spec/HiCacheSync.tla, "Liveness"), and two weaker specifications under which some of
\* them fail. LivenessFormsTest checks every property in both forms under the same
\* specification and wants the same verdict, and wants some violated: a restated property that
\* lost what it checks shows up as a verdict that differs from the old form's.
EXTENDS MCHiCacheSync

PrefetchTerminatesOld == AnyOngoing ~> ~AnyOngoing
AcksConsumedOld == (\E r \in Ranks : AckPending(r)) ~> (\A r \in Ranks : ~AckPending(r))
RequestsProgressOld == <>(\A r \in Ranks : reqIdx[r] = NR /\ waiting[r] = 0 /\ running[r] = 0)
SchedulerNeverStuckOld ==
    (\E r \in Ranks : coll[r]["sched"].site # "RECV") ~> (\A r \in Ranks : coll[r]["sched"].site = "RECV")
PrefetchThreadNeverStuckOld ==
    (\E r \in Ranks : coll[r]["pf"] # C!NoCall) ~> (\A r \in Ranks : coll[r]["pf"] = C!NoCall)
AsyncNeverStuckOld ==
    (\E r \in Ranks : coll[r]["async"] # C!NoCall) ~> (\A r \in Ranks : coll[r]["async"] = C!NoCall)

\* Collectives complete fairly; the background (GPU events, storage, timeouts, the prefetch
\* thread) may stop for good.
SpecCollectivesOnly == Init /\ [][Next]_vars /\ WF_vars(SomeCollectiveCompletes)
\* The background is fair; a posted collective may never complete.
SpecBackgroundOnly == Init /\ [][Next]_vars /\ SF_vars(Background)
\* The background only weakly fair: a background step enabled only at step boundaries may be
\* passed over for good.
SpecWeakBackground == Init /\ [][Next]_vars /\ WF_vars(SomeCollectiveCompletes) /\ WF_vars(Background)
====
