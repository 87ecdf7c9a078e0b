---- MODULE Forever ----
\* An unbounded counter: TLC never finishes, so the runner's time limit must stop it.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Spec == Init /\ [][x' = x + 1]_x
====
