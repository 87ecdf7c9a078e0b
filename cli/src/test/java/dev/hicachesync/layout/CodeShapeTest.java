package dev.hicachesync.layout;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Two rules of the codebase's shape, checked over the main sources of every module (this module has
 * them all on its test classpath):
 *
 * <ul>
 *   <li>no main source file is longer than {@value #MAX_LINES} lines: a class that grows past that
 *       holds several concerns and is split by concern;
 *   <li>no class shares its fields: every instance field and every mutable static field is private, so
 *       that one class owns each piece of state and others go through its methods. Constants ({@code
 *       static final}) are allowed, and so are the fields the libraries that fill them require to be
 *       visible: picocli's injected options and JMH's parameters and state classes.
 * </ul>
 *
 * Fields are read from the compiled classes (exact: no parsing of declarations); the file and line
 * printed for each finding come from the source.
 */
class CodeShapeTest {

  static final int MAX_LINES = 400;

  /** Annotations whose fields a library writes or reads by reflection, so they may not be private. */
  private static final Set<String> LIBRARY_FIELD_ANNOTATIONS =
      Set.of(
          "picocli.CommandLine$Option",
          "picocli.CommandLine$Parameters",
          "picocli.CommandLine$Mixin",
          "picocli.CommandLine$ArgGroup",
          "picocli.CommandLine$Spec",
          "picocli.CommandLine$ParentCommand",
          "picocli.CommandLine$Unmatched",
          "org.openjdk.jmh.annotations.Param");

  private static final String JMH_STATE = "org.openjdk.jmh.annotations.State";

  private static final Set<String> EXPECTED_MODULES =
      Set.of("impl", "impl-cuda", "impl-cluster", "impl-trace", "sim", "modelcheck", "cli");

  @Test
  void noMainSourceFileIsLongerThanTheLimit() {
    List<String> tooLong = new ArrayList<>();
    for (Path file : mainSources()) {
      int lines = lineCount(file);
      if (lines > MAX_LINES) {
        tooLong.add(relative(file) + ": " + lines + " lines");
      }
    }
    if (!tooLong.isEmpty()) {
      fail(
          "main classes over "
              + MAX_LINES
              + " lines (split them by concern):\n  "
              + String.join("\n  ", tooLong));
    }
  }

  @Test
  void noClassSharesItsFields() {
    List<String> shared = new ArrayList<>();
    int classes = 0;
    for (Path file : mainSources()) {
      List<String> source = readLines(file);
      for (Class<?> type : typesDeclaredIn(file, source)) {
        classes++;
        for (Field field : type.getDeclaredFields()) {
          if (isShared(field)) {
            shared.add(
                relative(file)
                    + ":"
                    + declarationLine(source, type.getSimpleName(), field.getName())
                    + ": "
                    + Modifier.toString(field.getModifiers())
                    + " "
                    + type.getSimpleName()
                    + "."
                    + field.getName());
          }
        }
      }
    }
    assertTrue(classes > 100, "found only " + classes + " main classes: is the classpath complete?");
    if (!shared.isEmpty()) {
      fail(
          "non-private fields (make them private; give the owner a method):\n  "
              + String.join("\n  ", shared));
    }
  }

  /** Whether another class could read or write this field directly. */
  static boolean isShared(Field field) {
    int mods = field.getModifiers();
    if (Modifier.isPrivate(mods) || field.isSynthetic()) {
      return false;
    }
    if (Modifier.isStatic(mods) && Modifier.isFinal(mods)) {
      return false; // a constant (or an enum constant)
    }
    for (Annotation a : field.getDeclaredAnnotations()) {
      if (LIBRARY_FIELD_ANNOTATIONS.contains(a.annotationType().getName())) {
        return false;
      }
    }
    for (Annotation a : field.getDeclaringClass().getDeclaredAnnotations()) {
      if (a.annotationType().getName().equals(JMH_STATE)) {
        return false;
      }
    }
    return true;
  }

  // --- sources -------------------------------------------------------------------------------

  private static Path root;

  private static Path root() {
    if (root == null) {
      root = findRoot();
    }
    return root;
  }

  private static Path findRoot() {
    Path root = Path.of(System.getProperty("hicache.root", "..")).toAbsolutePath().normalize();
    Set<String> modules = modules(root);
    assertTrue(
        modules.containsAll(EXPECTED_MODULES),
        "not the repository root (modules " + modules + "): " + root);
    return root;
  }

  /** The folders of {@code root} that hold main sources: the modules. */
  private static Set<String> modules(Path root) {
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(d -> Files.isDirectory(d.resolve("src/main/java")))
          .map(d -> d.getFileName().toString())
          .collect(Collectors.toCollection(java.util.TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every main source of every module ({@code <module>/src/main/java}; build output is not looked at). */
  private static List<Path> mainSources() {
    Path root = root();
    List<Path> sources = new ArrayList<>();
    for (String module : modules(root)) {
      try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
        files
            .filter(p -> p.toString().endsWith(".java"))
            .filter(p -> !p.getFileName().toString().equals("module-info.java"))
            .filter(p -> !p.getFileName().toString().equals("package-info.java"))
            .forEach(sources::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    sources.sort(null);
    assertTrue(sources.size() > 100, "found only " + sources.size() + " main sources under " + root);
    return sources;
  }

  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;");
  private static final Pattern TOP_LEVEL_TYPE =
      Pattern.compile(
          "^(?:(?:public|final|abstract|sealed|non-sealed|strictfp)\\s+)*"
              + "(?:class|interface|enum|record|@interface)\\s+(\\w+)");

  /** The top-level types of a file (usually one) and all their member types, loaded uninitialised. */
  private static List<Class<?>> typesDeclaredIn(Path file, List<String> source) {
    String pkg = null;
    List<String> topLevel = new ArrayList<>();
    for (String line : source) {
      Matcher m = PACKAGE.matcher(line);
      if (pkg == null && m.find()) {
        pkg = m.group(1);
      }
      Matcher t = TOP_LEVEL_TYPE.matcher(line);
      if (t.find()) {
        topLevel.add(t.group(1));
      }
    }
    assertTrue(pkg != null, "no package declaration in " + file);
    assertTrue(!topLevel.isEmpty(), "no top-level type found in " + file);
    List<Class<?>> types = new ArrayList<>();
    for (String name : topLevel) {
      try {
        addWithMembers(
            Class.forName(pkg + "." + name, false, CodeShapeTest.class.getClassLoader()), types);
      } catch (ClassNotFoundException e) {
        fail("class " + pkg + "." + name + " of " + file + " is not on the test classpath");
      }
    }
    return types;
  }

  private static void addWithMembers(Class<?> type, List<Class<?>> into) {
    into.add(type);
    for (Class<?> member : type.getDeclaredClasses()) {
      addWithMembers(member, into);
    }
  }

  /**
   * The line that declares field {@code name}: the first declaration-shaped line (a type, then the name,
   * then {@code = ; ,}) after the declaration of its class {@code type}; else any mention; else 0.
   */
  private static int declarationLine(List<String> source, String type, String name) {
    Pattern typeDeclaration =
        Pattern.compile("\\b(class|interface|enum|record)\\s+" + Pattern.quote(type) + "\\b");
    Pattern declaration =
        Pattern.compile("^\\s*[^(){}=]*[\\w>\\]]\\s+" + Pattern.quote(name) + "\\s*(=|;|,)");
    Pattern mention = Pattern.compile("\\b" + Pattern.quote(name) + "\\b");
    int from = 0;
    for (int i = 0; i < source.size(); i++) {
      if (typeDeclaration.matcher(source.get(i)).find()) {
        from = i;
        break;
      }
    }
    for (Pattern p : List.of(declaration, mention)) {
      for (int i = from; i < source.size(); i++) {
        if (p.matcher(source.get(i)).find()) {
          return i + 1;
        }
      }
    }
    return 0;
  }

  private static int lineCount(Path file) {
    return readLines(file).size();
  }

  private static List<String> readLines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String relative(Path file) {
    return root().relativize(file).toString();
  }
}
