package dev.hicachesync.modelcheck;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes measured figures back into the catalogue's {@code recorded} fields ({@code check
 * --record}), leaving every other field as it is.
 */
public final class CatalogueRecorder {

  /**
   * The catalogue's own layout: two spaces per level, {@code "key": value}, one array element per line.
   * Why not Jackson's default printer: it writes {@code "key" : value} and {@code [ {}, so a {@code
   * --record} would rewrite every line of the file and its diff would hide the few it changed.
   */
  private static final DefaultPrettyPrinter LAYOUT = new DefaultPrettyPrinter(Separators.createDefaultInstance()
          .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
          .withArrayEmptySeparator("")
          .withObjectEmptySeparator(""))
      .withArrayIndenter(new DefaultIndenter("  ", "\n"))
      .withObjectIndenter(new DefaultIndenter("  ", "\n"));

  private CatalogueRecorder() {}

  /**
   * Sets {@code recorded} of each named model to its result; returns how many were updated.
   * Only results that matched the expected verdict are recorded: a mismatch is a finding, not a
   * new baseline.
   */
  public static int record(Path file, Catalogue catalogue, Map<String, TlcResult> results) throws IOException {
    JsonMapper mapper = JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
    JsonNode root = mapper.readTree(file.toFile());
    int updated = 0;
    for (JsonNode node : root.path("models")) {
      String name = node.path("name").asText();
      TlcResult r = results.get(name);
      ModelEntry entry = catalogue.models().stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
      if (r == null || entry == null || !r.verdict().matches(entry.expectedVerdict())) {
        continue;
      }
      ObjectNode recorded = ((ObjectNode) node).putObject("recorded");
      recorded.put("distinct", r.distinct());
      recorded.put("seconds", Math.round(r.seconds() * 10) / 10.0);
      recorded.put("depth", r.depth());
      updated++;
    }
    Files.writeString(file, mapper.writer(LAYOUT).writeValueAsString(root) + "\n");
    return updated;
  }
}
