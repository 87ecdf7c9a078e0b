/**
 * The names the TLA+ spec and the Java code share: an enum constant of the implementation (a protocol
 * version, a policy, a layout, a bug switch's two values) is written in flags, trace headers and
 * catalogue files as the string the spec's constant takes. One lookup serves every such enum.
 */
package dev.hicachesync.vocabulary;
