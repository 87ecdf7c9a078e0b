package dev.hicachesync.modelcheck.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheRank;
import dev.hicachesync.api.StepOrder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The embedding guide's step table is {@link StepOrder}, phase for phase, and every call it names is a public
 * method of {@link HiCacheRank}. With {@code -Dhicache.docs.write=true} the test writes the table instead
 * (and still checks).
 */
class StepOrderDocTest {

  static final String DOC = "docs/tutorial/embed-a-rank.md";
  static final String BLOCK = "step-order";

  /** The table: one row per phase, in order, then the one variant. */
  static List<String> render() {
    List<String> lines = new ArrayList<>();
    lines.add("| # | phase (`StepOrder`) | SGLang | calls, in order | how often |");
    lines.add("|---:|---|---|---|---|");
    int n = 1;
    for (StepOrder p : StepOrder.values()) {
      String calls = p.calls().isEmpty() ? "the engine's own RECV (no call of the rank)"
          : p.calls().stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
      String often = p.repeat() == StepOrder.Repeat.ONCE ? "once per step" : "per request, in queue order";
      lines.add("| " + n++ + " | `" + p.name() + "` | `" + p.sglang() + "` | " + calls + " | " + often + " |");
    }
    lines.add("");
    lines.add("Where a batch's result is processed (`StepOrder.Finish`): `END_OF_STEP` as above, or `AFTER_NEXT_RECV`"
        + " (`" + StepOrder.step(StepOrder.Finish.AFTER_NEXT_RECV).stream().map(Enum::name)
            .collect(Collectors.joining(", ")) + "`), the order `HiCacheSync.tla` follows by default.");
    return lines;
  }

  @Test
  void theGuidesTableIsTheStepOrder() throws Exception {
    Path doc = Docs.root().resolve(DOC);
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    String expected = GeneratedBlocks.replace(text, BLOCK, arg -> render());
    if (Boolean.getBoolean("hicache.docs.write") && !expected.equals(text)) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
      text = expected;
    }
    assertEquals(1, GeneratedBlocks.find(text, BLOCK).size(), DOC + " has one step-order table");
    assertTrue(expected.equals(text), DOC + "'s step table is not StepOrder; regenerate it with:\n  mvn -B -q -pl"
        + " modelcheck -am test -Dtest=StepOrderDocTest -Dsurefire.failIfNoSpecifiedTests=false"
        + " -Dhicache.docs.write=true");
  }

  @Test
  void everyCallIsAPublicMethodOfTheRank() {
    Set<String> methods = Arrays.stream(HiCacheRank.class.getMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers())).map(Method::getName).collect(Collectors.toSet());
    for (StepOrder p : StepOrder.values()) {
      for (String call : p.calls()) {
        assertTrue(methods.contains(call), p + " names " + call + ", which HiCacheRank does not have");
      }
    }
  }

  @Test
  void theVariantMovesOnlyTheFinishToRightAfterRecv() {
    List<StepOrder> normal = StepOrder.step(StepOrder.Finish.END_OF_STEP);
    List<StepOrder> overlap = StepOrder.step(StepOrder.Finish.AFTER_NEXT_RECV);
    assertEquals(List.of(StepOrder.values()), normal);
    assertEquals(StepOrder.FINISH, overlap.get(overlap.indexOf(StepOrder.RECV) + 1));
    List<StepOrder> rest = new ArrayList<>(overlap);
    rest.remove(StepOrder.FINISH);
    List<StepOrder> normalRest = new ArrayList<>(normal);
    normalRest.remove(StepOrder.FINISH);
    assertEquals(normalRest, rest);
  }
}
