package dev.hicachesync.modelcheck;

/**
 * The figures a model produced when it was last measured, as recorded in the catalogue.
 *
 * @param distinct distinct states found
 * @param seconds wall time
 * @param depth depth of the state graph (or length of the counterexample)
 */
public record Recorded(long distinct, double seconds, int depth) {}
