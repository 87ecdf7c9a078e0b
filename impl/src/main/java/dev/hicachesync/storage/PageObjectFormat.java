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
 *
 * <p>Why the header and key come apart from the payload ({@link #header}): a put writes them with one
 * gathering write, so the payload is never copied into a second buffer.
 */
final class PageObjectFormat {
  /** "HCP2" in ASCII: version 2 carries the key ("HCP1" objects had none and read as corrupt). */
  static final int MAGIC = 0x48435032;
  static final int HEADER_BYTES = 16;
  /**
   * Most bytes a stored key can take: a 64-digit hash, '@' and a suffix of at most {@link PageKey#MAX_SUFFIX}
   * characters of up to 4 UTF-8 bytes each. A header naming a longer key is corrupt.
   */
  static final int MAX_NAME_BYTES = 64 + 1 + 4 * PageKey.MAX_SUFFIX;

  private PageObjectFormat() {}

  /**
   * Returns header + key for the remaining bytes of {@code src} (its position unchanged): the object is this
   * followed by those bytes.
   */
  static ByteBuffer header(PageKey key, ByteBuffer src) {
    byte[] name = key.toString().getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(name);
    crc.update(src.duplicate());
    ByteBuffer out = ByteBuffer.allocate(HEADER_BYTES + name.length);
    out.putInt(MAGIC).putInt(src.remaining()).putInt((int) crc.getValue()).putInt(name.length);
    out.put(name);
    return out.flip();
  }

  /**
   * Returns the size of the whole object whose first bytes are {@code read}'s bytes before its position,
   * as its header says (header, key and payload), or -1 while they do not yet hold a header with this
   * format's magic and non-negative lengths.
   */
  static long declaredSize(ByteBuffer read) {
    return read.position() < HEADER_BYTES ? -1 : declared(read, 0);
  }

  /** {@link #declaredSize} of an object held in {@code object}'s remaining bytes (a flipped buffer). */
  static long declaredSizeOf(ByteBuffer object) {
    return object.remaining() < HEADER_BYTES ? -1 : declared(object, object.position());
  }

  private static long declared(ByteBuffer b, int at) {
    if (b.getInt(at) != MAGIC) {
      return -1;
    }
    int length = b.getInt(at + 4);
    int nameLength = b.getInt(at + 12);
    return length < 0 || nameLength < 0 || nameLength > MAX_NAME_BYTES ? -1
        : (long) HEADER_BYTES + nameLength + length;
  }

  /** The largest object whose payload fits {@code room} bytes: a larger one is corrupt before it is read. */
  static long maxObject(int room) {
    return (long) HEADER_BYTES + MAX_NAME_BYTES + room;
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
    int nameLength = object.getInt(at + 12);
    if (magic != MAGIC) {
      throw new CorruptPageException("page " + key + ": bad magic 0x" + Integer.toHexString(magic));
    }
    if (nameLength > MAX_NAME_BYTES) {
      throw new CorruptPageException("page " + key + ": header says the key takes " + nameLength
          + " bytes, more than any key (" + MAX_NAME_BYTES + ")");
    }
    long body = (long) size - HEADER_BYTES;
    if (length < 0 || nameLength < 0 || (long) length + nameLength != body) {
      throw new CorruptPageException("page " + key + ": header says key " + nameLength + " + payload " + length
          + " bytes, object holds " + body);
    }
    ByteBuffer nameAndPayload = object.slice(at + HEADER_BYTES, nameLength + length);
    CRC32C crc = new CRC32C();
    crc.update(nameAndPayload.duplicate());
    if ((int) crc.getValue() != expected) {
      throw new CorruptPageException("page " + key + ": CRC32C mismatch (stored 0x" + Integer.toHexString(expected)
          + ", computed 0x" + Integer.toHexString((int) crc.getValue()) + ")");
    }
    if (!namesKey(nameAndPayload, nameLength, key)) {
      throw new CorruptPageException("page " + key + ": the object is page " + storedName(nameAndPayload, nameLength)
          + " (moved or swapped)");
    }
    if (dst.remaining() < length) {
      throw new CorruptPageException(
          "page " + key + " holds " + length + " bytes, destination has room for " + dst.remaining());
    }
    dst.put(nameAndPayload.slice(nameLength, length));
  }

  /** The key an object names, as text ({@code name}'s first {@code length} bytes in UTF-8). */
  private static String storedName(ByteBuffer name, int length) {
    byte[] bytes = new byte[length];
    name.get(0, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Whether the first {@code length} bytes of {@code name} spell {@code key.toString()} in UTF-8: the same
   * answer as decoding them and comparing strings, without building either string when the name is ASCII
   * (every hash, and every suffix this project makes).
   */
  static boolean namesKey(ByteBuffer name, int length, PageKey key) {
    byte[] hash = key.asciiHash();
    String suffix = key.suffix();
    int expected = hash.length + (suffix.isEmpty() ? 0 : 1 + suffix.length());
    if (length != expected) {
      // An ASCII name of another length cannot match; a non-ASCII one is compared as text.
      return !isAscii(name, length) && storedName(name, length).equals(key.toString());
    }
    for (int i = 0; i < hash.length; i++) {
      if (name.get(i) != hash[i]) {
        return false;
      }
    }
    if (suffix.isEmpty()) {
      return true;
    }
    if (name.get(hash.length) != '@') {
      return false;
    }
    for (int i = 0; i < suffix.length(); i++) {
      byte b = name.get(hash.length + 1 + i);
      if (b < 0) {
        return storedName(name, length).equals(key.toString()); // multi-byte UTF-8: compare as text
      }
      if (b != suffix.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isAscii(ByteBuffer bytes, int length) {
    for (int i = 0; i < length; i++) {
      if (bytes.get(i) < 0) {
        return false;
      }
    }
    return true;
  }
}
