package dev.hicachesync.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.CollectivePeerLostException;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.collective.ReduceOp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rank in a real second process dies ({@code kill -9}) or stops ({@code SIGSTOP}) in the middle of a run of
 * collectives: the ranks that survive fail with a named error that names it, within the timeout plus 2 s.
 * Ranks 0 and 1 run in this JVM (each its own node and socket), rank 2 in a child JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterProcessFaultTest {
  private static final long TIMEOUT_MS = 3_000;
  private static final String IDENTITY = "version=merged topology=dp1,cp3,tp1,pp1";
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final List<ClusterNode> nodes = new ArrayList<>();
  private Process child;

  @AfterEach
  void tearDown() throws InterruptedException {
    if (child != null) {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
    pool.shutdownNow();
    nodes.forEach(ClusterNode::close);
  }

  @Test
  void aKilledRankIsNamedByEverySurvivorWithinTheTimeout() throws Exception {
    List<Future<Failure>> survivors = startAndRun();
    long killed = System.nanoTime();
    child.destroyForcibly(); // SIGKILL on Linux: no goodbye, its sockets just close
    for (Future<Failure> f : survivors) {
      Failure failure = f.get(30, TimeUnit.SECONDS);
      assertInstanceOf(CollectivePeerLostException.class, failure.error, failure.error.getMessage());
      assertTrue(failure.error.getMessage().contains("rank(s) [2] left the world"), failure.error.getMessage());
      long ms = TimeUnit.NANOSECONDS.toMillis(failure.at - killed);
      assertTrue(ms < TIMEOUT_MS + 2_000, "noticed after " + ms + " ms");
    }
    assertTrue(child.waitFor(10, TimeUnit.SECONDS));
    assertFalse(child.isAlive());
  }

  @Test
  void aStoppedRankIsNamedByEverySurvivorWithinTheTimeout() throws Exception {
    List<Future<Failure>> survivors = startAndRun();
    long stopped = System.nanoTime();
    Process stop = new ProcessBuilder("kill", "-STOP", String.valueOf(child.pid())).start();
    assertTrue(stop.waitFor(10, TimeUnit.SECONDS));
    for (Future<Failure> f : survivors) {
      Failure failure = f.get(30, TimeUnit.SECONDS);
      // A stopped process keeps its sockets, so only its silence tells: past the collective's timeout, a
      // missing member that sent no beat for the silence bound is lost, named as stopped (never a timeout, which
      // would read as a protocol hang); or the failure detector evicts it first, which names it as lost. A
      // survivor may wait for the other survivor too (rank 2 can stop after its call #k reached rank 1 but not
      // rank 0, so rank 1 goes on to #k+1 and waits there for both): it still names rank 2 alone.
      assertInstanceOf(CollectivePeerLostException.class, failure.error, failure.error.getMessage());
      String m = failure.error.getMessage();
      assertTrue(m.contains("rank(s) [2] stopped answering") || m.contains("rank(s) [2] left the world"), m);
      long ms = TimeUnit.NANOSECONDS.toMillis(failure.at - stopped);
      assertTrue(ms < TIMEOUT_MS + 2_000, "noticed after " + ms + " ms");
    }
  }

  private record Failure(CollectiveException error, long at) {}

  /** Whether a timeout message lists {@code rank} among its missing ranks ({@code missing rank(s) 0,2}). */
  static boolean namesAmongMissing(String message, int rank) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("missing rank\\(s\\) ([0-9,]+)").matcher(message);
    return m.find() && java.util.Arrays.asList(m.group(1).split(",")).contains(String.valueOf(rank));
  }

  /** Starts rank 2 as a child JVM, joins ranks 0 and 1 here, and runs collectives until 20 rounds passed. */
  private List<Future<Failure>> startAndRun() throws Exception {
    List<Integer> ports = Worlds.freePorts(3);
    String name = Worlds.uniqueName();
    List<String> cmd = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"),
        ClusterPeerMain.class.getName(), "3", "2", String.valueOf(TIMEOUT_MS), name, IDENTITY));
    ports.forEach(p -> cmd.add(String.valueOf(p)));
    child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    pool.submit(() -> drain(child));
    List<ClusterConfig> configs = List.of(
        Worlds.config(3, 0, ports, Duration.ofMillis(TIMEOUT_MS), IDENTITY, name),
        Worlds.config(3, 1, ports, Duration.ofMillis(TIMEOUT_MS), IDENTITY, name));
    nodes.addAll(Worlds.join(configs));
    CountDownLatch warm = new CountDownLatch(2);
    List<Future<Failure>> out = new ArrayList<>();
    for (ClusterNode node : nodes) {
      out.add(pool.submit(() -> {
        ProcessGroup g = node.group("world", List.of(0, 1, 2));
        try {
          for (long i = 0; ; i++) {
            g.allReduce("S1", ReduceOp.MIN, new long[] {i});
            if (i == 20) {
              warm.countDown();
            }
          }
        } catch (CollectiveException e) {
          return new Failure(e, System.nanoTime());
        }
      }));
    }
    assertTrue(warm.await(60, TimeUnit.SECONDS), "the three ranks never completed 20 collectives together");
    return out;
  }

  private static Void drain(Process p) throws IOException {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      while (r.readLine() != null) {
        // the child's output is not asserted on; reading it keeps its pipe from filling
      }
    }
    return null;
  }
}
