package dev.hicachesync.cluster;

import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a rank process when the process that started it dies. The launcher ({@code simulate --processes})
 * holds the write end of each rank's standard input and never writes to it; when the launcher ends in any way,
 * {@code kill -9} included, the kernel closes that end and the rank reads end-of-file. A rank left running
 * without its launcher would hold its ports, its share of the machine and the shared store for as long as its
 * run lasts, with nobody to read its result.
 */
public final class LauncherWatch {
  private LauncherWatch() {}

  /**
   * Starts a daemon thread that reads {@code in} (the launcher's pipe) to its end, then runs {@code gone} (which
   * ends the process). Only for a process whose standard input is that pipe: on a terminal it would wait for the
   * user's input instead.
   */
  public static Thread exitWhenClosed(InputStream in, Runnable gone) {
    Thread t = new Thread(() -> {
      byte[] sink = new byte[256];
      try {
        while (in.read(sink) >= 0) {
          // the launcher writes nothing; anything written is ignored
        }
      } catch (IOException e) {
        // a broken pipe is a closed one
      }
      gone.run();
    }, "launcher-watch");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
