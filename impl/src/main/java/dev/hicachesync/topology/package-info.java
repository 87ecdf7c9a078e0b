/** The rank grid (dp, cp, tp, pp) and the process groups derived from it with SGLang's formula. */
package dev.hicachesync.topology;
