package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process cases of the fault battery, each with {@code simulate --processes} as a real child process (so it
 * can be killed) and its four rank JVMs under it: the launcher killed with {@code kill -9} leaves no rank running;
 * a rank stopped with {@code SIGSTOP} past the collective timeout is exit 5, named by every other rank and in the
 * launcher's line for it. Short timeouts (1 s) keep each case to seconds past the JVMs' start.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ProcessFaultsTest {
  @TempDir Path dir;
  private Process launcher;
  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void endEverything() throws Exception {
    for (ProcessHandle h : started) {
      signal("CONT", h); // a stopped rank cannot even die
      h.destroyForcibly();
    }
    if (launcher != null) {
      launcher.destroyForcibly();
      launcher.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** Starts the launcher of a long run and returns its rank processes once all four are stepping. */
  private List<ProcessHandle> startWorld() throws Exception {
    Path digests = dir.resolve("digests");
    List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "simulate", "--processes", "--storage", "off", "--cp", "2", "--tp", "2", "--steps", "10000000",
        "--timeout-ms", "1000", "--digest-log", digests.toString()));
    launcher = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("launcher.out").toFile())
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!allStepping(digests)) {
      assertTrue(launcher.isAlive(), "the launcher ended before its ranks stepped: " + output());
      assertTrue(System.nanoTime() < deadline, "the ranks did not start stepping within 180 s: " + output());
      launcher.waitFor(200, TimeUnit.MILLISECONDS); // returns early only if the launcher ends
    }
    List<ProcessHandle> ranks = launcher.toHandle().children().toList();
    started.addAll(ranks);
    assertEquals(4, ranks.size(), "four rank processes under the launcher");
    return ranks;
  }

  /** Whether every rank has written a digest (it joined the world and runs steps). */
  private static boolean allStepping(Path digests) throws IOException {
    for (int r = 0; r < 4; r++) {
      Path f = digests.resolve("rank-" + r + ".digests");
      if (!Files.exists(f) || Files.size(f) == 0) {
        return false;
      }
    }
    return true;
  }

  private String output() throws IOException {
    return Files.readString(dir.resolve("launcher.out"), StandardCharsets.UTF_8);
  }

  /** The rank process whose arguments say {@code --rank r}. */
  private static ProcessHandle rank(List<ProcessHandle> ranks, int r) {
    for (ProcessHandle h : ranks) {
      Optional<String[]> args = h.info().arguments();
      List<String> a = args.map(List::of).orElse(List.of());
      int i = a.indexOf("--rank");
      if (i >= 0 && a.get(i + 1).equals(String.valueOf(r))) {
        return h;
      }
    }
    throw new AssertionError("no rank " + r + " among " + ranks);
  }

  private static void signal(String sig, ProcessHandle h) throws Exception {
    new ProcessBuilder("kill", "-" + sig, String.valueOf(h.pid())).start().waitFor(10, TimeUnit.SECONDS);
  }

  @Test
  void killingTheLauncherWithSigkillLeavesNoRankRunning() throws Exception {
    List<ProcessHandle> ranks = startWorld();
    launcher.destroyForcibly(); // SIGKILL: no shutdown hook runs, the launcher cannot kill its ranks itself
    assertTrue(launcher.waitFor(10, TimeUnit.SECONDS));
    for (ProcessHandle h : ranks) {
      // Its standard input was the launcher's pipe: the kernel closed it, the rank read end-of-file and ended.
      h.onExit().get(20, TimeUnit.SECONDS);
      assertTrue(!h.isAlive(), "rank process " + h.pid() + " still running without its launcher");
    }
  }

  @Test
  void aStoppedRankIsExitFiveNamedByEverySurvivorAndTheLauncher() throws Exception {
    List<ProcessHandle> ranks = startWorld();
    signal("STOP", rank(ranks, 2));
    assertTrue(launcher.waitFor(120, TimeUnit.SECONDS), "the launcher did not end: " + output());
    String out = output();
    assertEquals(Main.EXIT_RANK_LOST, launcher.exitValue(), out);
    Pattern survivor = Pattern.compile("rank (\\d): exit 5, .*: hicache-sync rank: rank \\1: .*\\(lost peer rank\\(s\\):"
        + " \\[([0-9, ]*)\\]\\)");
    int named = 0;
    for (String line : out.lines().toList()) {
      Matcher m = survivor.matcher(line);
      if (m.matches()) {
        assertTrue(List.of(m.group(2).split(", ")).contains("2"), "names rank 2: " + line);
        assertTrue(!line.contains("CollectiveMatching") && !line.contains("divergence"), line);
        named++;
      }
    }
    assertEquals(3, named, "ranks 0, 1 and 3 each exit 5 naming rank 2:\n" + out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("rank 2: exit 137") && l.contains("the other ranks named it")),
        out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("hicache-sync simulate: rank process(es) [2] lost")), out);
  }
}
