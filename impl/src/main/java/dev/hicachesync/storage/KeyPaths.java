package dev.hicachesync.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Maps a {@link PageKey} to a file under a root folder so that no key can name a path outside it.
 *
 * <p>Why an encoding rather than a blacklist: the hash is 64 hex digits by construction, and the suffix is
 * rewritten byte by byte so that only {@code [A-Za-z0-9-]} survive and everything else (dots, slashes,
 * {@code _} itself) becomes {@code _hh}; the result is injective and can never contain {@code ..} or a
 * separator. The final containment check is a second, independent guard.
 *
 * <p>Why the 256 page folders are remembered: every get and put names its file, and building
 * {@code root/xx} and normalizing the whole path per call cost as much as a tenth of a page read. A folder
 * is resolved and checked once; each call then appends one file name whose characters it checks.
 */
final class KeyPaths {
  /** Extension of a stored page object. */
  static final String PAGE_EXT = ".page";

  private final Path root;
  /** {@code root/<h0h1>} by the value of the hash's first two hex digits; null until first asked. */
  private final AtomicReferenceArray<Path> folders = new AtomicReferenceArray<>(256);

  KeyPaths(Path root) {
    this.root = root;
  }

  /** Returns {@code root/<h0h1>/<hash>[.<suffix>].page}. */
  Path pathOf(PageKey key) {
    byte[] hash = key.asciiHash();
    int hi = Character.digit(hash[0], 16);
    int lo = Character.digit(hash[1], 16);
    String name = fileName(key);
    if (hi < 0 || lo < 0 || !isPlainName(name)) {
      return checkedPath(key, name); // never for keys this package makes; the general path and its guard
    }
    int index = hi * 16 + lo;
    Path folder = folders.get(index);
    if (folder == null) {
      folder = root.resolve(key.hash().substring(0, 2)).normalize();
      if (!root.equals(folder.getParent())) {
        throw new IllegalArgumentException("key " + key + " maps outside the storage root " + root);
      }
      folders.set(index, folder); // benign race: every thread resolves an equal path
    }
    return folder.resolve(name);
  }

  /** The file name: hash, the encoded suffix if any, the extension. */
  private static String fileName(PageKey key) {
    String hash = key.hash();
    return (key.suffix().isEmpty() ? hash : hash + "." + encode(key.suffix())) + PAGE_EXT;
  }

  /**
   * Whether {@code name} appended to a folder names a file directly inside it: not empty, no separator, not
   * starting with a dot (so neither {@code .} nor {@code ..}), no NUL.
   */
  static boolean isPlainName(String name) {
    return !name.isEmpty() && name.charAt(0) != '.' && name.indexOf('/') < 0 && name.indexOf('\\') < 0
        && name.indexOf('\0') < 0;
  }

  /** The general mapping, normalized and checked to lie directly in a folder under the root. */
  private Path checkedPath(PageKey key, String name) {
    Path p = root.resolve(key.hash().substring(0, 2)).resolve(name).normalize();
    if (!p.startsWith(root) || !p.getParent().getParent().equals(root)) {
      throw new IllegalArgumentException("key " + key + " maps outside the storage root " + root);
    }
    return p;
  }

  static String encode(String suffix) {
    StringBuilder out = new StringBuilder();
    for (byte b : suffix.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
      if (plain) {
        out.append((char) c);
      } else {
        out.append('_').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xf, 16));
      }
    }
    return out.toString();
  }
}
