---- MODULE Sem ----
\* Captured in tlc-output/Sem.out: a TLC failure (semantic error, evaluation error, unknown invariant).
VARIABLE x
Init == x = y
====
