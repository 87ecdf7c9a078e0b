package dev.hicachesync.report;

/**
 * One replay of a capacity sweep: the write policy and host capacity it ran with, and its hit ratios.
 *
 * <p>Ratios are fractions of all input tokens of the trace, so the three tier ratios add up to
 * {@code total} and {@code 1 − total} is the miss ratio.
 *
 * @param writePolicy {@code write_through}, {@code write_through_selective} or {@code write_back}
 * @param hostRatio host (L2) capacity as a multiple of the device (L1) capacity; 0 = no host tier
 * @param l1 tokens matched in device memory
 * @param l2 tokens matched on the host and loaded back to the device
 * @param l3 tokens matched in storage and prefetched to the host
 * @param total {@code l1 + l2 + l3}
 */
public record SweepPoint(String writePolicy, double hostRatio, double l1, double l2, double l3,
    double total) {

  /** The ratio of one tier by its chart label. */
  double tier(Tier t) {
    return switch (t) {
      case L1 -> l1;
      case L2 -> l2;
      case L3 -> l3;
      case TOTAL -> total;
    };
  }

  /** The tiers the chart draws, top to bottom, with their axis labels. */
  enum Tier {
    L1("L1 device hits"),
    L2("L2 host hits (loaded back)"),
    L3("L3 storage hits (prefetched)"),
    TOTAL("total hit ratio");

    private final String label;

    Tier(String label) {
      this.label = label;
    }

    /** The tier's axis label. */
    String label() {
      return label;
    }
  }
}
