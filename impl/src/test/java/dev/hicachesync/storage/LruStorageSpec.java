package dev.hicachesync.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The sequential specification of a store bounded to {@link #CAPACITY} objects with least-recently-used
 * eviction, from {@link LruStorageBackend}'s documented rule and written apart from it: a list of
 * resident keys, least recent first, and their values; a put or a successful get moves a key to the end;
 * a put beyond capacity drops the head; exists does not touch recency.
 */
public class LruStorageSpec {
  static final int CAPACITY = 2;
  private final List<Integer> order = new ArrayList<>();
  private final int[] values = new int[3];

  public void put(int key, int value) {
    order.remove(Integer.valueOf(key));
    order.add(key);
    values[key] = value;
    while (order.size() > CAPACITY) {
      values[order.remove(0)] = 0;
    }
  }

  public int get(int key) {
    if (!order.remove(Integer.valueOf(key))) {
      return 0;
    }
    order.add(key);
    return values[key];
  }

  public boolean exists(int key) {
    return order.contains(key);
  }

  public boolean remove(int key) {
    values[key] = 0;
    return order.remove(Integer.valueOf(key));
  }
}
