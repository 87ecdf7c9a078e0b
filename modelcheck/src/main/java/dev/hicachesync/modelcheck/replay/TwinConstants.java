package dev.hicachesync.modelcheck.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Which bug model's counterexample a fixed twin replays when several bug models share its bug: the one whose cfg
 * sets the same constants as the twin's apart from {@code Bugs} (the twin then runs the very schedule with the fix),
 * else the catalogue's first ({@link CatalogueReplays#scheduleOf}). A schedule of other constants (other pages per
 * key, other pools) does not fit the twin's run.
 */
final class TwinConstants {

  /** A cfg section's keyword (a constant such as {@code DP = 1} is not one). */
  private static final Pattern KEYWORD = Pattern.compile("(CONSTANTS?|SPECIFICATION|INIT|NEXT|INVARIANTS?|PROPERT(Y|IES)"
      + "|VIEW|SYMMETRY|CONSTRAINTS?|ACTION_CONSTRAINTS?|CHECK_DEADLOCK|ALIAS|POSTCONDITION)\\b(?!\\s*(=|<-))");

  private TwinConstants() {}

  /** Whether the cfgs {@code a} and {@code b} assign the same constants, {@code Bugs} aside. */
  static boolean sameButBugs(Path a, Path b) {
    return constants(a).equals(constants(b));
  }

  /** The assignments of the cfg's CONSTANTS section, in order, without comments, blanks and {@code Bugs}. */
  static List<String> constants(Path cfg) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    try {
      for (String raw : Files.readAllLines(cfg, StandardCharsets.UTF_8)) {
        int comment = raw.indexOf("\\*");
        String line = (comment >= 0 ? raw.substring(0, comment) : raw).strip();
        if (KEYWORD.matcher(line).lookingAt()) {
          in = line.startsWith("CONSTANT");
          continue;
        }
        if (in && !line.isEmpty() && !line.startsWith("Bugs")) {
          out.add(line.replaceAll("\\s+", " "));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
