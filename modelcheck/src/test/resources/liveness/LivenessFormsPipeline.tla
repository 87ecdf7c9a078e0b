---- MODULE LivenessFormsPipeline ----
\* HiCachePipeline's liveness properties in the form they had before they were restated for
\* TLC's speed (spec/HiCachePipeline.tla, "Liveness"), and weaker specifications under which
\* some of them fail; see LivenessFormsSync.tla and LivenessFormsTest.
EXTENDS MCHiCachePipeline

PrefetchTerminatesOld == AnyOngoing ~> ~AnyOngoing
AcksConsumedOld == (\E r \in Ranks : AckPending(r)) ~> (\A r \in Ranks : ~AckPending(r))
ThreadNeverStuckOld(th) ==
    (\E r \in Ranks : coll[r][th] # C!NoCall) ~> (\A r \in Ranks : coll[r][th] = C!NoCall)
SchedulerNeverStuckOld == ThreadNeverStuckOld("sched")
PrefetchThreadNeverStuckOld == ThreadNeverStuckOld("pf")
SyncThreadNeverStuckOld == ThreadNeverStuckOld("pfsync")

\* Schedulers and collectives are fair; the background may stop for good.
SpecNoBackground == Init /\ [][Next]_vars /\ WF_vars(SchedulerMoves) /\ WF_vars(SomeCollectiveCompletes)
\* The background and the schedulers are fair; a posted collective may never complete.
SpecNoCollectives == Init /\ [][Next]_vars /\ WF_vars(SchedulerMoves) /\ SF_vars(Background)
\* No fairness: any state may be the last one.
SpecUnfair == Init /\ [][Next]_vars
====
