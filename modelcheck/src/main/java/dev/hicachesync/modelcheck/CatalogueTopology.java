package dev.hicachesync.modelcheck;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.hicachesync.topology.InvalidTopologyException;
import dev.hicachesync.topology.Topology;
import java.io.IOException;

/**
 * Reads a catalogue entry's {@code "topology": {"dp": 1, "cp": 2, "tp": 1, "pp": 1}} into the
 * implementation's {@link Topology}; {@code pp} may be left out and means 1.
 */
final class CatalogueTopology extends StdDeserializer<Topology> {

  /** What a catalogue topology must be. */
  static final String RULE = "topology must give dp, cp, tp (and optionally pp), each at least 1";

  CatalogueTopology() {
    super(Topology.class);
  }

  @Override
  public Topology deserialize(JsonParser parser, DeserializationContext context) throws IOException {
    JsonNode node = parser.readValueAsTree();
    if (node == null || !node.isObject()) {
      return context.reportInputMismatch(Topology.class, RULE);
    }
    try {
      return Topology.of(size(node, "dp", 0), size(node, "cp", 0), size(node, "tp", 0), size(node, "pp", 1));
    } catch (InvalidTopologyException e) {
      return context.reportInputMismatch(Topology.class, RULE + " (" + e.getMessage() + ")");
    }
  }

  /** The size {@code name}, or {@code missing} when left out (0 for a size that must be given). */
  private static int size(JsonNode node, String name, int missing) {
    JsonNode value = node.get(name);
    return value == null || value.isNull() ? missing : value.asInt(0);
  }
}
