package dev.hicachesync.sim;

import dev.hicachesync.topology.Topology;

/**
 * The child JVM of {@link TempStoreCleanupTest}: one short {@code --storage file} run without a folder
 * named, in a JVM whose temporary directory the parent chose, then prints the result's verdict.
 */
public final class TempStoreProcess {
  private TempStoreProcess() {}

  public static void main(String[] args) {
    SimResult r = new Simulator(SimConfig.builder().topology(Topology.of(1, 2, 1, 1)).steps(200).seed(3)
        .storage(StorageMode.FILE).build()).run();
    System.out.println(r.ok() ? "ok " + r.stats().storageWritePages() : "diverged");
  }
}
