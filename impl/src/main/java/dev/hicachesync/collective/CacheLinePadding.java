package dev.hicachesync.collective;

/**
 * 64 bytes of unused fields in front of a subclass's own fields (the JVM lays out a superclass's fields
 * first), so that two objects written by different threads and allocated one after the other never share
 * a cache line: without it, one member's arrival would invalidate the line another member spins on.
 */
@SuppressWarnings("unused")
abstract class CacheLinePadding {
  private long pad0;
  private long pad1;
  private long pad2;
  private long pad3;
  private long pad4;
  private long pad5;
  private long pad6;
  private long pad7;
}
