package dev.hicachesync.modelcheck;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tlc2.output.EC;

/**
 * Shows the running models' progress: states found, distinct, queue, states per second, elapsed
 * time, and the TLC workers in use over all running models.
 *
 * <p>TLC reports its counts only once a minute (its progress interval is a constant of this
 * fork), so the reporter ticks on its own clock and shows the latest counts with the current
 * elapsed time: on a terminal one line rewritten every second, otherwise one line every
 * {@code plainPeriod} (10 seconds unless told; logs stay short). A catalogue run may also ask for a
 * line as each tenth of its models completes ({@code milestones}), so that a log shows how far it
 * got in at most about ten lines. Several models may run at once (parallel catalogue runs): each
 * gets its own {@link #slot()}, and the one line shows them all.
 *
 * <p>What TLC is doing comes from its {@code -tool} message codes: computing the initial states
 * ({@link EC#TLC_COMPUTING_INIT}), exploring (the initial states are done, {@link EC#TLC_INIT_GENERATED1}
 * and its variants, or a {@link Progress} report came), checking liveness ({@link
 * EC#TLC_CHECKING_TEMPORAL_PROPS}).
 */
public final class ProgressReporter implements ProgressListener {

  private final PrintWriter out;
  private final boolean terminal;
  private final long plainPeriodSeconds;
  private final boolean milestones;
  private final long createdNanos = System.nanoTime();
  private volatile long lastLineNanos = createdNanos;
  private final ScheduledExecutorService ticker;
  private final List<Run> running = new CopyOnWriteArrayList<>();
  private final Run defaultSlot = new Run();
  private final AtomicInteger done = new AtomicInteger();
  private volatile int total;
  private ScheduledFuture<?> tick;
  private int shownWidth;

  /** Creates a reporter on {@code out}; {@code terminal} selects the rewritten single line. */
  public ProgressReporter(PrintWriter out, boolean terminal) {
    this(out, terminal, Duration.ofSeconds(10), false);
  }

