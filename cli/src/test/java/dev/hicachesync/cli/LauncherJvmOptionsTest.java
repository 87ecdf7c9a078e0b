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
    Path repository = Path.of(System.getProperty("hicache.root", "..")).toAbsolutePath().normalize();
    Files.copy(repository.resolve("hicache-sync"), root.resolve("hicache-sync"), StandardCopyOption.COPY_ATTRIBUTES,
        StandardCopyOption.REPLACE_EXISTING);
    Files.createDirectories(root.resolve("cli/target/lib"));
    Files.writeString(root.resolve("cli/target/hicache-sync-cli.jar"), "");
    Path bin = Files.createDirectories(root.resolve("bin"));
    Path java = bin.resolve("java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("hicache-sync").toString(), "check", "--help")
        .redirectErrorStream(true);
    builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
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
    return out.lines().toList();
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
