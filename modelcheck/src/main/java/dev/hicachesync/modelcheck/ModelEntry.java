package dev.hicachesync.modelcheck;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.hicachesync.topology.Topology;

/**
 * One model of the catalogue, as written in {@code modelcheck/models/catalogue.json}; see
 * docs/reference/catalogue.md for the format. {@link Catalogue#load} validates every field.
 *
 * @param name unique row label
 * @param module the TLA+ module TLC runs
 * @param cfg the TLC configuration file, in the models directory
 * @param tier {@code ci} or {@code deep}
 * @param bug catalogue bug id (B1, ...) or null
 * @param ref PR or issue reference, or null
 * @param version protocol version
 * @param topology parallel sizes ({@code pp} may be left out and means 1)
 * @param expected expected verdict text
 * @param liveness whether the cfg checks temporal properties (TLC then runs with one worker)
 * @param recorded last measured figures, or null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ModelEntry(
    String name,
    String module,
    String cfg,
    String tier,
    String bug,
    String ref,
    String version,
    @JsonDeserialize(using = CatalogueTopology.class) Topology topology,
    String expected,
    Boolean liveness,
    Recorded recorded) {

  /** The tier, {@code ci} when the entry leaves it out. */
  public Tier tierValue() {
    return tier == null ? Tier.CI : Tier.parse(tier);
  }

  /** The expected verdict. */
  public Verdict expectedVerdict() {
    return Verdict.parseExpected(expected);
  }

  /** Whether the catalogue marks the model as checking temporal properties. */
  public boolean hasLiveness() {
    return Boolean.TRUE.equals(liveness);
  }
}
