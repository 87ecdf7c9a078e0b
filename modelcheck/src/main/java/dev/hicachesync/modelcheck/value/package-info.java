/**
 * TLA+ values as TLC prints them: {@link dev.hicachesync.modelcheck.value.TlaValue} and its
 * {@link dev.hicachesync.modelcheck.value.TlaValueParser}.
 */
package dev.hicachesync.modelcheck.value;
