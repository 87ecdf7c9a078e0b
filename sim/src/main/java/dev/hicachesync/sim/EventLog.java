package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.RankEnv;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.sync.SyncPoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One rank's readable event log: one line per reduction (step, rank's clock, rank, sync point, local
 * value, decided value), written only when a log file is asked for. Lines of all ranks are merged in
 * (step, rank, sequence) order, so two runs of one seed produce identical files (diff them).
 *
 * <p>Rank thread only while running; {@link #write} after every rank has stopped.
 */
final class EventLog implements SyncObserver {
  private final int rank;
  private final RankEnv env;
  private final List<String> lines = new ArrayList<>();
  private long step;

  EventLog(int rank, RankEnv env) {
    this.rank = rank;
    this.env = env;
  }

  void step(long s) {
    this.step = s;
  }

  @Override
  public void afterSync(SyncPoint point) {}

  @Override
  public void onReduce(SyncPoint point, long[] local, long[] result) {
    add(point.name(), local, result);
  }

  void add(String what, long[] local, long[] result) {
    lines.add(String.format("%08d %04d tick=%d rank=%d %s local=%s decided=%s", step, rank, env.now(), rank,
        what, Arrays.toString(local), Arrays.toString(result)));
  }

  /** Writes every rank's lines to {@code file}, merged in (step, rank, sequence) order. */
  static void write(Path file, List<EventLog> logs) {
    List<String> all = new ArrayList<>();
    for (EventLog l : logs) {
      all.addAll(l.lines); // each rank's lines are already in sequence order; the sort is stable
    }
    all.sort((a, b) -> a.substring(0, 13).compareTo(b.substring(0, 13)));
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (String line : all) {
        w.write("step=");
        w.write(line.substring(0, 8).replaceFirst("^0+(?=.)", ""));
        w.write(line.substring(13));
        w.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
