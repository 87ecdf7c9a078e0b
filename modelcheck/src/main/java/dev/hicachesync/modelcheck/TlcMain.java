package dev.hicachesync.modelcheck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.rmi.server.RMISocketFactory;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

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
 * <p>This class is the only one of this project on a TLC JVM's class path ({@link #jarIn}): it uses the JDK and
 * TLC only, and has no nested classes.
 */
public final class TlcMain extends RMISocketFactory implements Runnable {

  private final List<ServerSocket> serverSockets = new CopyOnWriteArrayList<>();

  TlcMain() {}

  /** Runs TLC with {@code args}; TLC ends the JVM with its exit code. */
  public static void main(String[] args) throws Exception {
    TlcMain sockets = new TlcMain();
    RMISocketFactory.setSocketFactory(sockets);
    Runtime.getRuntime().addShutdownHook(new Thread(sockets, "close-tlc-rmi-sockets"));
    tlc2.TLC.main(args);
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
