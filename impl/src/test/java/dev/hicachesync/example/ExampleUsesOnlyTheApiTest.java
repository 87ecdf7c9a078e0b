package dev.hicachesync.example;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Fails if the worked example reaches past the public API: every class name in the constant pool of every
 * class file the example compiles to (nested classes included) must be {@code java.*}, the example's own,
 * {@code dev.hicachesync.api.*} outside its internal package {@code api.internal}, or one of the
 * engine-facing contracts the example uses ({@link #CONTRACTS}: the device pool it passes). The constant pool, not the
 * imports, because a fully qualified name in the code needs no import.
 */
class ExampleUsesOnlyTheApiTest {
  /** Engine-facing classes outside the API package that the example may name: the device pool it passes. */
  static final List<String> CONTRACTS = List.of("dev/hicachesync/tier/DeviceTier",
      "dev/hicachesync/tier/HostMemoryDeviceTier");
  private static final Pattern PROJECT_CLASS = Pattern.compile("dev/hicachesync/[A-Za-z0-9_/$]+");

  @Test
  void theExampleNamesNoInternalClass() throws IOException {
    List<String> classFiles = List.of("ServingLoopExample", "ServingLoopExample$Report",
        "ServingLoopExample$Request", "ServingLoopExample$Scheduler", "ServingLoopExample$Running");
    TreeSet<String> internal = new TreeSet<>();
    for (String name : classFiles) {
      internal.addAll(internalNames(name));
    }
    assertEquals(new TreeSet<>(), internal, "the worked example uses internal classes");
  }

  @Test
  void theScanSeesTheApiTheExampleUses() throws IOException {
    // The scan is only worth something if it finds project classes at all.
    assertTrue(projectNames("ServingLoopExample$Scheduler").contains("dev/hicachesync/api/HiCacheRank"));
  }

  /** Returns the project classes named in {@code simpleName}'s class file that the example may not use. */
  static List<String> internalNames(String simpleName) throws IOException {
    List<String> out = new ArrayList<>();
    for (String n : projectNames(simpleName)) {
      boolean api = n.startsWith("dev/hicachesync/api/") && !n.startsWith("dev/hicachesync/api/internal/");
      boolean own = n.startsWith("dev/hicachesync/example/");
      if (!api && !own && !CONTRACTS.contains(n)) {
        out.add(simpleName + " -> " + n);
      }
    }
    return out;
  }

  /** Returns the {@code dev/hicachesync/...} names in the class file's constant pool (its UTF-8 entries). */
  static TreeSet<String> projectNames(String simpleName) throws IOException {
    try (InputStream in = ExampleUsesOnlyTheApiTest.class.getResourceAsStream(simpleName + ".class")) {
      if (in == null) {
        throw new IllegalStateException("no class file for " + simpleName);
      }
      // Latin-1 keeps every byte; the names we look for are ASCII, so a plain search of the bytes suffices.
      String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      TreeSet<String> names = new TreeSet<>();
      Matcher m = PROJECT_CLASS.matcher(bytes);
      while (m.find()) {
        names.add(m.group());
      }
      return names;
    }
  }
}
