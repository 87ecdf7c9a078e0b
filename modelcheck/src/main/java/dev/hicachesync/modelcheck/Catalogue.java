package dev.hicachesync.modelcheck;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The model catalogue: every model with its configuration and expected verdict.
 *
 * @param models the models in file order
 */
public record Catalogue(List<ModelEntry> models) {

  /** The catalogue's file name in the models directory. */
  public static final String FILE_NAME = "catalogue.json";

  public Catalogue {
    models = models == null ? List.of() : List.copyOf(models);
  }

  /**
   * Reads and validates a catalogue file.
   *
   * @throws BadInputException with a one-line message if the file is missing, malformed, or a
   *     field has a value outside its domain
   */
  public static Catalogue load(Path file) throws BadInputException {
    if (!Files.isRegularFile(file)) {
      throw new BadInputException("model catalogue not found: " + file);
    }
    Catalogue catalogue;
    try {
      JsonMapper mapper = JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
      catalogue = mapper.readValue(file.toFile(), Catalogue.class);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
      throw new BadInputException(
          "cannot read " + file + where + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
    } catch (IOException e) {
      throw new BadInputException("cannot read " + file + ": " + e.getMessage());
    }
    catalogue.validate(file);
    return catalogue;
  }

  private void validate(Path file) throws BadInputException {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < models.size(); i++) {
      ModelEntry m = models.get(i);
      String label = file.getFileName() + ": model " + (m.name() == null ? "#" + (i + 1) : "'" + m.name() + "'");
      if (m.name() == null || m.name().isBlank() || !m.name().matches("[A-Za-z0-9_.-]+")) {
        throw new BadInputException(label + ": name must be non-empty letters, digits, '_', '-', '.'");
      }
      if (!names.add(m.name())) {
        throw new BadInputException(label + ": name used twice");
      }
      require(m.module() != null && m.module().matches("[A-Za-z0-9_]+"), label, "module must be a module name");
      require(m.cfg() != null && m.cfg().endsWith(".cfg") && !m.cfg().contains("/"), label,
          "cfg must be a .cfg file name in the models directory");
      require(m.version() != null && ProtocolVersions.CATALOGUE.contains(m.version()), label,
          "version '" + m.version() + "' is not one of " + String.join(", ", ProtocolVersions.CATALOGUE));
      require(m.topology() != null, label, CatalogueTopology.RULE);
      try {
        m.tierValue();
        m.expectedVerdict();
      } catch (IllegalArgumentException e) {
        throw new BadInputException(label + ": " + e.getMessage());
      }
    }
  }

  private static void require(boolean ok, String label, String message) throws BadInputException {
    if (!ok) {
      throw new BadInputException(label + ": " + message);
    }
  }

  /** The models of one tier, or of every tier when {@code tier} is null. */
  public List<ModelEntry> tier(Tier tier) {
    List<ModelEntry> selected = new ArrayList<>();
    for (ModelEntry m : models) {
      if (tier == null || m.tierValue() == tier) {
        selected.add(m);
      }
    }
    return selected;
  }

  /**
   * The named models, in the order given.
   *
   * @throws BadInputException naming the first name that is not in the catalogue
   */
  public List<ModelEntry> named(List<String> names) throws BadInputException {
    List<ModelEntry> selected = new ArrayList<>();
    for (String name : names) {
      ModelEntry found = models.stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
      if (found == null) {
        throw new BadInputException("no model named '" + name + "' in the catalogue");
      }
      selected.add(found);
    }
    return selected;
  }
}
