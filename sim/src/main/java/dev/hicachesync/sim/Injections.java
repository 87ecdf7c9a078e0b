package dev.hicachesync.sim;

import dev.hicachesync.sim.workload.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The requests and aborts the driver of a {@link SimulationRun} injected into one replica, by step; read by
 * its ranks. A class of its own because it is the one state the driving thread and the rank threads share
 * (hence the concurrent maps): the driver writes a step no rank of the replica has started, and every rank
 * reads it when it starts that step, so all see the same injection.
 */
final class Injections {
  private final Map<Long, List<Request>> arrivals = new ConcurrentHashMap<>();
  private final Map<Long, Set<String>> aborts = new ConcurrentHashMap<>();

  /** Returns the {@code scripted} arrivals of {@code step} followed by those injected for it. */
  List<Request> arrivals(long step, List<Request> scripted) {
    List<Request> mine = arrivals.get(step);
    if (mine == null) {
      return scripted;
    }
    List<Request> all = new ArrayList<>(scripted);
    all.addAll(mine);
    return all;
  }

  boolean aborted(String rid, long step) {
    Set<String> s = aborts.get(step);
    return s != null && s.contains(rid);
  }

  void arrive(long step, Request request) {
    arrivals.computeIfAbsent(step, k -> new CopyOnWriteArrayList<>()).add(request);
  }

  void abort(long step, String rid) {
    aborts.computeIfAbsent(step, k -> ConcurrentHashMap.newKeySet()).add(rid);
  }
}
