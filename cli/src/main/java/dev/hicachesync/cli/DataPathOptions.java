package dev.hicachesync.cli;

import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.tier.DeviceChoice;
import dev.hicachesync.tier.DeviceTiers;
import dev.hicachesync.tier.HostLayout;
import picocli.CommandLine.Option;

/**
 * {@code simulate}'s data path options: whether real KV bytes move through the tiers, how large a page is,
 * the host pool's layout and the device tier; and the checks that refuse, before the run, a data path this
 * machine cannot hold. A mixin of its own because these options and their checks concern the bytes only
 * (the sync protocol runs the same without them), as {@link WorkloadOptions} and {@link TraceOptions} own
 * theirs.
 */
public final class DataPathOptions {

  @Option(names = "--data", defaultValue = "on",
      description = "move real KV bytes through device, host and storage tiers and check them: on, off (default ${DEFAULT-VALUE})")
  private String data;

  @Option(names = "--page-bytes", defaultValue = "128",
      description = "bytes per KV page when --data on, split over 2 layers (default ${DEFAULT-VALUE})")
  private int pageBytes;

  @Option(names = "--host-layout", defaultValue = "page_first",
      description = "host pool layout when --data on: layer_first, page_first (default ${DEFAULT-VALUE})")
  private String hostLayout;

  @Option(names = "--device", defaultValue = "auto",
      description = "device tier when --data on: auto (JCuda if CUDA is present), simulated, cuda (default ${DEFAULT-VALUE})")
  private String device;

  /** Returns the data path options of {@code --data}, {@code --page-bytes}, {@code --host-layout}, {@code --device}. */
  DataOptions options() {
    if (!data.equals("on") && !data.equals("off")) {
      throw new IllegalArgumentException("--data must be on or off, got '" + data + "'");
    }
    HostLayout layout = HostLayout.parse(hostLayout);
    DeviceChoice choice = DeviceChoice.parse(device);
    return data.equals("off") ? DataOptions.OFF : DataOptions.on(layout, 2, pageBytes).withDevice(choice);
  }

  /** Refuses, before the run, a data path of {@code cfg} that this JVM or machine cannot hold. */
  static void check(SimConfig cfg) {
    checkDataMemory(cfg);
    checkDevice(cfg);
  }

  /**
   * {@code --device cuda} asks for the GPU: without a CUDA device that is bad input, said before the run (the
   * line names what the probe found), not a failure in the middle of it.
   */
  private static void checkDevice(SimConfig cfg) {
    if (cfg.data().on() && cfg.data().device() == DeviceChoice.CUDA && !DeviceTiers.probe().available()) {
      throw new IllegalArgumentException("--device cuda: no usable CUDA device (" + DeviceTiers.probe().detail()
          + "); use --device auto (falls back to the simulated tier) or simulated");
    }
  }

  /**
   * With {@code --data on}, every rank holds its device pool (the simulated tier: on the heap) and its host
   * pool (a direct buffer, which the JVM caps at the heap's maximum too): refuses, before the run, a pool over
   * one buffer (2 GiB) or pools over this JVM's memory, instead of failing mid-run.
   */
  private static void checkDataMemory(SimConfig cfg) {
    if (!cfg.data().on()) {
      return;
    }
    long page = cfg.data().pageBytes();
    long largest = Math.max(cfg.devicePages(), cfg.hostPages()) * page;
    if (largest > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--data on: a pool of " + largest + " bytes (pages x --page-bytes) exceeds"
          + " one buffer (2 GiB); lower --device-pages/--host-pages or use --data off");
    }
    long all = (long) cfg.topology().worldSize() * (cfg.devicePages() + (long) cfg.hostPages()) * page;
    long max = Runtime.getRuntime().maxMemory();
    if (all > max) {
      throw new IllegalArgumentException("--data on: the pools of " + cfg.topology().worldSize() + " ranks need "
          + all / (1 << 20) + " MiB, more than this JVM's " + max / (1 << 20) + " MiB; lower the pages or use --data off");
    }
  }
}
