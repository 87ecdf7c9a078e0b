--------------------------- MODULE MCHiCacheUnified ---------------------------
(***************************************************************************)
(* Bounds for model checking HiCacheUnified. Only bounds live here; each   *)
(* cfg picks a topology, a policy, the storage state and one question's    *)
(* Knobs and Bugs.                                                          *)
(***************************************************************************)
EXTENDS HiCacheUnified

\* One request: one prefetch, one admission, one backup or load-back. Every question of
\* The unified models are about one collective that one rank leaves or reorders; a second request only
\* repeats the same interleavings (the scheduler loop is cyclic and every queue is drained).
MCNReq1 == 1
\* Two requests: the second arrives after the first prefetch is gone (RecvComplete's bound).
MCNReq2 == 2
\* Three requests: ad-hoc models (--requests 3), mostly for simulation at large sizes.
MCNReq3 == 3

\* Host pool of one page: the prefetch's hit allocation succeeds (a shorter pool would only
\* revoke, identically on every rank: HostCap is the same everywhere).
MCHostCap == 1

\* Buffer-only host memory (#34798): a two-page pool whose loads may use one page
\* (prefetch_capacity_limit; the module's default lets loads fill the pool): the rate limit
\* parks a hit while a page of an earlier prefetch waits in the release queue, which one page
\* and one prefetch at a time cannot show otherwise.
MCHostCap2 == 2
MCBufLoadLimit1 == 1

=============================================================================
