package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The on-disk form of one page object: a 16-byte header (magic {@code HCP1}, payload length, CRC32C of
 * the payload, reserved 0), then the payload. Big-endian.
 */
final class PageObjectFormat {
  /** "HCP1" in ASCII. */
  static final int MAGIC = 0x48435031;
  static final int HEADER_BYTES = 16;

  private PageObjectFormat() {}

  /**
   * Returns the header for the remaining bytes of {@code src} (position unchanged), for a gathering write of
   * header and payload without copying the payload.
   */
  static ByteBuffer header(ByteBuffer src) {
    CRC32C crc = new CRC32C();
    crc.update(src.duplicate());
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES);
    out.putInt(MAGIC).putInt(src.remaining()).putInt((int) crc.getValue()).putInt(0);
    return out.flip();
  }

  /**
   * Checks {@code object} and copies its payload into {@code dst}.
   *
   * @throws CorruptPageException naming {@code key} and what is wrong
   */
  static void decode(PageKey key, byte[] object, ByteBuffer dst) {
    decode(key, ByteBuffer.wrap(object), dst);
  }

  /**
   * Checks the object held in {@code object}'s remaining bytes (position unchanged) and copies its payload
   * into {@code dst}; {@code dst} is untouched when the object is corrupt.
   *
   * @throws CorruptPageException naming {@code key} and what is wrong
   */
  static void decode(PageKey key, ByteBuffer object, ByteBuffer dst) {
    int size = object.remaining();
    if (size < HEADER_BYTES) {
      throw new CorruptPageException("page " + key + ": object of " + size + " bytes has no header");
    }
    int at = object.position();
    int magic = object.getInt(at);
    int length = object.getInt(at + 4);
    int expected = object.getInt(at + 8);
    if (magic != MAGIC) {
      throw new CorruptPageException("page " + key + ": bad magic 0x" + Integer.toHexString(magic));
    }
    if (length != size - HEADER_BYTES) {
      throw new CorruptPageException(
          "page " + key + ": header says " + length + " bytes, object holds " + (size - HEADER_BYTES));
    }
    ByteBuffer payload = object.slice(at + HEADER_BYTES, length);
    CRC32C crc = new CRC32C();
    crc.update(payload.duplicate());
    if ((int) crc.getValue() != expected) {
      throw new CorruptPageException("page " + key + ": CRC32C mismatch (stored 0x" + Integer.toHexString(expected)
          + ", computed 0x" + Integer.toHexString((int) crc.getValue()) + ")");
    }
    if (dst.remaining() < length) {
      throw new CorruptPageException(
          "page " + key + " holds " + length + " bytes, destination has room for " + dst.remaining());
    }
    dst.put(payload);
  }
}
