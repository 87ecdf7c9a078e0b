package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import tlc2.output.EC;
import tlc2.output.MP;

/** Splitting TLC's {@code -tool} output into messages. */
class TlcOutputTest {

  @Test
  void messagesPlainLinesAndNesting() {
    TlcOutput out = TlcOutput.of(Captured.output("Eval"));
    List<Integer> codes = out.messages().stream().map(TlcMessage::code).toList();
    // The cause (2154) is nested in TLC's "unexpected exception" (1000) and ends first.
    int cause = codes.indexOf(EC.TLC_MODULE_VALUE_JAVA_METHOD_OVERRIDE);
    assertEquals(EC.GENERAL, codes.get(cause + 1));
    TlcMessage general = out.messages().get(cause + 1);
    assertEquals(MP.ERROR, general.severity());
    assertEquals("TLC threw an unexpected exception.", general.firstLine());
    assertEquals(true, general.lines().contains(": "), "the text before the nested start tag stays with the outer");
    assertEquals(true, general.lines().stream().anyMatch(l -> l.startsWith("Cannot cast")), "the cause's lines too");
    assertEquals(List.of(EC.TLC_VERSION, EC.TLC_MODE_MC), codes.subList(0, 2));
    assertEquals(EC.TLC_FINISHED, codes.get(codes.size() - 1));
    // SANY's lines are printed outside any message.
    assertEquals(true, out.plain().stream().anyMatch(l -> l.startsWith("Semantic processing of module Eval")));
  }

  @Test
  void aMessageWithoutItsEndTagIsNotReported() {
    TlcOutput out = new TlcOutput();
    assertEquals(List.of(), out.accept("@!@!@STARTMSG 2200:0 @!@!@"));
    assertEquals(List.of(), out.accept("Progress(1) at ..."));
    List<TlcMessage> done = out.accept("@!@!@ENDMSG 2200 @!@!@");
    assertEquals(List.of(new TlcMessage(2200, 0, List.of("Progress(1) at ..."))), done);
    out.accept("@!@!@STARTMSG 2199:0 @!@!@");
    assertEquals(1, out.messages().size());
    assertEquals(4, out.lines().size());
  }
}
