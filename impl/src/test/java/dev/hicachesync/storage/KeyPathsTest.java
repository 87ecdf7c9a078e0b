package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyPaths} with its remembered page folders names the same file as the plain definition, {@code
 * root/<first two hex digits>/<hash>[.<encoded suffix>].page} normalized, for keys in every folder and
 * every kind of suffix, asked for in any order and again.
 */
class KeyPathsTest {
  private static final Path ROOT = Path.of("/srv/hicache-store");

  private static Path definition(PageKey key) {
    String name = key.suffix().isEmpty() ? key.hash() : key.hash() + "." + KeyPaths.encode(key.suffix());
    return ROOT.resolve(key.hash().substring(0, 2)).resolve(name + KeyPaths.PAGE_EXT).normalize();
  }

  @Test
  void namesTheFileOfThePlainDefinition() {
    KeyPaths paths = new KeyPaths(ROOT);
    List<String> suffixes = List.of("", "tp1", "../../x", "é/€", ".", "a b", "\u0000");
    int folders = 0;
    boolean[] seen = new boolean[256];
    for (int round = 0; round < 2; round++) { // the second round finds every folder remembered
      for (int i = 0; i < 3000; i++) {
        PageKey k = PageKey.first(new int[] {i}).withSuffix(suffixes.get(i % suffixes.size()));
        Path p = paths.pathOf(k);
        assertEquals(definition(k), p, k.toString());
        assertEquals(ROOT, p.getParent().getParent(), k.toString());
        int folder = Integer.parseInt(k.hash().substring(0, 2), 16);
        if (!seen[folder]) {
          seen[folder] = true;
          folders++;
        }
      }
    }
    assertEquals(256, folders, "every page folder was used");
  }

  @Test
  void onlyPlainNamesSkipTheGeneralCheck() {
    assertTrue(KeyPaths.isPlainName("ab12.page"));
    for (String bad : List.of("", ".", "..", "../x", "a/b", "a\\b", ".hidden", "a\u0000b")) {
      assertFalse(KeyPaths.isPlainName(bad), bad);
    }
  }
}
