---- MODULE BadCfg ----
\* Captured in tlc-output/BadCfg.out: a TLC failure (semantic error, evaluation error, unknown invariant).
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + "a"
====
