/**
 * The page-granular radix tree replicated on every rank ({@code hiradix_cache.py}): {@link
 * dev.hicachesync.tree.RadixTree}, {@link dev.hicachesync.tree.TreeNode}, {@link
 * dev.hicachesync.tree.MatchResult} and the canonical {@link dev.hicachesync.tree.TreeDigest} the
 * simulator compares across ranks.
 *
 * <p>Scheduler thread only: the tree is never touched by I/O threads, which is why ranks can keep it
 * identical by applying the same operations in the same order.
 */
package dev.hicachesync.tree;
