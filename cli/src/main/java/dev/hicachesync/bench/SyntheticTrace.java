package dev.hicachesync.bench;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * A seeded Mooncake-format trace shaped like the conversation trace (multi-turn sessions whose prompts
 * grow by a few 512-token blocks per turn, so later turns reuse earlier ones' prefixes), so that the
 * replay benchmark needs no file outside the repository and gives the same trace every run.
 */
final class SyntheticTrace {
  static final int BLOCK_TOKENS = 512;

  private SyntheticTrace() {}

  /** Writes {@code requests} lines to {@code file}; the same seed writes the same bytes. */
  static Path write(Path file, int requests, long seed) throws IOException {
    Random rnd = new Random(seed);
    int sessions = Math.max(4, requests / 8);
    List<List<Integer>> prefixes = new ArrayList<>();
    int nextBlock = 0;
    for (int s = 0; s < sessions; s++) {
      prefixes.add(new ArrayList<>(List.of(0))); // block 0: the shared system prompt
    }
    nextBlock = 1;
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < requests; i++) {
        List<Integer> blocks = prefixes.get(rnd.nextInt(sessions));
        int grow = 1 + rnd.nextInt(4);
        for (int g = 0; g < grow && blocks.size() < 40; g++) {
          blocks.add(nextBlock++);
        }
        int input = (blocks.size() - 1) * BLOCK_TOKENS + 1 + rnd.nextInt(BLOCK_TOKENS);
        StringJoiner ids = new StringJoiner(", ", "[", "]");
        for (int b : blocks) {
          ids.add(String.valueOf(b));
        }
        w.write("{\"timestamp\": " + (i * 250L) + ", \"input_length\": " + input + ", \"output_length\": "
            + (50 + rnd.nextInt(300)) + ", \"hash_ids\": " + ids + "}\n");
      }
    }
    return file;
  }
}
