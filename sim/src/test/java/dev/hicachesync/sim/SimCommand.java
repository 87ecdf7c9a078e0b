package dev.hicachesync.sim;

import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.core.stateful.Command;
import org.quicktheories.generators.Generate;

/**
 * One command of the stateful model ({@link StatefulSimTest}): a step of the simulator or an environment
 * action, run on a {@link SimDriver}; the model's next state is what the command must leave true (every
 * invariant still holds). Ranks and replicas are generated up to the largest topology and taken modulo the
 * actual one, so a command list stays valid when the topology shrinks.
 *
 * <p>Each command has a compact form for replay lines: {@code P} (one lockstep point), {@code S3} (three
 * scheduler steps), {@code A0:<turn>} (a request arrives at replica 0), {@code X0:2} (abort replica 0's
 * third injected request), {@code D1:12} (rank 1 is 12 ticks late), {@code C1} (rank 1's next I/O lands),
 * {@code F1} (rank 1's next storage read fails).
 */
sealed interface SimCommand extends Command<SimDriver, SimModel> {

  /** Returns the compact form. */
  String encode();

  @Override
  default SimModel nextState(SimModel m) {
    return m;
  }

  /** Every rank runs to its next lockstep point. */
  record Point() implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.run().advance();
    }

    @Override
    public String encode() {
      return "P";
    }
  }

  /** Every rank runs {@code steps} scheduler steps, point by point (each point is checked). */
  record Steps(int steps) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      for (int i = 0; i < steps; i++) {
        d.run().advanceStep();
      }
    }

    @Override
    public String encode() {
      return "S" + steps;
    }
  }

  /** A request (the next turn of a session) arrives at replica {@code dp}'s next step. */
  record Arrive(int dp, Turn turn) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.arrive(dp, turn);
    }

    @Override
    public SimModel nextState(SimModel m) {
      return m.withArrival();
    }

    @Override
    public String encode() {
      return "A" + dp + ":" + turn.encode();
    }
  }

  /** Replica {@code dp}'s {@code nth} injected request (modulo their number) is aborted if it still waits. */
  record Abort(int dp, int nth) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.abort(dp, nth);
    }

    @Override
    public String encode() {
      return "X" + dp + ":" + nth;
    }
  }

  /** Rank {@code rank} is {@code ticks} late at its next step: its copies complete, its prefetch timeouts fire. */
  record Delay(int rank, int ticks) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.run().delay(d.rank(rank), ticks);
    }

    @Override
    public String encode() {
      return "D" + rank + ":" + ticks;
    }
  }

  /** Rank {@code rank}'s next pending storage read or write lands at its next step. */
  record CompleteIo(int rank) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.run().completeNextIo(d.rank(rank));
    }

    @Override
    public String encode() {
      return "C" + rank;
    }
  }

  /** Rank {@code rank}'s next storage read batch fails. */
  record FailRead(int rank) implements SimCommand {
    @Override
    public void run(SimDriver d) {
      d.run().failNextRead(d.rank(rank));
    }

    @Override
    public String encode() {
      return "F" + rank;
    }
  }

  /** Parses {@link #encode()}'s form. */
  static SimCommand decode(String s) {
    String rest = s.substring(1);
    String[] f = rest.split(":", 2);
    switch (s.charAt(0)) {
      case 'P':
        return new Point();
      case 'S':
        return new Steps(Integer.parseInt(rest));
      case 'A':
        return new Arrive(Integer.parseInt(f[0]), Turn.decode(f[1]));
      case 'X':
        return new Abort(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
      case 'D':
        return new Delay(Integer.parseInt(f[0]), Integer.parseInt(f[1]));
      case 'C':
        return new CompleteIo(Integer.parseInt(rest));
      case 'F':
        return new FailRead(Integer.parseInt(rest));
      default:
        throw new IllegalArgumentException("unknown command " + s);
    }
  }

  /**
   * Commands, weighted so that a list of a few dozen runs a few dozen steps with requests arriving,
   * finishing and being evicted, loaded back and prefetched, under per-rank delays.
   */
  static Gen<SimCommand> commands() {
    Gen<Integer> rank = integers().between(0, 7);
    List<Pair<Integer, Gen<SimCommand>>> weighted = List.of(
        Pair.of(3, Generate.<SimCommand>constant(new Point())),
        Pair.of(6, integers().between(1, 8).map(n -> (SimCommand) new Steps(n))),
        Pair.of(5, integers().between(0, 1).zip(SimGen.turns(), (dp, t) -> (SimCommand) new Arrive(dp, t))),
        Pair.of(1, integers().between(0, 1).zip(integers().between(0, 7), (dp, n) -> (SimCommand) new Abort(dp, n))),
        Pair.of(3, rank.zip(integers().between(1, 40), (r, t) -> (SimCommand) new Delay(r, t))),
        Pair.of(2, rank.map(r -> (SimCommand) new CompleteIo(r))),
        Pair.of(1, rank.map(r -> (SimCommand) new FailRead(r))));
    return Generate.frequency(weighted);
  }
}
