package dev.hicachesync.controller;

import java.util.TreeSet;

/**
 * The sequential specification of the host-slot ledger, from INV-7 ({@code HostSlotSafety}) and not from
 * {@link HostSlotLedger}: per slot the number of transfers using it, and the set of free slots (lowest
 * first). Start: slots 0 and 1 allocated, slot 0 with three users; slots 2 and 3 free.
 */
public class HostSlotLedgerSpec {
  private final int[] users = {3, 0, 0, 0};
  private final TreeSet<Integer> free = new TreeSet<>(java.util.List.of(2, 3));

  public void clear() {
    users[0]--;
  }

  public String free(int slot) {
    if (users[slot] > 0) {
      return "busy";
    }
    return free.add(slot) ? "ok" : "double free";
  }

  public String allocate() {
    return free.isEmpty() ? "null" : "[" + free.pollFirst() + "]";
  }

  public int busySlots() {
    int n = 0;
    for (int u : users) {
      n += u > 0 ? 1 : 0;
    }
    return n;
  }
}
