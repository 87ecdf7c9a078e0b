package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The on-disk form of one page object: a 16-byte header (magic {@code HCP2}, payload length, CRC32C of
 * key and payload, key length), the key ({@link PageKey#toString()} in UTF-8), then the payload.
 * Big-endian.
 *
 * <p>Why the object names its own key: a checksum proves the bytes are the bytes written, not that they
 * are the page asked for. Two objects swapped on disk (a restore from the wrong backup, a rename by hand)
 * both pass their CRC; with the key inside, covered by the CRC, a swapped object is a corrupt read of the
 * key asked for, like a flipped byte.
 */
final class PageObjectFormat {
  /** "HCP2" in ASCII: version 2 carries the key ("HCP1" objects had none and read as corrupt). */
  static final int MAGIC = 0x48435032;
  static final int HEADER_BYTES = 16;

  private PageObjectFormat() {}

  /** Returns header + key + payload for the remaining bytes of {@code src}, advancing its position. */
  static ByteBuffer encode(PageKey key, ByteBuffer src) {
    byte[] name = key.toString().getBytes(StandardCharsets.UTF_8);
    int length = src.remaining();
    CRC32C crc = new CRC32C();
    crc.update(name);
    crc.update(src.duplicate());
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + name.length + length);
    out.putInt(MAGIC).putInt(length).putInt((int) crc.getValue()).putInt(name.length);
    out.put(name);
    out.put(src);
    return out.flip();
  }

  /**
   * Checks {@code object} (it must be {@code key}'s, whole and unchanged) and copies its payload into
   * {@code dst}; nothing is copied unless every check passed.
   *
   * @throws CorruptPageException naming {@code key} and what is wrong
   */
  static void decode(PageKey key, byte[] object, ByteBuffer dst) {
    if (object.length < HEADER_BYTES) {
      throw new CorruptPageException("page " + key + ": object of " + object.length + " bytes has no header");
    }
    ByteBuffer in = ByteBuffer.wrap(object);
    int magic = in.getInt();
    int length = in.getInt();
    int expected = in.getInt();
    int nameLength = in.getInt();
    if (magic != MAGIC) {
      throw new CorruptPageException("page " + key + ": bad magic 0x" + Integer.toHexString(magic));
    }
    long body = (long) object.length - HEADER_BYTES;
    if (length < 0 || nameLength < 0 || (long) length + nameLength != body) {
      throw new CorruptPageException("page " + key + ": header says key " + nameLength + " + payload " + length
          + " bytes, object holds " + body);
    }
    CRC32C crc = new CRC32C();
    crc.update(object, HEADER_BYTES, nameLength + length);
    if ((int) crc.getValue() != expected) {
      throw new CorruptPageException("page " + key + ": CRC32C mismatch (stored 0x" + Integer.toHexString(expected)
          + ", computed 0x" + Integer.toHexString((int) crc.getValue()) + ")");
    }
    String stored = new String(object, HEADER_BYTES, nameLength, StandardCharsets.UTF_8);
    if (!stored.equals(key.toString())) {
      throw new CorruptPageException("page " + key + ": the object is page " + stored + " (moved or swapped)");
    }
    if (dst.remaining() < length) {
      throw new CorruptPageException(
          "page " + key + " holds " + length + " bytes, destination has room for " + dst.remaining());
    }
    dst.put(object, HEADER_BYTES + nameLength, length);
  }
}
