package dev.hicachesync.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a page object into this thread's reusable direct buffer, never more than its header says it holds
 * (plus one byte): what {@link FileStorageBackend#get} checks before it copies the payload out.
 *
 * <p>Why a reusable buffer: {@code Files.readAllBytes} asked the file's size (one more system call), read
 * into a fresh heap array through the JDK's own direct buffer (a second copy), and allocated the array per
 * page. Here a page-sized object costs one {@code read} into memory the thread keeps, and the checksum and
 * the copy out read that memory directly.
 *
 * <p>Why bounded by the header: the file's size is not the object's. A page object grown to gigabytes (a
 * runaway writer, a file copied over it, a sparse file) is a corrupt page, and reading it whole would
 * exhaust the heap before the checksum could say so. The reader stops one byte past the size the header
 * declares (that byte proves the object too long), stops at once when there is no valid header, and never
 * grows its buffer past {@code maxObject}: what a page of the caller's destination can be.
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
   * Returns the bytes of {@code ch} from its position, flipped (position 0): the whole object when it is what
   * its header says, else enough of it to tell that it is not. The buffer is this thread's and is reused by
   * its next call: use it before then.
   *
   * <p>It holds: every byte up to the end of the file when the file ends at or before the header's declared
   * size (a cut object); the declared size plus one byte when the file is longer (an over-long object, of
   * whatever size); what the first read returned when the header is missing or invalid, or declares an object
   * larger than {@code maxObject} (both corrupt: the rest is never read, nor room made for it).
   *
   * <p>Why a short read that ends exactly at the declared size stops: a read that leaves room in the buffer
   * ends at the end of a regular file, so the next read would return end-of-file: a page object costs one
   * read, as the raw baseline's does.
   *
   * @param maxObject the largest object the caller can accept (header, key and the room its destination has)
   */
  static ByteBuffer readWhole(FileChannel ch, long maxObject) throws IOException {
    ByteBuffer buf = BUFFER.get().clear();
    while (ch.read(buf) >= 0) {
      long declared = PageObjectFormat.declaredSize(buf);
      if (declared >= 0 && buf.position() > declared) {
        break; // longer than its header says: corrupt, however long the file is
      }
      if (buf.hasRemaining()) {
        if (buf.position() == declared) {
          break; // a short read ending where the object ends: end of file
        }
        continue;
      }
      if (declared < 0 || declared > maxObject) {
        break; // a full buffer and no valid header, or one declaring more than a page can be: corrupt
      }
      buf = larger(buf, declared + 1); // one byte past the declared end: an over-long object shows
    }
    return buf.flip();
  }

  /** Reads the whole object as {@link #readWhole(FileChannel, long)} with no bound but the header's. */
  static ByteBuffer readWhole(FileChannel ch) throws IOException {
    return readWhole(ch, Integer.MAX_VALUE - 8);
  }

  /** A buffer of {@code want} bytes (at most one array) holding what {@code full} holds; kept if not too large. */
  private static ByteBuffer larger(ByteBuffer full, long want) {
    int size = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(want, 2L * full.capacity()));
    ByteBuffer bigger = size <= KEPT_BYTES ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
    bigger.put(full.flip());
    if (bigger.isDirect()) {
      BUFFER.set(bigger);
    }
    return bigger;
  }
}
