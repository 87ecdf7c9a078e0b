package dev.hicachesync.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code ./hicache-sync}: dispatches to one subcommand per job. */
@Command(
    name = "hicache-sync",
    mixinStandardHelpOptions = true,
    version = "hicache-sync 0.1.0",
    description = "Model-check and simulate the HiCache multi-rank sync protocol.",
    subcommands = {SimulateCommand.class, SweepCommand.class})
public final class Main implements Runnable {

  /** Exit code for bad input (unknown flag, invalid topology, malformed file). */
  public static final int EXIT_BAD_INPUT = 2;

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setParameterExceptionHandler(
        (ex, argv) -> {
          ex.getCommandLine().getErr().println("hicache-sync: " + ex.getMessage());
          return EXIT_BAD_INPUT;
        });
    System.exit(cli.execute(args));
  }
}
