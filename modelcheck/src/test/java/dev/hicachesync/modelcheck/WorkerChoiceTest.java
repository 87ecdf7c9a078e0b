package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The default TLC workers per model, and the models that keep one worker whatever the default. */
class WorkerChoiceTest {

  @Test
  void aModelAloneOnTwoCoresGetsBoth() {
    assertEquals(2, WorkerChoice.defaultWorkers(2, 1));
  }

  @Test
  void modelsSideBySideShareTheCores() {
    assertEquals(1, WorkerChoice.defaultWorkers(2, 2));
    assertEquals(1, WorkerChoice.defaultWorkers(3, 2));
    assertEquals(2, WorkerChoice.defaultWorkers(16, 4));
    assertEquals(1, WorkerChoice.defaultWorkers(1, 1));
    assertEquals(WorkerChoice.MAX_DEFAULT, WorkerChoice.defaultWorkers(64, 1));
  }

  @Test
  void neverMoreWorkersThanCoresAndAlwaysOne() {
    for (int cores = 1; cores <= 64; cores++) {
      for (int jobs = 1; jobs <= cores; jobs++) {
        int w = WorkerChoice.defaultWorkers(cores, jobs);
        assertTrue(w >= 1 && jobs * w <= cores, cores + " cores, " + jobs + " jobs: " + w + " workers");
      }
      assertEquals(1, WorkerChoice.defaultWorkers(cores, cores + 1), "more jobs than cores still run");
    }
  }

  @Test
  void violatingAndLivenessModelsKeepOneWorker() {
    ModelChecker checker = new ModelChecker(TestSpecs.workspace(), null, 2, null, List.of());
    Recorded big = new Recorded(91_066, 96.9, 170);
    assertEquals(2, checker.jobFor(model("safe", false, "holds", big)).workers());
    assertEquals(1, checker.jobFor(model("bug", false, "violates TreeAgreement", big)).workers(),
        "a counterexample must stay a shortest one");
    assertEquals(1, checker.jobFor(model("dead", false, "deadlock", big)).workers());
    assertEquals(1, checker.jobFor(model("live", true, "holds", big)).workers());
  }

  private static ModelEntry model(String name, boolean liveness, String expected, Recorded recorded) {
    return JitChoiceTest.model(name, liveness, expected, recorded);
  }
}
