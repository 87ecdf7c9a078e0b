---- MODULE FairnessFormsSync ----
\* HiCacheSync's fairness is written on values (spec/HiCacheSync.tla, "Fairness"): a ready
\* predicate in place of each ENABLED, a step predicate in place of each <<A>>_vars. This module
\* states what makes that exact, for FairnessFormsTest to check on models that take every kind of
\* step, and keeps TLC's own forms for comparing verdicts.
EXTENDS MCHiCacheSync

\* Each ready predicate is TLC's ENABLED of its action, in every reachable state.
ReadyIsEnabled ==
    /\ SomeCollectiveReady = ENABLED <<SomeCollectiveCompletes>>_vars
    /\ BackgroundReady = ENABLED <<Background>>_vars

\* Each step predicate is its action on every step (an action property: TLC evaluates it on
\* every transition it generates).
StepIsAction ==
    [][ /\ (<<CollectiveStep>>_vars <=> <<SomeCollectiveCompletes>>_vars)
        /\ (<<BackgroundStep>>_vars <=> <<Background>>_vars) ]_vars

\* The specifications with TLC's WF and SF, and weaker ones in both forms (LivenessFormsSync has
\* the weaker ones with TLC's forms too).
SpecAsWritten == Init /\ [][Next]_vars /\ FairnessAsWritten
SpecCollectivesOnlyOnValues == Init /\ [][Next]_vars /\ CollectivesFairness
SpecCollectivesOnlyAsWritten == Init /\ [][Next]_vars /\ WF_vars(SomeCollectiveCompletes)
SpecBackgroundOnlyOnValues == Init /\ [][Next]_vars /\ BackgroundFairness
SpecBackgroundOnlyAsWritten == Init /\ [][Next]_vars /\ SF_vars(Background)
====
