package dev.hicachesync.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code ./hicache-sync}: dispatches to one subcommand per job. */
@Command(
    name = "hicache-sync",
    mixinStandardHelpOptions = true,
    version = "hicache-sync 0.1.0",
    description = "Model-check and simulate the HiCache multi-rank sync protocol.",
    subcommands = {CheckCommand.class, SimulateCommand.class, SweepCommand.class, ValidateTraceCommand.class,
        BenchCommand.class, RankCommand.class})
public final class Main implements Runnable {

  /** Exit code for bad input (unknown flag, invalid topology, malformed file). */
  public static final int EXIT_BAD_INPUT = 2;
  /** Exit code when a tool the command drives (TLC) failed, or for any unexpected error. */
  public static final int EXIT_TOOL_FAILED = 3;
  /**
   * Exit code when the environment failed during the run: a disk that filled, a storage backend that
   * threw. The input was fine (its paths were checked before the run), so it is not 2; it is no bug, so
   * not 3.
   */
  public static final int EXIT_IO_FAILED = 4;
  /**
   * Exit code when a rank process was lost during the run (killed, crashed, stopped past the collective
   * timeout): {@code rank} when a peer left, {@code simulate --processes} when any rank did.
   */
  public static final int EXIT_RANK_LOST = 5;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /** Runs the command line on stdout/stderr and returns the exit code (never calls System.exit). */
  public static int execute(String... args) {
    return execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs the command line writing to {@code out} and {@code err}; returns the exit code. */
  public static int execute(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    cli.setParameterExceptionHandler(
        (ex, argv) -> {
          ex.getCommandLine().getErr().println("hicache-sync: " + firstLine(ex.getMessage()));
          ex.getCommandLine().getErr().flush();
          return EXIT_BAD_INPUT;
        });
    // A bug must not surface as a stack trace: one line, exit 3 (the trace is there with -Dhicache.debug).
    cli.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (Boolean.getBoolean("hicache.debug")) {
            ex.printStackTrace(commandLine.getErr());
          }
          commandLine.getErr().println("hicache-sync: internal error: " + ex.getClass().getSimpleName()
              + (ex.getMessage() == null ? "" : ": " + firstLine(ex.getMessage())));
          commandLine.getErr().flush();
          return EXIT_TOOL_FAILED;
        });
    int code;
    try {
      code = cli.execute(args);
    } catch (VirtualMachineError e) {
      // Every size a command takes is bounded before it allocates; this is the net under a bound that is missing.
      err.println("hicache-sync: internal error: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())));
      code = EXIT_TOOL_FAILED;
    }
    out.flush();
    err.flush();
    return code;
  }

  private static String firstLine(String text) {
    return text == null ? "" : text.lines().findFirst().orElse("");
  }
}
