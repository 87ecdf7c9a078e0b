package dev.hicachesync.sync;

import dev.hicachesync.vocabulary.Labelled;
import java.util.Arrays;
import java.util.stream.Collectors;

/** A version of the sync protocol; the names are the TLA+ constant {@code Version}'s strings. */
public enum ProtocolVersion implements Labelled {
  /** Before #20460: reduce over the attn_tp group only, and skip when it has one member (B1 under CP). */
  PRE20460("pre20460"),
  /** After #20460: every sync point reduces over attn_cp, then attn_tp (singleton groups skipped). */
  POST20460("post20460"),
  /** #30511 on top of #20460: S1–S3 fused into one vector all-reduce (S123) over the CP×TP group. */
  MERGED("merged"),
  /**
   * Proposal #39903 (closed unmerged) on top of {@code merged}: S123 is issued asynchronously, an all-reduce on
   * groups of its own that returns a handle ({@code collective.AsyncAllReduce}, torch's {@code async_op=True}),
   * and its result is consumed at the next step's S123, which waits on the handle first ({@code
   * spec/HiCacheSync.tla}: {@code AsyncCheckHicacheEvents}, {@code SchedCheckHicacheEvents}).
   */
  PIPELINED("pipelined"),
  /**
   * SGLang's unified radix cache (#35081, {@code spec/HiCacheUnified.tla}): S123 is one MIN vector over the
   * CP×TP group whose storage part exists only while storage is enabled; host memory is allocated when the
   * scheduler drains the hit queue (no revoke queue); reads complete through per-batch acks MIN-reduced by a
   * completion-sync thread (#27010); S4 only under {@code timeout}, after the {@code is_terminated()}
   * short-circuit (#36425). PP = 1 only (the merged PP collective of #33473/#37562 is not implemented).
   */
  UNIFIED("unified");

  /**
   * The version a {@code SimConfig} or {@code HiCacheConfig} uses when none is named (the library's, which
   * the tests of the earlier versions rely on).
   */
  public static final ProtocolVersion DEFAULT = MERGED;

  /**
   * The protocol SGLang runs today (#35081): the default of {@code simulate} and of an ad-hoc {@code check}.
   * A spec-shaped run ({@code simulate --trace}) without {@code --version} stays on {@link
   * #DEFAULT}: its trace module follows HiCacheSync.tla.
   */
  public static final ProtocolVersion TODAY = UNIFIED;

  private final String label;

  ProtocolVersion(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code merged}. */
  @Override
  public String label() {
    return label;
  }

  /**
   * Returns the version named {@code name} (case-insensitive).
   *
   * @throws IllegalArgumentException with a one-line message listing the known versions
   */
  public static ProtocolVersion parse(String name) {
    return Labelled.find(ProtocolVersion.class, name).orElseThrow(() -> new IllegalArgumentException(
        "unknown protocol version '" + name + "'; expected one of "
            + Arrays.stream(values()).map(ProtocolVersion::label).collect(Collectors.joining(", "))));
  }

  @Override
  public String toString() {
    return label;
  }
}
