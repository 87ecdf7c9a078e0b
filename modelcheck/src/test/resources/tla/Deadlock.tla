---- MODULE Deadlock ----
\* Counts to 2 and stops: the state x = 2 has no successor (TLC exit 11).
EXTENDS Naturals
VARIABLE x
Init == x = 0
Step == x < 2 /\ x' = x + 1
Spec == Init /\ [][Step]_x
====
