package dev.hicachesync.storage;

import java.util.HashMap;
import java.util.Map;

/** The sequential specification of an unbounded store: a map from key to the last value put (0 = absent). */
public class MapStorageSpec {
  private final Map<Integer, Integer> objects = new HashMap<>();

  public void put(int key, int value) {
    objects.put(key, value);
  }

  public int get(int key) {
    return objects.getOrDefault(key, 0);
  }

  public boolean exists(int key) {
    return objects.containsKey(key);
  }

  public boolean remove(int key) {
    return objects.remove(key) != null;
  }
}
