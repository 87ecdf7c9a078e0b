package dev.hicachesync.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A world's ports are its ranks' own, refused at once otherwise; a rank's launcher pipe ends it when it closes. */
class ClusterConfigTest {

  @Test
  void aPortGivenToTwoRanksIsRefusedNamingBoth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ClusterConfig(3, 0, "127.0.0.1", List.of(5000, 5001, 5000), Duration.ofSeconds(1), "id", "c"));
    assertEquals("port 5000 is given to rank 0 and rank 2: every rank binds a port of its own", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ClusterConfig.checkPorts(List.of(0, 1)));
    ClusterConfig.checkPorts(List.of(5000, 5001, 5002));
  }

  @Test
  void theWatchEndsWhenTheLauncherPipeCloses() throws Exception {
    PipedOutputStream launcher = new PipedOutputStream();
    PipedInputStream stdin = new PipedInputStream(launcher);
    CountDownLatch gone = new CountDownLatch(1);
    Thread watch = LauncherWatch.exitWhenClosed(stdin, gone::countDown);
    launcher.write("ignored".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    launcher.flush();
    assertTrue(!gone.await(200, TimeUnit.MILLISECONDS), "still running while the launcher holds the pipe");
    launcher.close();
    assertTrue(gone.await(10, TimeUnit.SECONDS), "the closed pipe ends the rank");
    watch.join(10_000);
  }
}
