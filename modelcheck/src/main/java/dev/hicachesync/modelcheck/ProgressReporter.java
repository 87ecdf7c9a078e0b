package dev.hicachesync.modelcheck;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Shows a running model's progress: states found, queue and elapsed time.
 *
 * <p>TLC reports its counts only once a minute (its progress interval is a constant), so the
 * reporter ticks on its own clock and shows the latest counts with the current elapsed time: on a
 * terminal one line rewritten every second, otherwise one line every 10 seconds (logs stay short).
 */
public final class ProgressReporter implements ProgressListener {

  private final PrintWriter out;
  private final boolean terminal;
  private final ScheduledExecutorService ticker;
  private ScheduledFuture<?> tick;
  private volatile String name = "";
  private volatile long startNanos;
  private volatile Progress latest;
  private volatile String phase = "starting";
  private int shownWidth;

  /** Creates a reporter on {@code out}; {@code terminal} selects the rewritten single line. */
  public ProgressReporter(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tlc-progress");
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public synchronized void started(String modelName) {
    name = modelName;
    startNanos = System.nanoTime();
    latest = null;
    phase = "parsing";
    long period = terminal ? 1 : 10;
    tick = ticker.scheduleAtFixedRate(this::show, period, period, TimeUnit.SECONDS);
  }

  /** Prints a line of its own (a model's result) without breaking the progress line. */
  public synchronized void println(String text) {
    if (terminal && shownWidth > 0) {
      out.print("\r" + " ".repeat(shownWidth) + "\r");
      shownWidth = 0;
    }
    out.println(text);
    out.flush();
  }

  @Override
  public void line(String line) {
    Progress.parse(line).ifPresent(p -> {
      latest = p;
      phase = "exploring";
    });
    if (line.startsWith("Computing initial states")) {
      phase = "initial states";
    } else if (line.startsWith("Finished computing initial states")) {
      // TLC's first count comes up to a minute later: say it is exploring meanwhile.
      phase = "exploring";
    } else if (line.startsWith("Checking temporal properties")) {
      phase = "checking liveness";
    }
  }

  @Override
  public synchronized void finished() {
    if (tick != null) {
      tick.cancel(false);
      tick = null;
    }
    if (terminal && shownWidth > 0) {
      out.print("\r" + " ".repeat(shownWidth) + "\r");
      out.flush();
      shownWidth = 0;
    }
  }

  /** The status line as it would be shown now. */
  public String status() {
    long elapsed = (System.nanoTime() - startNanos) / 1_000_000_000L;
    Progress p = latest;
    String counts = p == null ? ""
        : String.format(Locale.ROOT, ", %,d distinct, %,d on queue", p.distinct(), p.queue());
    return String.format(Locale.ROOT, "[%s] %s%s, elapsed %d:%02d", name, phase, counts, elapsed / 60, elapsed % 60);
  }

  private synchronized void show() {
    String status = status();
    if (terminal) {
      out.print("\r" + status + " ".repeat(Math.max(0, shownWidth - status.length())));
      shownWidth = status.length();
    } else {
      out.println(status);
    }
    out.flush();
  }
}
