package dev.hicachesync.bench;

import dev.hicachesync.cli.Main;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Trace replay: {@code simulate --workload} of a trace's first {@code requests} requests, the whole command
 * (parsing, replay, report), timed as one run; the cost per request is the score divided by
 * {@code requests}. {@code bench} compares 4 ranks (CP 2 × TP 2) with 1 rank at several trace lengths.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReplayBenchmark {

  /** A Mooncake-format trace (the bench writes a generated one unless given {@code --workload}). */
  @Param({""})
  public String trace;

  @Param({"200"})
  public int requests;

  /** cp,tp. */
  @Param({"2,2", "1,1"})
  public String ranks;

  /** One replay through {@code simulate}, its report discarded (only its time counts). */
  @Benchmark
  public int replay() {
    String[] cpTp = ranks.split(",");
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    PrintStream sink = new PrintStream(OutputStream.nullOutputStream());
    int code;
    try {
      System.setOut(sink);
      System.setErr(sink);
      code = Main.execute(new PrintWriter(sink), new PrintWriter(sink), "simulate", "--workload", trace,
          "--requests", String.valueOf(requests), "--cp", cpTp[0], "--tp", cpTp[1]);
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    if (code != 0) {
      throw new IllegalStateException("replay of " + trace + " (" + requests + " requests, cp,tp " + ranks
          + ") exited " + code);
    }
    return code;
  }
}
