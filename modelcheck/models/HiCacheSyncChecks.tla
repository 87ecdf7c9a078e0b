---- MODULE HiCacheSyncChecks ----
\* HiCacheSync with the invariants that MCHiCacheSyncReduced checks between fused rounds conjoined
\* under one name each. Its instance Mid(ls, cl) is evaluated once per check of a state: every
\* reference Mid(ls, cl)!X builds the instance's 22 substitutions again, so eight invariants named
\* one by one through the instance cost eight times that (docs/explanation/spec-design.md; the
\* figures are in docs/reference/measurements.md).
EXTENDS HiCacheSync

\* The invariants a reduced cfg may list (SyncReductionTest.CHECKED).
ReducedChecks ==
    /\ TypeOK /\ CollectiveMatching /\ TreeAgreement /\ AckAgreement /\ PrefetchAgreement
    /\ AllocAgreement /\ HostSlotSafety /\ SidecarCoverage

\* The Debug* probes, for a cfg that sets ReducedAlsoChecks <- ReducedDebugChecks.
DebugChecks ==
    /\ DebugPrefetchRevoked /\ DebugLoadBack /\ DebugAbortWhileReading /\ DebugTwoWaiting
    /\ DebugPrefetchInserted
====
