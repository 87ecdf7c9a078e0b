---- MODULE Liveness ----
\* x toggles between 0 and 1 under weak fairness and never reaches 2 (TLC exit 13).
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = 1 - x
Spec == Init /\ [][Next]_x /\ WF_x(Next)
ReachesTwo == <>(x = 2)
\* Holds: with Liveness2.cfg TLC reports only "Temporal properties were violated", and the
\* runner must find out by itself that ReachesTwo, not Toggles, is the one.
Toggles == []<>(x = 1)
====
