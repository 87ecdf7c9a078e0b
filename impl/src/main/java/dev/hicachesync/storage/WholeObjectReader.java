package dev.hicachesync.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a whole page object into this thread's reusable direct buffer: what {@link FileStorageBackend#get}
 * checks before it copies the payload out.
 *
 * <p>Why: {@code Files.readAllBytes} asked the file's size (one more system call), read into a
 * fresh heap array through the JDK's own direct buffer (a second copy), and allocated the array per page.
 * Here a page-sized object costs one {@code read} into memory the thread keeps, and the checksum and the
 * copy out read that memory directly.
 */
final class WholeObjectReader {
  /** First size of a thread's buffer: a 4 KiB page object and much larger ones fit. */
  static final int INITIAL_BYTES = 64 * 1024;
  /** Largest buffer a thread keeps; a larger object is read into a buffer of its own, then dropped. */
  static final int KEPT_BYTES = 16 * 1024 * 1024;

  private static final ThreadLocal<ByteBuffer> BUFFER =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(INITIAL_BYTES));

  private WholeObjectReader() {}

  /**
   * Returns every byte of {@code ch} from its position to the end of the file, flipped (position 0). The
   * buffer is this thread's and is reused by its next call: use it before then.
   *
   * <p>Why it may stop before reading the end of the file: a read that leaves room in the buffer (a short
   * read) ends at the end of a regular file, so when such a read ends exactly where the object's header says
   * the object ends, the next read would return end-of-file and is skipped: a page object costs one read,
   * as the raw baseline's does. Any other short read (a truncated, over-long or headerless object) reads on
   * to the end, so a corrupt object is reported with its true size, as before.
   */
  static ByteBuffer readWhole(FileChannel ch) throws IOException {
    ByteBuffer buf = BUFFER.get().clear();
    while (ch.read(buf) >= 0) {
      if (!buf.hasRemaining()) {
        buf = larger(buf, ch.size());
      } else if (buf.position() == PageObjectFormat.declaredSize(buf)) {
        break;
      }
    }
    return buf.flip();
  }

  /** A buffer with room beyond {@code size} holding what {@code full} holds; kept if not too large. */
  private static ByteBuffer larger(ByteBuffer full, long size) {
    long want = Math.max(size + 1, 2L * full.capacity());
    if (want > Integer.MAX_VALUE - 8) {
      throw new OutOfMemoryError("Required array size too large"); // as Files.readAllBytes says
    }
    ByteBuffer bigger = want <= KEPT_BYTES ? ByteBuffer.allocateDirect((int) want) : ByteBuffer.allocate((int) want);
    bigger.put(full.flip());
    if (bigger.isDirect()) {
      BUFFER.set(bigger);
    }
    return bigger;
  }
}
