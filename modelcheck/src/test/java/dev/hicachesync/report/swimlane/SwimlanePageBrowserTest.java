package dev.hicachesync.report.swimlane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hicachesync.modelcheck.TestSpecs;
import dev.hicachesync.modelcheck.validate.SpecEvent;
import dev.hicachesync.modelcheck.validate.SpecEvents;
import dev.hicachesync.modelcheck.validate.Validation;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.ndjson.TraceReader;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The swimlane pages in a real headless browser: Debian's {@code chromium} driven through {@code
 * chromium-driver} by Selenium (installed by {@code .ci/run}). Skipped, not failed, where either binary
 * is missing; {@code -Dhicache.chromium=PATH} and {@code -Dhicache.chromedriver=PATH} point elsewhere.
 */
class SwimlanePageBrowserTest {

  /** Selenium warns that it has no CDP binding for this chromium; the test uses none. Held: loggers are weak. */
  private static final java.util.logging.Logger CDP = java.util.logging.Logger.getLogger(
      "org.openqa.selenium.devtools.CdpVersionFinder");

  private static ChromeDriver driver;
  private static Path pages;

  @BeforeAll
  static void startBrowser() throws Exception {
    Optional<Path> chromium = binary("hicache.chromium", "chromium", "chromium-browser", "google-chrome");
    Optional<Path> chromedriver = binary("hicache.chromedriver", "chromedriver");
    if (chromium.isEmpty() || chromedriver.isEmpty()) {
      return; // every test then skips itself, naming what is missing (@BeforeEach)
    }
    CDP.setLevel(Level.OFF);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(chromium.get().toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--window-size=1600,1200");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver.get().toFile()).usingAnyFreePort().build();
    driver = new ChromeDriver(service, options);
    pages = Files.createDirectories(TestSpecs.root().resolve("modelcheck/target/swimlane-browser-test"));
  }

  @BeforeEach
  void needsTheBrowser() {
    assumeTrue(driver != null,
        "no chromium and chromedriver on PATH (apt-get install chromium chromium-driver): browser test skipped");
  }

  @AfterAll
  static void stopBrowser() {
    if (driver != null) {
      driver.quit();
    }
  }

  @Test
  void b1PageShowsBothLanesEveryReceiveAndTheViolatingState() throws Exception {
    open("b1", SwimlanePage.render(KnownCounterexamples.b1()));
    assertEquals(List.of("0", "1"), attributes(".lane-head", "data-lane"));
    assertEquals(List.of("2 RECV domain 0,1 <<1>>", "3 RECV domain 0,1 <<2>>", "5 RECV domain 0,1 <<0>>"), collectives());
    assertEquals(List.of("5"), attributes(".step.violating", "data-state"));
    assertEquals(List.of("5"), attributes(".step.first-divergence", "data-state"));
    assertTrue(text("#verdict").startsWith("violates TreeAgreement at state 5;"), text("#verdict"));
    String difference = text("#difference");
    assertTrue(difference.contains("tree") && difference.contains("rank 0") && difference.contains("rank 1"), difference);
    // The violating row is the one the eye is drawn to: its cells are tinted.
    String tint = driver.findElement(By.cssSelector(".step.violating > .num")).getCssValue("background-color");
    assertEquals("rgba(255, 235, 238, 1)", tint);

    // Hover over rank 0's box in state 5: the panel shows that rank's whole state there.
    WebElement box = driver.findElement(By.cssSelector(".box[data-state='5'][data-rank='0']"));
    new Actions(driver).moveToElement(box).perform();
    String panel = text("#details");
    assertTrue(panel.startsWith("state 5: SomeCollectiveCompletes"), panel);
    assertTrue(panel.contains("rank 0") && !panel.contains("rank 1") && panel.contains("tree"), panel);
    // Click pins it: moving on to another state does not replace it.
    box.click();
    new Actions(driver).moveToElement(driver.findElement(By.cssSelector(".cell.num[data-state='2']"))).perform();
    assertTrue(text("#details").startsWith("state 5:"), text("#details"));
    assertNoConsoleErrors();
  }

  @Test
  void b13PageDrawsEveryCollectiveAcrossItsMembersLanes() throws Exception {
    open("b13", SwimlanePage.render(KnownCounterexamples.b13()));
    assertEquals(List.of("0", "1", "2", "3"), attributes(".lane-head", "data-lane"));
    long completing = KnownCounterexamples.trace("b13_writer_global_tp0").states().stream()
        .filter(s -> s.action().equals("SomeCollectiveCompletes")).count();
    assertEquals(completing, driver.findElements(By.cssSelector(".collective")).size());
    assertTrue(collectives().contains("12 S7 attn_cp 0,2 <<0, 0>>"), collectives().toString());
    // The bar spans from the first member's lane to the last one's, and each member's chip sits in its lane.
    for (WebElement c : driver.findElements(By.cssSelector(".collective[data-members='0,2']"))) {
      Rectangle bar = c.getRect();
      Rectangle first = lane(0);
      Rectangle last = lane(2);
      assertEquals(first.getX(), bar.getX(), 2, "bar starts at lane 0");
      assertEquals(last.getX() + last.getWidth(), bar.getX() + bar.getWidth(), 2, "bar ends at lane 2");
      for (WebElement chip : c.findElements(By.cssSelector(".sent"))) {
        Rectangle lane = lane(Integer.parseInt(chip.getAttribute("data-rank")));
        int middle = chip.getRect().getX() + chip.getRect().getWidth() / 2;
        assertTrue(middle > lane.getX() && middle < lane.getX() + lane.getWidth(), "chip in its lane");
      }
    }
    assertEquals(List.of("33"), attributes(".step.violating", "data-state"));
    assertNoConsoleErrors();
  }

  @Test
  void deadlockPageMarksTheLastState() throws Exception {
    open("b3", SwimlanePage.render(KnownCounterexamples.b3()));
    assertEquals(List.of("5"), attributes(".step.violating", "data-state"));
    assertTrue(text("#verdict").startsWith("deadlock at state 5"), text("#verdict"));
    assertNoConsoleErrors();
  }

  @Test
  void tracePageMarksTheFirstUnmatchedEvent() throws Exception {
    Trace trace = TraceReader.read(TestSpecs.root().resolve("modelcheck/src/test/resources/trace/merged-cp2tp2-seed5.ndjson"));
    List<SpecEvent> events = SpecEvents.merge(trace);
    Validation rejected = new Validation(Validation.Outcome.REJECTED, events.size(), Optional.of(events.get(4)), "",
        List.of("rank 2: sched S123 stage 2 on attn_tp <<0, 0, 0, 0, 0>>"), "", Optional.empty(), Optional.empty());
    open("trace", TracePage.render("merged-cp2tp2-seed5.ndjson", trace.header(), events, rejected));
    assertEquals(List.of("0", "1", "2", "3"), attributes(".lane-head", "data-lane"));
    assertEquals(List.of("5"), attributes(".step.rejected", "data-state"));
    assertEquals(events.size() - 5, driver.findElements(By.cssSelector(".step.after-reject")).size());
    assertEquals(events.stream().filter(e -> !e.members().isEmpty()).count(),
        driver.findElements(By.cssSelector(".collective")).size());
    assertTrue(text("#verdict").contains("no behaviour of HiCacheSync matches event 5"), text("#verdict"));
    assertNoConsoleErrors();
  }

  private static void open(String name, String html) throws Exception {
    open(name, html, 1600, 1200);
  }

  private static void open(String name, String html, int width, int height) throws Exception {
    driver.manage().window().setSize(new Dimension(width, height));
    Path file = pages.resolve(name + ".html");
    Files.writeString(file, html);
    driver.manage().logs().get(LogType.BROWSER);   // drop what earlier pages logged
    driver.get(file.toUri().toString());
  }

  @Test
  void eightRanksFitAt1400PixelsBesideThePanelWithEveryRankInTheDifferences() throws Exception {
    open("eight", SwimlanePage.render(KnownCounterexamples.eightRanks()), 1400, 900);
    assertEquals(List.of("0", "1", "2", "3", "4", "5", "6", "7"), attributes(".lane-head", "data-lane"));
    assertLaidOut();
    assertEquals(8, driver.findElements(By.cssSelector("#difference th[data-rank]")).size(), "a column per rank");
    // The property's own variables first: TreeAgreement compares tree, nextId, reqIdx, waiting, backlog, running.
    String firstField = driver.findElement(By.cssSelector("#difference tr[data-path]")).getAttribute("data-path");
    assertTrue(firstField.matches("(tree|nextId|reqIdx|waiting|backlog|running)\\b.*"), firstField);
    assertTrue(text("#property").contains("TreeAgreement == AgreeAt("), text("#property"));
    assertNoConsoleErrors();
  }

  @Test
  void pipelinePageDrawsMessagesAsArrowsAndComparesTheStagesLogs() throws Exception {
    open("pp", SwimlanePage.render(KnownCounterexamples.withStory("b6_stage_local", "violates TreeAgreement")), 1400, 900);
    assertLaidOut();
    List<WebElement> arrows = driver.findElements(By.cssSelector(".message[data-from='0'][data-to='1']"));
    assertFalse(arrows.isEmpty(), "stage 0's messages to stage 1");
    Rectangle arrow = arrows.get(0).getRect();
    assertEquals(lane(0).getX(), arrow.getX(), 2, "the arrow starts at the sender's lane");
    assertEquals(lane(1).getX() + lane(1).getWidth(), arrow.getX() + arrow.getWidth(), 2, "and ends at the receiver's");
    assertFalse(driver.findElements(By.cssSelector(".cell[data-rank='1'] .recv[data-from='0']")).isEmpty(), "received");
    assertEquals(List.of("8"), attributes(".step.first-divergence", "data-state"), "stages compared at equal steps");
    String first = driver.findElement(By.cssSelector("#difference tr[data-path]")).getAttribute("data-path");
    assertTrue(first.startsWith("ls.log["), "the logged entries the property compares come first: " + first);
    assertTrue(driver.findElement(By.cssSelector("#bug a.ref")).getAttribute("href").endsWith("/issues/22607"));
    assertNoConsoleErrors();
  }

  @Test
  void deadlockPageNamesWhoNeverPostedAndFoldsTheStartUpBarriers() throws Exception {
    open("b2", SwimlanePage.render(KnownCounterexamples.withStory("b2_cache_group_spans_replicas", "deadlock")), 1400, 900);
    assertLaidOut();
    assertEquals(List.of("2", "3", "2", "3"), attributes("#waiting .missing", "data-rank"));
    WebElement bar = driver.findElement(By.cssSelector(".fold[data-fold^='setup']"));
    WebElement row = driver.findElement(By.cssSelector(".step[data-state='3'] > .num"));
    assertFalse(row.isDisplayed(), "a start-up barrier row is folded");
    bar.findElement(By.tagName("button")).click();
    assertTrue(row.isDisplayed(), "and opens on a click");
    assertNoConsoleErrors();
  }

  @Test
  void livenessPageMarksTheLoopAndFoldsItsSixtyStatesToOneScreenOfEvents() throws Exception {
    open("live", SwimlanePage.render(KnownCounterexamples.withStory("unified_buffer_b38428_stuck",
        "violates RequestsProgress")), 1400, 900);
    assertLaidOut();
    assertEquals(61 - 50 + 1, driver.findElements(By.cssSelector(".step.in-loop")).size(), "states 50..61");
    assertTrue(driver.findElement(By.cssSelector(".loop-back[data-loop-target='50']")).isDisplayed());
    int folded = driver.findElements(By.cssSelector(".step.folded")).size();
    assertTrue(folded >= 10, "posting-only steps folded: " + folded);
    driver.findElement(By.id("unfold-all")).click();
    assertEquals(0, driver.findElements(By.cssSelector(".step.folded")).size());
    // Vector payloads: positions named, the member that sent something else marked.
    List<String> marked = attributes(".sent mark.odd", "data-position");
    assertFalse(marked.isEmpty(), "a member that sent something else is marked");
    assertTrue(driver.findElements(By.cssSelector(".sent[title*=' = '] mark.odd")).size() > 0,
        "in a vector whose positions are named (S5's pages read, in this counterexample)");
    assertNoConsoleErrors();
  }

  @Test
  void unifiedPageMarksTheDivergenceNotTheEnvironmentChoiceThatCausedIt() throws Exception {
    open("unified", SwimlanePage.render(KnownCounterexamples.withStory("unified_b10_batch_full_exit", "deadlock")), 1400, 900);
    List<String> marked = attributes(".step.first-divergence", "data-state");
    assertEquals(1, marked.size());
    String action = driver.findElement(By.cssSelector(".step.first-divergence > .action .aname")).getText();
    assertFalse(action.startsWith("Env"), "the mark is not on an environment step: " + action);
    assertTrue(text("#causes").contains("EnvBatchFull: rank 0 env.bf=TRUE"), text("#causes"));
    assertNoConsoleErrors();
  }

  @Test
  void sixteenRanksFitAt1920Pixels() throws Exception {
    // A trace of 16 ranks (CP 8 x TP 2) made here: no catalogue model has 16; the layout is what is tested.
    List<dev.hicachesync.modelcheck.trace.TraceState> states = new ArrayList<>();
    for (int n = 1; n <= 3; n++) {
      StringBuilder tree = new StringBuilder("(");
      for (int r = 0; r < 16; r++) {
        tree.append(r == 0 ? "" : " @@ ").append(r).append(" :> [dev |-> ").append(n > 1 && r % 3 == 0 ? "TRUE" : "FALSE")
            .append(", lock |-> ").append(n == 3 && r == 5 ? 1 : 0).append(", key |-> <<1, 2, 3, 4>>]");
      }
      states.add(new dev.hicachesync.modelcheck.trace.TraceState(n, n == 1 ? "Initial predicate" : "WriteEventCompletes",
          "", Map.of("tree", dev.hicachesync.modelcheck.value.TlaValueParser.parse(tree + ")"))));
    }
    var trace = new dev.hicachesync.modelcheck.trace.ErrorTrace(states, dev.hicachesync.modelcheck.trace.ErrorTrace.Ending.PREFIX, 0);
    open("sixteen", SwimlanePage.render(CounterexampleView.of("sixteen", "violates TreeAgreement", trace,
        new dev.hicachesync.topology.Topology(1, 8, 2, 1))), 1920, 1000);
    assertEquals(16, driver.findElements(By.cssSelector(".lane-head")).size());
    assertLaidOut();
    assertEquals(16, driver.findElements(By.cssSelector("#difference th[data-rank]")).size());
    assertEquals(List.of("5"), attributes("#difference tr[data-path='tree.lock'] td.odd", "data-rank"), "the odd member");
    assertNoConsoleErrors();
  }

  /**
   * Nothing hidden, nothing overlapping: every lane heading and the shared column inside the window and left
   * of the side panel, the headings side by side, every box inside its lane cell, no label wider than its box,
   * no action name broken inside a word.
   */
  private static void assertLaidOut() {
    @SuppressWarnings("unchecked")
    List<String> problems = (List<String>) driver.executeScript("""
        var out = [];
        var panel = document.getElementById('details').getBoundingClientRect();
        var width = document.documentElement.clientWidth;
        var heads = Array.from(document.querySelectorAll('.lane-head, .global-head'));
        heads.forEach(function (h, i) {
          var r = h.getBoundingClientRect();
          if (r.left < 0 || r.right > width + 1) { out.push(h.textContent + ' outside the window'); }
          if (r.right > panel.left + 1) { out.push(h.textContent + ' under the side panel'); }
          if (i > 0 && heads[i - 1].getBoundingClientRect().right > r.left + 1) { out.push(h.textContent + ' overlaps'); }
        });
        document.querySelectorAll('.box').forEach(function (b) {
          var r = b.getBoundingClientRect(), c = b.parentElement.getBoundingClientRect();
          if (r.left < c.left - 1 || r.right > c.right + 1) { out.push('box of state ' + b.dataset.state + ' leaves its lane'); }
        });
        document.querySelectorAll('.act, .aname, .lane-head, .coll-label').forEach(function (e) {
          if (e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).display !== 'inline') {
            out.push('"' + e.textContent + '" wider than its box');
          }
        });
        // A name breaks only between its words (at its <wbr>s): no word's text spans two lines.
        document.querySelectorAll('.act, .aname').forEach(function (e) {
          e.childNodes.forEach(function (t) {
            if (t.nodeType !== 3 || t.textContent.trim() === '') { return; }
            var range = document.createRange();
            range.selectNodeContents(t);
            var lines = new Set(Array.from(range.getClientRects()).map(function (r) { return Math.round(r.top); }));
            if (lines.size > 1) { out.push('"' + t.textContent + '" of ' + e.textContent + ' broken mid-word'); }
          });
        });
        return out;
        """);
    assertEquals(List.of(), problems);
  }

  /** "state site group members result" of every collective, in page order. */
  private static List<String> collectives() {
    List<String> out = new ArrayList<>();
    for (WebElement c : driver.findElements(By.cssSelector(".step .collective"))) {
      WebElement step = c.findElement(By.xpath("ancestor::div[contains(@class, 'step')][1]"));
      out.add(step.getAttribute("data-state") + " " + c.getAttribute("data-site") + " " + c.getAttribute("data-group") + " "
          + c.getAttribute("data-members") + " " + c.getAttribute("data-result"));
    }
    return out;
  }

  private static Rectangle lane(int rank) {
    return driver.findElement(By.cssSelector(".lane-head[data-lane='" + rank + "']")).getRect();
  }

  private static List<String> attributes(String css, String attribute) {
    return driver.findElements(By.cssSelector(css)).stream().map(e -> e.getAttribute(attribute)).toList();
  }

  private static String text(String css) {
    return driver.findElement(By.cssSelector(css)).getText();
  }

  private static void assertNoConsoleErrors() {
    List<String> errors = new ArrayList<>();
    for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) {
      if (e.getLevel().intValue() >= Level.WARNING.intValue()) {
        errors.add(e.getLevel() + " " + e.getMessage());
      }
    }
    assertEquals(List.of(), errors, "the browser console");
  }

  private static Optional<Path> binary(String property, String... names) {
    String given = System.getProperty(property);
    if (given != null && !given.isBlank()) {
      return Optional.of(Path.of(given)).filter(Files::isExecutable);
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : names) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return Optional.of(p);
        }
      }
    }
    return Optional.empty();
  }
}
