-------------------------- MODULE MCHiCacheUnifiedPP --------------------------
(***************************************************************************)
(* Bounds for HiCacheUnifiedPP.                                             *)
(***************************************************************************)
EXTENDS HiCacheUnifiedPP

\* Stage 0 may be two steps ahead: enough for stage 1 to drain an ack one step earlier or
\* later than stage 0 (the divergence needs a skew of one step; two lets the consensus
\* round trip overlap a skewed drain).
MCMaxSkew == 2
\* Six steps per stage: bootstrap, proposal, confirmation, entry and admission fit with room
\* for the ack to arrive before, between or after them.
MCSteps == 6

=============================================================================
