package dev.hicachesync.modelcheck;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.rmi.server.RMISocketFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import tlc2.output.EC;
import util.FileUtil;
import util.InternTable;
import util.SimpleFilenameToStream;
import util.UniqueString;

/**
 * The main class of each TLC JVM the runner starts for a plain (not distributed) run: TLC's own main, with TLC's
 * RMI server sockets bound to the loopback address and closed when the JVM exits.
 *
 * <p>Why: TLC's fingerprint set is an RMI remote object (it serves distributed mode's workers), so every plain run
 * exports it, and RMI's accept thread then waits in a native {@code accept} call. At exit HotSpot waits up to
 * 300 ms for threads in native code to stop before it gives up on them: about 0.3 s of every TLC run, a fifth of
 * the ci tier's TLC time (docs/reference/measurements.md). Closing the sockets in a shutdown hook lets the accept
 * thread leave {@code accept} before that wait. The loopback binding keeps a model check from listening on the
 * network, which a plain run never needs. TLC's exit code and output are unchanged.
 *
 * <p>With {@link #RESIDENT} as its only argument the JVM checks several models one after another ({@link
 * ResidentTlc}): each line on standard input holds one run's TLC arguments, separated by tabs; TLC's output follows
 * on standard output, and then the line {@link #END_OF_RUN} with TLC's exit code. A TLC JVM's start, class loading and
 * JIT warm-up are most of a small model's run (docs/reference/measurements.md), and this pays them once. TLC keeps
 * state in static fields, so before each run {@link #forgetEarlierRuns} puts back what a new JVM would find: two
 * flags that TLC sets and never clears (left alone, a liveness violation after an earlier one goes unreported, and the
 * disk queue's shared buffers are handed out twice), {@code TLCGlobals}' fields (the last run's checker and options),
 * and the intern table of names. TLC numbers each name (identifier,
 * string, field name) in the order it first meets it, and orders record fields, strings and model values, and
 * fingerprints states, by those numbers: a run after another model would print its states in another order and could
 * find another lasso. So every TLC JVM, resident or not, first loads the classes that hold names in static fields
 * ({@link #STATIC_NAME_HOLDERS}); before each run the table goes back to those names and the numbering to where they
 * end, and each run numbers its own names as it would in a new JVM.
 *
 * <p>This class is the only one of this project on a TLC JVM's class path ({@link #jarIn}): it uses the JDK and
 * TLC only, and has no nested classes.
 */
public final class TlcMain extends RMISocketFactory implements Runnable {

  /** The argument that makes this JVM resident: it reads runs from standard input. */
  static final String RESIDENT = "--runs-from-stdin";
  /** The line after each resident run's output, followed by TLC's exit code. */
  static final String END_OF_RUN = "@hicache-sync: TLC run ended, exit ";
  /**
   * The classes of TLC's jar with names in static fields (interned when the class is loaded). {@code
   * TlcMainTest} checks the list against the jar, so a new TLC cannot add one unseen.
   */
  static final List<String> STATIC_NAME_HOLDERS = List.of("tla2sany.semantic.ASTConstants",
      "tla2sany.semantic.Generator", "tla2sany.st.Location", "tla2sany.st.SyntaxTreeConstants", "tlc2.module.TLC",
      "tlc2.tool.Action", "tlc2.tool.ToolGlobals");

  private final List<ServerSocket> serverSockets = new CopyOnWriteArrayList<>();

  TlcMain() {}

  /** Runs TLC with {@code args}, TLC ending the JVM with its exit code; or, with {@link #RESIDENT}, run after run. */
  public static void main(String[] args) throws Exception {
    TlcMain sockets = new TlcMain();
    RMISocketFactory.setSocketFactory(sockets);
    Runtime.getRuntime().addShutdownHook(new Thread(sockets, "close-tlc-rmi-sockets"));
    int baseNames = internStaticNames();
    if (args.length == 1 && args[0].equals(RESIDENT)) {
      System.exit(serve(baseNames));
    }
    tlc2.TLC.main(args);
  }

  /**
   * {@code TLCGlobals}' settable fields as a new JVM has them, taken by {@link #internStaticNames} before any run.
   * TLC sets them from its command line and while it runs, and clears none. Left set by an earlier run, {@code
   * mainChecker} makes {@code TLCGet("level")} answer 0 while TLC evaluates the next spec's constant definitions
   * before its search (in a new JVM it refuses, and TLC evaluates such a definition in each state): a constraint
   * {@code TLCGet("level") < N} would be fixed at TRUE, and the search unbounded.
   */
  private static final Map<Field, Object> GLOBALS_OF_A_NEW_JVM = new LinkedHashMap<>();

