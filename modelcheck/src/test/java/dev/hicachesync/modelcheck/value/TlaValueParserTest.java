package dev.hicachesync.modelcheck.value;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TlaValueParserTest {

  private static TlaValue.Int i(long v) {
    return new TlaValue.Int(v);
  }

  @Test
  void scalars() {
    assertEquals(i(42), TlaValueParser.parse("42"));
    assertEquals(i(-3), TlaValueParser.parse(" -3 "));
    assertEquals(new TlaValue.Str("a \"b\""), TlaValueParser.parse("\"a \\\"b\\\"\""));
    assertEquals(new TlaValue.Bool(true), TlaValueParser.parse("TRUE"));
    assertEquals(new TlaValue.Bool(false), TlaValueParser.parse("FALSE"));
    assertEquals(new TlaValue.ModelValue("NULL"), TlaValueParser.parse("NULL"));
  }

  @Test
  void collections() {
    assertEquals(new TlaValue.Tuple(List.of()), TlaValueParser.parse("<<>>"));
    assertEquals(new TlaValue.Tuple(List.of(i(1), new TlaValue.Str("S1"))), TlaValueParser.parse("<<1, \"S1\">>"));
    assertEquals(new TlaValue.SetValue(List.of()), TlaValueParser.parse("{}"));
    assertEquals(new TlaValue.SetValue(List.of(i(1), i(2))), TlaValueParser.parse("{1, 2}"));
    assertEquals(new TlaValue.SetValue(List.of(i(1), i(2), i(3))), TlaValueParser.parse("1..3"));
  }

  @Test
  void recordsAndFunctions() {
    Map<String, TlaValue> fields = new LinkedHashMap<>();
    fields.put("a", i(1));
    fields.put("b", new TlaValue.SetValue(List.of(i(2))));
    assertEquals(new TlaValue.Rec(fields), TlaValueParser.parse("[a |-> 1, b |-> {2}]"));

    Map<TlaValue, TlaValue> mapping = new LinkedHashMap<>();
    mapping.put(i(0), i(1));
    mapping.put(i(1), i(2));
    TlaValue fn = TlaValueParser.parse("(0 :> 1 @@ 1 :> 2)");
    assertEquals(new TlaValue.Fn(mapping), fn);
    assertEquals("(0 :> 1 @@ 1 :> 2)", fn.format());
  }

  @Test
  void multiLineValueAsTlcBreaksIt() {
    String text = String.join("\n",
        "( 0 :>",
        "      [ x |-> 9,",
        "        y |->",
        "            { \"alpha\",",
        "              \"beta\" } ] @@",
        "  1 :> [x |-> 0, y |-> {}] )");
    TlaValue.Fn fn = (TlaValue.Fn) TlaValueParser.parse(text);
    assertEquals(2, fn.mapping().size());
    assertEquals("[x |-> 9, y |-> {\"alpha\", \"beta\"}]", fn.mapping().get(i(0)).format());
  }

  @Test
  void formatRoundTrips() {
    String text = "[last |-> \"S2\", ok |-> FALSE, q |-> <<1, 2>>, f |-> (0 :> {} @@ 1 :> {3})]";
    assertEquals(text, TlaValueParser.parse(text).format());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "<<1, 2", "{1 2}", "[a 1]", "(0 :> 1 1 :> 2)", "\"open", "1 2", "@"})
  void rejectsMalformed(String text) {
    assertThrows(IllegalArgumentException.class, () -> TlaValueParser.parse(text));
  }
}
