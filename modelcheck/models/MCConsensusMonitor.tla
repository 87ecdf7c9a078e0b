-------------------------- MODULE MCConsensusMonitor --------------------------
(***************************************************************************)
(* Bounds for ConsensusMonitor: those of MCHiCacheUnified (each monitor    *)
(* cfg is a unified_* cfg with SPECIFICATION MonSpec and the invariant     *)
(* NoConsensusAlarm), plus a bound on the events a rank has queued that    *)
(* its peers have not: a rank that keeps calling decorated functions while *)
(* a peer calls none (B10: the peer breaks before check_prefetch_progress  *)
(* every step) queues without end, and the state space with it.            *)
(***************************************************************************)
EXTENDS ConsensusMonitor, MCHiCacheUnified

\* Eight uncompared events: two admission steps of check_prefetch_progress + match_prefix
\* (four events each) ahead of the slowest rank. A divergence the checker would see only
\* after a rank runs further ahead is outside these bounds.
MCMaxPending == 8
MonPendingBound == \A r \in Ranks : Len(clog[r]) <= MCMaxPending

=============================================================================