  /**
   * Loads {@link #STATIC_NAME_HOLDERS} and notes {@code TLCGlobals}' fields ({@link #GLOBALS_OF_A_NEW_JVM}); returns
   * how many names TLC has numbered then.
   */
  static int internStaticNames() throws ReflectiveOperationException {
    for (String holder : STATIC_NAME_HOLDERS) {
      Class.forName(holder, true, TlcMain.class.getClassLoader());
    }
    if (GLOBALS_OF_A_NEW_JVM.isEmpty()) {
      for (Field f : tlc2.TLCGlobals.class.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && !Modifier.isFinal(f.getModifiers())) {
          f.setAccessible(true);
          GLOBALS_OF_A_NEW_JVM.put(f, f.get(null));
        }
      }
    }
    return (int) field(InternTable.class, "tokenCnt").getInt(UniqueString.internTbl);
  }

  /** Runs one TLC run per line of standard input until it ends; 0, or TLC's own exit where TLC ends the JVM. */
  private static int serve(int baseNames) throws IOException, ReflectiveOperationException {
    PrintStream pipe = System.out;
    BufferedReader runs = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = runs.readLine(); line != null; line = runs.readLine()) {
      forgetEarlierRuns(baseNames);
      int exit = runOnce(line.split("\t"));
      System.err.flush();
      pipe.println(END_OF_RUN + exit);
      pipe.flush();
    }
    return 0;
  }

  /** What {@code tlc2.TLC.main} does, less its {@code System.exit}: TLC's exit code for {@code args}. */
  private static int runOnce(String[] args) {
    tlc2.TLC tlc = new tlc2.TLC();
    if (!tlc.handleParameters(args)) {
      return 1;
    }
    String dir = FileUtil.parseDirname(tlc.getMainFile());
    tlc.setResolver(dir.isEmpty() ? new SimpleFilenameToStream() : new SimpleFilenameToStream(dir));
    return EC.ExitStatus.errorConstantToExitStatus(tlc.process());
  }

  /**
   * Puts TLC's static state back to what a new JVM has after {@link #internStaticNames}: the intern table holds the
   * first {@code baseNames} names, each with no variable slot (a name that was a state variable of the last run would
   * otherwise keep its slot), and the next name gets number {@code baseNames + 1}.
   */
  static void forgetEarlierRuns(int baseNames) throws ReflectiveOperationException {
    for (Map.Entry<Field, Object> global : GLOBALS_OF_A_NEW_JVM.entrySet()) {
      global.getKey().set(null, global.getValue());
    }
    field(tlc2.tool.liveness.LiveWorker.class, "errFoundByThread").setInt(null, -1);
    field(tlc2.util.BufferedRandomAccessFile.class, "numAvailBuffs").setInt(null, 0);
    InternTable names = new InternTable(1024);
    Method put = InternTable.class.getDeclaredMethod("put", UniqueString.class);
    put.setAccessible(true);
    for (UniqueString name : UniqueString.internTbl.toMap().values()) {
      if (name.getTok() <= baseNames) {
        name.setLoc(-1);
        put.invoke(names, name);
      }
    }
    field(InternTable.class, "tokenCnt").setInt(names, baseNames);
    UniqueString.internTbl = names;
  }

  private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
    Field f = owner.getDeclaredField(name);
    f.setAccessible(true);
    return f;
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return new Socket(host, port);
  }

  @Override
  public ServerSocket createServerSocket(int port) throws IOException {
    ServerSocket socket = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    serverSockets.add(socket);
    return socket;
  }

  /** The shutdown hook: closes every server socket, which ends RMI's accept calls. */
  @Override
  public void run() {
    for (ServerSocket socket : serverSockets) {
      try {
        socket.close();
      } catch (IOException e) {
        // Already closed, or closing failed: the JVM then only waits longer at exit.
      }
    }
  }

  /**
   * A jar in {@code dir} holding this class alone, for a TLC JVM's class path; named after the class's digest, so
   * a rebuilt class gets a new jar (and a new class archive, {@link TlcClassArchive}) and runs side by side share
   * one.
   */
  static Path jarIn(Path dir) throws IOException {
    String entry = TlcMain.class.getName().replace('.', '/') + ".class";
    byte[] bytes;
    try (InputStream in = TlcMain.class.getClassLoader().getResourceAsStream(entry)) {
      if (in == null) {
        throw new IOException("class file " + entry + " not found");
      }
      bytes = in.readAllBytes();
    }
    Path jar = dir.resolve("tlc-main-" + digest(bytes) + ".jar");
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    Files.createDirectories(dir);
    Path pending = dir.resolve(jar.getFileName() + "." + ProcessHandle.current().pid() + "-"
        + Thread.currentThread().getId() + ".tmp");
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (JarOutputStream out = new JarOutputStream(buffer)) {
      JarEntry e = new JarEntry(entry);
      e.setTime(0);
      out.putNextEntry(e);
      out.write(bytes);
      out.closeEntry();
    }
    try (OutputStream out = Files.newOutputStream(pending)) {
      buffer.writeTo(out);
    }
    try {
      Files.move(pending, jar, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
      // Another run put the same jar in place first (or the file system cannot move atomically).
      if (!Files.isRegularFile(jar)) {
        Files.move(pending, jar, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(pending);
    }
    return jar;
  }

  private static String digest(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a JDK algorithm", e);
    }
  }
}