  /**
   * Creates a reporter on {@code out}; {@code terminal} selects the rewritten single line.
   *
   * @param plainPeriod off a terminal, the time between two status lines
   * @param milestones off a terminal, also a line as each tenth of the {@link #expect expected} models completes
   */
  public ProgressReporter(PrintWriter out, boolean terminal, Duration plainPeriod, boolean milestones) {
    this.out = out;
    this.terminal = terminal;
    this.plainPeriodSeconds = Math.max(1, plainPeriod.toSeconds());
    this.milestones = milestones;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "tlc-progress");
      t.setDaemon(true);
      return t;
    });
  }

  /** How many models this run will check (shown as {@code k of n done}); 0 or 1 shows nothing. */
  public void expect(int models) {
    total = models;
  }

  /** One of the {@link #expect expected} models is done (a model may take several TLC runs). */
  public void completed() {
    int now = done.incrementAndGet();
    int n = total;
    if (milestones && !terminal && n > 1 && now * 10 / n > (now - 1) * 10 / n) {
      long elapsed = (System.nanoTime() - createdNanos) / 1_000_000_000L;
      println(String.format(Locale.ROOT, "%d of %d models done, elapsed %d:%02d", now, n, elapsed / 60, elapsed % 60));
    }
  }

  /** A listener for one model run at a time; runs on different slots may overlap. */
  public ProgressListener slot() {
    return new Run();
  }

  @Override
  public void started(String modelName, int workers) {
    defaultSlot.started(modelName, workers);
  }

  @Override
  public void started(String modelName) {
    defaultSlot.started(modelName);
  }

  @Override
  public void message(TlcMessage message) {
    defaultSlot.message(message);
  }

  @Override
  public void finished() {
    defaultSlot.finished();
  }

  /** Prints a line of its own (a model's result) without breaking the progress line. */
  public synchronized void println(String text) {
    clearLine();
    out.println(text);
    out.flush();
    lastLineNanos = System.nanoTime();
  }

  /** The status line as it would be shown now. */
  public String status() {
    List<Run> now = new ArrayList<>(running);
    StringBuilder line = new StringBuilder();
    for (Run run : now) {
      line.append(line.length() == 0 ? "" : "; ").append(run.status());
    }
    int workers = now.stream().mapToInt(r -> r.workers).sum();
    if (now.size() > 1 || total > 1) {
      line.append(String.format(Locale.ROOT, " | %d running, %d worker%s", now.size(), workers, workers == 1 ? "" : "s"));
      if (total > 1) {
        line.append(String.format(Locale.ROOT, ", %d of %d done", done.get(), total));
      }
    } else if (!now.isEmpty()) {
      line.append(String.format(Locale.ROOT, ", %d worker%s", workers, workers == 1 ? "" : "s"));
    }
    return line.toString();
  }

  private synchronized void startTicking() {
    if (tick == null) {
      long period = terminal ? 1 : plainPeriodSeconds;
      tick = ticker.scheduleAtFixedRate(this::tick, period, period, TimeUnit.SECONDS);
    }
  }

  private synchronized void stopTickingIfIdle() {
    if (running.isEmpty() && tick != null) {
      tick.cancel(false);
      tick = null;
      clearLine();
      out.flush();
    }
  }

  private void clearLine() {
    if (terminal && shownWidth > 0) {
      out.print("\r" + " ".repeat(shownWidth) + "\r");
      shownWidth = 0;
    }
  }

  /** Shows the status once (what the clock does every period). */
  synchronized void tick() {
    String status = status();
    if (status.isEmpty()) {
      return;
    }
    if (terminal) {
      out.print("\r" + status + " ".repeat(Math.max(0, shownWidth - status.length())));
      shownWidth = status.length();
    } else {
      // With milestones, the clock's line only fills a silence (a long model between two tenths).
      if (milestones && System.nanoTime() - lastLineNanos < plainPeriodSeconds * 1_000_000_000L - 500_000_000L) {
        return;
      }
      out.println(status);
      lastLineNanos = System.nanoTime();
    }
    out.flush();
  }

  /** One model's run: TLC's latest counts and what it is doing. */
  private final class Run implements ProgressListener {
    private volatile String name = "";
    private volatile int workers = 1;
    private volatile long startNanos;
    private volatile Progress latest;
    private volatile double statesPerSecond = -1;
    private volatile long latestNanos;
    private volatile String phase = "starting";

    @Override
    public void started(String modelName, int tlcWorkers) {
      name = modelName;
      workers = tlcWorkers;
      startNanos = System.nanoTime();
      latestNanos = startNanos;
      latest = null;
      statesPerSecond = -1;
      phase = "parsing";
      running.add(this);
      startTicking();
    }

    @Override
    public void started(String modelName) {
      started(modelName, 1);
    }

    @Override
    public void message(TlcMessage message) {
      Progress.of(message).ifPresent(this::counted);
      switch (message.code()) {
        // A simulation (-simulate) reports behaviours walked, not distinct states: no counts to show.
        case EC.TLC_MODE_SIMU, EC.TLC_PROGRESS_SIMU -> phase = "simulating";
        case EC.TLC_COMPUTING_INIT -> phase = "initial states";
        // TLC's first count comes up to a minute later: say it is exploring meanwhile.
        case EC.TLC_INIT_GENERATED1, EC.TLC_INIT_GENERATED2, EC.TLC_INIT_GENERATED3, EC.TLC_INIT_GENERATED4 ->
            phase = "exploring";
        case EC.TLC_CHECKING_TEMPORAL_PROPS -> phase = "checking liveness";
        default -> { }
      }
    }

    private void counted(Progress p) {
      long now = System.nanoTime();
      Progress before = latest;
      long generatedBefore = before == null ? 0 : before.generated();
      double seconds = (now - latestNanos) / 1e9;
      if (seconds > 0) {
        statesPerSecond = (p.generated() - generatedBefore) / seconds;
      }
      latest = p;
      latestNanos = now;
      if (!phase.equals("checking liveness")) {
        phase = "exploring";
      }
    }

    @Override
    public void finished() {
      running.remove(this);
      stopTickingIfIdle();
    }

    String status() {
      long elapsed = (System.nanoTime() - startNanos) / 1_000_000_000L;
      Progress p = latest;
      String counts = p == null ? ""
          : String.format(Locale.ROOT, ", %,d states, %,d distinct, %,d on queue", p.generated(), p.distinct(), p.queue());
      String rate = statesPerSecond < 0 ? "" : String.format(Locale.ROOT, ", %,.0f states/s", statesPerSecond);
      return String.format(Locale.ROOT, "[%s] %s%s%s, elapsed %d:%02d", name, phase, counts, rate,
          elapsed / 60, elapsed % 60);
    }
  }
}
