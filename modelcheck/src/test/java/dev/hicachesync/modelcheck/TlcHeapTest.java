package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every TLC JVM gets a young generation sized by its worker threads, and a caller's own size wins. */
class TlcHeapTest {

  private static List<String> commandOf(int workers, List<String> callerOptions) throws Exception {
    Workspace ws = TestSpecs.workspace();
    TlcJob job = new TlcJob("heap", "Grid", ws.models().resolve("Grid.cfg"), List.of(ws.spec()), ws.work(), workers,
        Duration.ofMinutes(1), callerOptions);
    Path dir = Files.createDirectories(ws.work().resolve("heap"));
    return new TlcRunner(TlcJar.locate(), ProgressListener.NONE).command(job, dir, workers);
  }

  @Test
  void theYoungGenerationGrowsWithTheWorkerThreads() throws Exception {
    assertTrue(commandOf(1, List.of()).contains("-Xmn32m"), commandOf(1, List.of()).toString());
    assertTrue(commandOf(2, List.of()).contains("-Xmn64m"), commandOf(2, List.of()).toString());
    assertTrue(commandOf(2, List.of()).contains("-XX:+UseParallelGC"));
  }

  @Test
  void theCallersOwnSizeComesLastSoHotSpotTakesIt() throws Exception {
    List<String> command = commandOf(1, List.of("-Xmn512m"));
    int ours = command.indexOf("-Xmn32m");
    int callers = command.indexOf("-Xmn512m");
    assertTrue(ours >= 0 && callers > ours, command.toString());
    assertTrue(callers < command.indexOf("-cp"), "JVM options come before the class path: " + command);
  }

  @Test
  void oneWorkerIsTheLeastAJvmGets() {
    assertEquals(TlcHeap.optionsFor(1), TlcHeap.optionsFor(0));
  }
}
