---- MODULE Stutter ----
\* Without fairness the behaviour may stutter at x = 0 forever, so <>(x = 1) fails (TLC exit 13,
\* the trace ends in "Stuttering"). The second disjunct keeps x = 1 from being a deadlock.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == \/ x < 1 /\ x' = x + 1
        \/ x = 1 /\ UNCHANGED x
Spec == Init /\ [][Next]_x
ReachesOne == <>(x = 1)
====
