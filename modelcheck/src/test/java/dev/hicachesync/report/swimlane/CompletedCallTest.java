package dev.hicachesync.report.swimlane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.TlaDefinitions;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The completing actions {@link CompletedCall} knows by name are those {@code HiCacheSync.tla} defines. */
class CompletedCallTest {

  @Test
  void theNamedStepsAreHiCacheSyncsCompletingActionsWithTheirSites() throws Exception {
    String spec = Files.readString(TestSpecs.root().resolve("spec/HiCacheSync.tla"));
    List<String> disjuncts = TlaDefinitions.disjuncts(spec, "SomeCollectiveCompletes");
    assertEquals(new TreeSet<>(CompletedCall.STEP_SITES.keySet()), new TreeSet<>(disjuncts));
    // A scheduler step names its site in the spec; the prefetch thread's and the async handle's have one each.
    Map<String, String> sites = new TreeMap<>();
    for (String action : disjuncts) {
      Matcher at = Pattern.compile("(?m)^" + action + " ==\\n\\s+\\\\E r \\\\in Ranks : SchedCompletesAt\\(r, \"(\\w+)\"\\)")
          .matcher(spec);
      if (at.find()) {
        sites.put(action, at.group(1));
      }
    }
    Map<String, String> scheduler = new TreeMap<>(CompletedCall.STEP_SITES);
    scheduler.keySet().removeIf(a -> !a.startsWith("Sched"));
    assertEquals(scheduler, sites);
  }
}
