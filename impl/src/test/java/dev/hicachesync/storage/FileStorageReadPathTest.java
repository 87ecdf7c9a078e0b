package dev.hicachesync.storage;

import static dev.hicachesync.storage.StorageBackendContractTest.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file backend's read path as it is now: one open that refuses a symlink, one read of a page
 * object into the thread's buffer (stopping where the header says the object ends), objects larger than
 * that buffer, and the same corruption reports as before.
 */
class FileStorageReadPathTest {
  @TempDir Path tmp;

  /** A symlink in place of an object is corrupt, even when it points at a valid object of the same key. */
  @Test
  void aSymlinkInPlaceOfAnObjectIsCorruptAndNotFollowed() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    FileStorageBackend elsewhere = new FileStorageBackend(tmp.resolve("elsewhere"));
    PageKey k = PageKey.first(new int[] {7});
    elsewhere.put(k, bytes(7, 64));
    Path object = store.pathOf(k);
    Files.createDirectories(object.getParent());
    Files.createSymbolicLink(object, elsewhere.pathOf(k));
    ByteBuffer dst = ByteBuffer.allocate(64);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(k, dst));
    assertTrue(e.getMessage().contains("is a symlink, not a page object") && e.getMessage().contains(k.toString()),
        e.getMessage());
    assertEquals(0, dst.position(), "nothing copied through the link");

    Files.delete(elsewhere.pathOf(k)); // a dangling link is no less a link
    assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(64)));
  }

  /** A page object is read with one read: the end-of-file read the header makes needless is skipped. */
  @Test
  void aPageObjectTakesOneRead() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey k = PageKey.first(new int[] {1}).withSuffix("tp1");
    store.put(k, bytes(1, 4096));
    byte[] onDisk = Files.readAllBytes(store.pathOf(k));
    try (CountingChannel ch = CountingChannel.open(store.pathOf(k))) {
      ByteBuffer read = WholeObjectReader.readWhole(ch);
      assertEquals(1, ch.reads, "reads of a whole page object");
      assertEquals(ByteBuffer.wrap(onDisk), read);
    }
  }

  /**
   * An object that is not what its header says is read no further than it takes to tell: a cut one to its end
   * (that is all there is), a lengthened one to one byte past its declared size, a headerless one not past its
   * first read. Each is corrupt, named with its true size.
   */
  @Test
  void aDamagedObjectIsReadNoFurtherThanItsHeaderSays() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey k = PageKey.first(new int[] {2});
    store.put(k, bytes(2, 4096));
    Path p = store.pathOf(k);
    byte[] whole = Files.readAllBytes(p);
    byte[] cut = Arrays.copyOf(whole, whole.length - 1);
    byte[] longer = Arrays.copyOf(whole, whole.length + 3);
    byte[] headerless = Arrays.copyOf(whole, 9);
    for (byte[] damaged : new byte[][] {cut, headerless}) {
      Files.write(p, damaged);
      try (CountingChannel ch = CountingChannel.open(p)) {
        assertEquals(ByteBuffer.wrap(damaged), WholeObjectReader.readWhole(ch));
        assertTrue(ch.sawEnd, "read to end of file, " + damaged.length + " bytes");
      }
    }
    Files.write(p, longer);
    try (CountingChannel ch = CountingChannel.open(p)) {
      assertEquals(ByteBuffer.wrap(longer), WholeObjectReader.readWhole(ch), "what its one read returned");
      assertEquals(1, ch.reads, "past its declared size after the first read: no second read");
      assertTrue(!ch.sawEnd, "no read to the end of an over-long object");
    }
    ByteBuffer dst = ByteBuffer.allocate(4096);
    Files.write(p, headerless);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(k, dst));
    assertTrue(e.getMessage().contains("object of 9 bytes has no header"), e.getMessage());
    Files.write(p, cut);
    e = assertThrows(CorruptPageException.class, () -> store.get(k, dst));
    assertTrue(e.getMessage().contains("object holds " + (cut.length - PageObjectFormat.HEADER_BYTES)),
        e.getMessage());
    Files.write(p, longer);
    e = assertThrows(CorruptPageException.class, () -> store.get(k, dst));
    assertTrue(e.getMessage().contains("object of " + longer.length + " bytes is longer than the " + whole.length
        + " its header declares"), e.getMessage());
    assertEquals(0, dst.position(), "nothing copied out of a corrupt object");
  }

  /**
   * A page object grown to 3 GiB (a sparse file: no disk used) is a corrupt page, a failed read: the read stops
   * one byte past its header's size instead of reading the file whole (which exhausted the heap).
   */
  @Test
  void anObjectGrownToGigabytesIsACorruptPageNotAnOutOfMemoryError() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey k = PageKey.first(new int[] {6});
    store.put(k, bytes(6, 4096));
    Path p = store.pathOf(k);
    long size = 3L << 30;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1}), size - 1);
    }
    assertEquals(size, Files.size(p));
    ByteBuffer dst = ByteBuffer.allocate(4096);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(k, dst));
    assertTrue(e.getMessage().contains("object of " + size + " bytes is longer than"), e.getMessage());
    assertEquals(0, dst.position());
  }

  /**
   * A header that declares a payload larger than the destination (here 2 GiB) is corrupt before anything past the
   * first read is read or allocated; so is one that declares a key longer than any key.
   */
  @Test
  void aHeaderDeclaringMoreThanAPageCanHoldIsCorruptBeforeItIsRead() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey k = PageKey.first(new int[] {8});
    store.put(k, bytes(8, 4096));
    Path p = store.pathOf(k);
    byte[] whole = Files.readAllBytes(p);
    ByteBuffer.wrap(whole).putInt(4, Integer.MAX_VALUE - 1000); // declared payload length
    byte[] big = Arrays.copyOf(whole, 2 * WholeObjectReader.INITIAL_BYTES); // more than one first read
    Files.write(p, big);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(4096)));
    assertTrue(e.getMessage().contains("more than a page of 4096 bytes can be"), e.getMessage());
    try (CountingChannel ch = CountingChannel.open(p)) {
      assertEquals(WholeObjectReader.INITIAL_BYTES, WholeObjectReader.readWhole(ch,
          PageObjectFormat.maxObject(4096)).limit(), "no buffer was grown for the declared size");
    }
    ByteBuffer.wrap(whole).putInt(4, 4096).putInt(12, PageObjectFormat.MAX_NAME_BYTES + 1);
    Files.write(p, whole);
    e = assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(4096)));
    assertTrue(e.getMessage().contains("more than any key"), e.getMessage());
  }

  /** Objects larger than a thread's first buffer, and than the largest it keeps, read back whole. */
  @Test
  void objectsLargerThanTheThreadsBufferAreReadWhole() {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    int[] sizes = {WholeObjectReader.INITIAL_BYTES - 90, WholeObjectReader.INITIAL_BYTES - 80, WholeObjectReader.INITIAL_BYTES,
        3 * WholeObjectReader.INITIAL_BYTES + 5, WholeObjectReader.KEPT_BYTES + 1, 4096};
    for (int i = 0; i < sizes.length; i++) {
      PageKey k = PageKey.first(new int[] {100 + i});
      store.put(k, bytes(i, sizes[i]));
      ByteBuffer dst = ByteBuffer.allocateDirect(sizes[i]);
      assertTrue(store.get(k, dst));
      assertEquals(bytes(i, sizes[i]), dst.flip(), sizes[i] + " bytes");
    }
  }

  /** A {@link FileChannel} that counts its reads and remembers whether one returned end-of-file. */
  private static final class CountingChannel extends FileChannel {
    private final FileChannel inner;
    int reads;
    boolean sawEnd;

    private CountingChannel(FileChannel inner) {
      this.inner = inner;
    }

    static CountingChannel open(Path p) throws IOException {
      return new CountingChannel(FileChannel.open(p, StandardOpenOption.READ));
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      reads++;
      int n = inner.read(dst);
      sawEnd |= n < 0;
      return n;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int write(ByteBuffer src) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long position() throws IOException {
      return inner.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      inner.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return inner.size();
    }

    @Override
    public FileChannel truncate(long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void force(boolean metaData) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int read(ByteBuffer dst, long position) {
      throw new UnsupportedOperationException();
    }

    @Override
    public int write(ByteBuffer src, long position) {
      throw new UnsupportedOperationException();
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) {
      throw new UnsupportedOperationException();
    }

    @Override
    protected void implCloseChannel() throws IOException {
      inner.close();
    }
  }
}
