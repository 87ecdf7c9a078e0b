package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hicache-sync} launcher's JVM options: the parallel collector unless the caller names a collector
 * (two collectors stop the JVM), transparent huge pages where the kernel's mode is {@code madvise}, then the
 * caller's own options. The real script runs in a copy of the repository
 * root with a built jar in place (so it builds nothing), and a {@code java} on the PATH that prints its arguments.
 */
class LauncherJvmOptionsTest {

  @TempDir Path root;

  private List<String> javaArguments(String callerOptions) throws Exception {
    return javaArguments(callerOptions, "always [madvise] never");
  }

  private List<String> javaArguments(String callerOptions, String kernelThpMode) throws Exception {
    // the kernel's transparent huge page setting as the launcher reads it; null: a kernel without the file
    Path thpMode = root.resolve("thp-enabled");
    if (kernelThpMode != null) {
      Files.writeString(thpMode, kernelThpMode + "\n");
    }
    installLauncher();
    Files.writeString(root.resolve("cli/target/hicache-sync-cli.jar"), "");
    return launch(callerOptions, thpMode).lines().toList();
  }

  /** The real launcher in {@link #root}, and a {@code java} on its PATH that prints its arguments. */
  private void installLauncher() throws Exception {
    Path repository = Path.of(System.getProperty("hicache.root", "..")).toAbsolutePath().normalize();
    Files.copy(repository.resolve("hicache-sync"), root.resolve("hicache-sync"), StandardCopyOption.COPY_ATTRIBUTES,
        StandardCopyOption.REPLACE_EXISTING);
    Files.createDirectories(root.resolve("cli/target/lib"));
    executable("java", "for a in \"$@\"; do echo \"$a\"; done");
  }

  private void executable(String name, String body) throws Exception {
    Path file = Files.createDirectories(root.resolve("bin")).resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Runs {@code hicache-sync check --help} through the launcher; returns its output (it must exit 0). */
  private String launch(String callerOptions, Path thpMode) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("hicache-sync").toString(), "check", "--help")
        .redirectErrorStream(true);
    builder.environment().put("PATH", root.resolve("bin") + ":" + System.getenv("PATH"));
    builder.environment().put("HICACHE_SYNC_THP_MODE_FILE", thpMode.toString());
    if (callerOptions == null) {
      builder.environment().remove("HICACHE_SYNC_JAVA_OPTS");
    } else {
      builder.environment().put("HICACHE_SYNC_JAVA_OPTS", callerOptions);
    }
    Process process = builder.start();
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher returned");
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, process.exitValue(), out);
    return out;
  }

  /**
   * A source change in a module the tool's own jar does not hold (here impl) builds once: Maven leaves the
   * unchanged jar as it was, and the launcher must not take it for stale on every later run.
   */
  @Test
  void aSourceChangeElsewhereBuildsOnce() throws Exception {
    installLauncher();
    Path jar = root.resolve("cli/target/hicache-sync-cli.jar");
    Files.writeString(jar, "");
    Path source = Files.createDirectories(root.resolve("impl/src/main")).resolve("Changed.java");
    Files.writeString(source, "");
    Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    Path calls = root.resolve("mvn-calls");
    executable("mvn", "echo build >> '" + calls + "'"); // a Maven that leaves the jar untouched
    launch(null, root.resolve("no-thp-file"));
    launch(null, root.resolve("no-thp-file"));
    assertEquals(List.of("build"), Files.readAllLines(calls), "builds over two launches");
  }

  @Test
  void theParallelCollectorComesFirstAndTheToolsArgumentsLast() throws Exception {
    List<String> args = javaArguments(null);
    assertEquals("-XX:+UseParallelGC", args.get(0), args.toString());
    assertEquals(List.of("dev.hicachesync.cli.Main", "check", "--help"), args.subList(args.size() - 3, args.size()));
  }

  @Test
  void callersOptionsFollowIt() throws Exception {
    List<String> args = javaArguments("-Xmx1g -Dx=y");
    assertEquals(List.of("-XX:+UseParallelGC", "-XX:+UseTransparentHugePages", "-Xmx1g", "-Dx=y"), args.subList(0, 4),
        args.toString());
  }

  @Test
  void aCollectorOfTheCallersReplacesIt() throws Exception {
    List<String> args = javaArguments("-Xmx1g -XX:+UseG1GC");
    assertFalse(args.contains("-XX:+UseParallelGC"), args.toString());
    assertEquals(List.of("-XX:+UseTransparentHugePages", "-Xmx1g", "-XX:+UseG1GC"), args.subList(0, 3),
        args.toString());
  }

  @Test
  void hugePagesOnlyWhereTheKernelGivesThemOnRequest() throws Exception {
    assertTrue(javaArguments(null, "always [madvise] never").contains("-XX:+UseTransparentHugePages"));
    // "always": the heap gets them without the flag; "never": the JVM would warn about it on every run
    assertFalse(javaArguments(null, "[always] madvise never").contains("-XX:+UseTransparentHugePages"));
    assertFalse(javaArguments(null, "always madvise [never]").contains("-XX:+UseTransparentHugePages"));
    List<String> withoutTheSetting = javaArguments(null, null);
    assertFalse(withoutTheSetting.contains("-XX:+UseTransparentHugePages"), withoutTheSetting.toString());
    assertEquals("-XX:+UseParallelGC", withoutTheSetting.get(0), withoutTheSetting.toString());
  }
}
