package dev.hicachesync.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Maps a {@link PageKey} to a file under a root folder so that no key can name a path outside it.
 *
 * <p>Why an encoding rather than a blacklist: the hash is 64 hex digits by construction, and the suffix is
 * rewritten byte by byte so that only {@code [A-Za-z0-9-]} survive and everything else (dots, slashes,
 * {@code _} itself) becomes {@code _hh}; the result is injective and can never contain {@code ..} or a
 * separator. The final {@code startsWith(root)} check is a second, independent guard.
 */
final class KeyPaths {
  /** Extension of a stored page object. */
  static final String PAGE_EXT = ".page";

  private final Path root;

  KeyPaths(Path root) {
    this.root = root;
  }

  /** Returns {@code root/<h0h1>/<hash>[.<suffix>].page}. */
  Path pathOf(PageKey key) {
    String hash = key.hash();
    String name = key.suffix().isEmpty() ? hash : hash + "." + encode(key.suffix());
    Path p = root.resolve(hash.substring(0, 2)).resolve(name + PAGE_EXT).normalize();
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
