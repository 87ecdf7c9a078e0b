package dev.hicachesync.modelcheck;

import java.util.List;
import tlc2.output.MP;

/**
 * One message of TLC's {@code -tool} output: TLC prints every message between {@code @!@!@STARTMSG
 * code:severity @!@!@} and {@code @!@!@ENDMSG code @!@!@}, with a code of {@link tlc2.output.EC} and a
 * severity of {@link MP} ({@link MP#NONE}, {@link MP#ERROR}, {@link MP#TLCBUG}, {@link MP#WARNING},
 * {@link MP#STATE}).
 *
 * @param code TLC's message code, a constant of {@link tlc2.output.EC}
 * @param severity TLC's message class, a constant of {@link MP}
 * @param lines the message's text; a message nested in this one contributes its lines too
 */
public record TlcMessage(int code, int severity, List<String> lines) {

  public TlcMessage {
    lines = List.copyOf(lines);
  }

  /** Whether TLC marked the message as an error or a bug of its own. */
  public boolean isError() {
    return severity == MP.ERROR || severity == MP.TLCBUG;
  }

  /** The first line of the text, or "". */
  public String firstLine() {
    return lines.isEmpty() ? "" : lines.get(0);
  }

  /** The lines after the first. */
  public List<String> rest() {
    return lines.isEmpty() ? List.of() : lines.subList(1, lines.size());
  }
}
