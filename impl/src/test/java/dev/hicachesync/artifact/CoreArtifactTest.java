package dev.hicachesync.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.api.HiCacheRank;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What an engine pulls when it depends on the core artifact: no runtime dependency (the pom), no class outside
 * the JDK (the compiled classes, by {@code jdeps}), and a module descriptor that exports the API and the
 * engine-facing contracts only. The JCuda tier, JGroups process groups, NDJSON traces and the simulator are
 * separate artifacts.
 */
class CoreArtifactTest {
  private static final String P = "dev.hicachesync.";

  @Test
  void thePomDeclaresNoDependencyAnEngineWouldPull() throws Exception {
    List<String> pulled = new ArrayList<>();
    for (Path pom : List.of(Path.of("pom.xml"), Path.of("..", "pom.xml"))) {
      Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
          .getDocumentElement();
      List<Element> blocks = new ArrayList<>(children(project, "dependencies"));
      for (Element profiles : children(project, "profiles")) { // a profile's dependencies are pulled when it is active
        for (Element profile : children(profiles, "profile")) {
          blocks.addAll(children(profile, "dependencies"));
        }
      }
      for (Element deps : blocks) {
        for (Element d : children(deps, "dependency")) {
          String scope = text(d, "scope");
          if (!"test".equals(scope)) {
            pulled.add(text(d, "groupId") + ":" + text(d, "artifactId") + " (" + (scope == null ? "compile" : scope)
                + ", " + pom + ")");
          }
        }
      }
    }
    assertEquals(List.of(), pulled, "dependencies of the core outside test scope");
  }

  @Test
  void theCompiledClassesReferenceNothingOutsideTheJdk() throws Exception {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
    StringWriter out = new StringWriter();
    int rc = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", coreLocation().toString());
    assertEquals(0, rc, out.toString());
    // one line per (package -> package  module): a class outside the JDK and this module is "not found"
    Set<String> outside = new TreeSet<>();
    for (String line : out.toString().split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 3 && f[1].equals("->") && !f[2].startsWith("java.") && !f[2].startsWith("javax.")
          && !f[2].startsWith(P) && !f[2].startsWith("jdk.")) {
        outside.add(f[2] + " " + String.join(" ", List.of(f).subList(3, f.length)));
      }
    }
    assertTrue(out.toString().contains("-> java.lang"), "jdeps printed no dependency at all:\n" + out);
    assertEquals(Set.of(), outside, "packages outside the JDK that the core's classes use");
  }

  @Test
  void theModuleExportsTheApiAndTheEngineContractsOnly() throws Exception {
    ModuleDescriptor m = descriptor();
    assertEquals("dev.hicachesync", m.name());
    Map<String, Set<String>> exports = new TreeMap<>();
    for (ModuleDescriptor.Exports e : m.exports()) {
      exports.put(e.source().substring(P.length()), e.isQualified() ? new TreeSet<>(e.targets()) : Set.of("*"));
    }
    Map<String, Set<String>> expected = new TreeMap<>();
    for (String p : List.of("api", "collective", "env", "monitor", "storage", "tier", "topology", "trace",
        "vocabulary")) {
      expected.put(p, Set.of("*"));
    }
    expected.put("api.internal", Set.of(P + "sim"));
    expected.put("controller", Set.of(P + "sim"));
    expected.put("sync", Set.of(P + "sim", P + "cluster"));
    expected.put("tree", Set.of(P + "sim"));
    assertEquals(expected, exports);
    assertEquals(Set.of("java.base"), m.requires().stream().map(ModuleDescriptor.Requires::name)
        .collect(Collectors.toSet()), "modules the core requires");
    assertEquals(Set.of(P + "tier.GpuDeviceTierProvider"), m.uses());
  }

  private static ModuleDescriptor descriptor() throws IOException, URISyntaxException {
    Path loc = coreLocation();
    if (Files.isDirectory(loc)) {
      try (InputStream in = Files.newInputStream(loc.resolve("module-info.class"))) {
        return ModuleDescriptor.read(in);
      }
    }
    try (var jar = new java.util.jar.JarFile(loc.toFile());
        InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** The core's classes folder (or jar) on this test's class path. */
  private static Path coreLocation() throws URISyntaxException {
    return Path.of(HiCacheRank.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> r = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e && e.getTagName().equals(name)) {
        r.add(e);
      }
    }
    return r;
  }

  private static String text(Element parent, String name) {
    List<Element> c = children(parent, name);
    return c.isEmpty() ? null : c.get(0).getTextContent().trim();
  }
}
