package dev.hicachesync.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Streaming reader of a Mooncake NDJSON trace: one validated {@link MooncakeRequest} per non-blank line.
 *
 * <p>Every line is checked before it is handed out, so a replay never starts on a file it cannot finish:
 * the line must be one JSON object (nothing after it) with the four integer fields, lengths
 * non-negative, {@code input_length} consistent with the number of blocks (every block non-empty:
 * {@code 512·(n−1) < input_length ≤ 512·n}), hashes non-negative, and timestamps non-decreasing
 * (the file order is the arrival order the replay follows). Unknown fields are ignored, as the
 * Mooncake release may add some. Block ids must fit {@link BlockTokens}' packing (below 2^21). The
 * first bad line throws {@link MalformedTraceException}.
 * Not thread-safe: one reader per consumer.
 */
public final class MooncakeTrace implements Iterator<MooncakeRequest>, Closeable {

  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  /**
   * Longest line read: 1 MiB. A request of 2^21 tokens (far beyond any model's context) has 4,096 block
   * ids, some 60 KB of JSON.
   */
  static final int MAX_LINE_CHARS = 1 << 20;

  private final BufferedReader in;
  private final String name;
  private long line;
  private int index;
  private long lastTimestamp;
  private long outputBase;
  private MooncakeRequest pending;

  private MooncakeTrace(BufferedReader in, String name) {
    this.in = in;
    this.name = name;
  }

  /** Opens {@code file} for streaming; errors name the file by its file name. */
  public static MooncakeTrace open(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException(file + " is a folder, not a trace file");
    }
    return new MooncakeTrace(Files.newBufferedReader(file, StandardCharsets.UTF_8),
        String.valueOf(file.getFileName()));
  }

  /** Streams from {@code reader}; errors name the source as {@code name}. */
  public static MooncakeTrace open(Reader reader, String name) {
    return new MooncakeTrace(new BufferedReader(reader), name);
  }

  /** Reads the first {@code limit} requests of {@code file} ({@code limit <= 0}: all of them). */
  public static List<MooncakeRequest> readAll(Path file, int limit) throws IOException {
    List<MooncakeRequest> out = new ArrayList<>();
    try (MooncakeTrace trace = open(file)) {
      while (trace.hasNext() && (limit <= 0 || out.size() < limit)) {
        out.add(trace.next());
      }
    }
    return out;
  }

  @Override
  public boolean hasNext() {
    if (pending == null) {
      pending = readNext();
    }
    return pending != null;
  }

  @Override
  public MooncakeRequest next() {
    if (!hasNext()) {
      throw new NoSuchElementException(name + ": no more requests");
    }
    MooncakeRequest r = pending;
    pending = null;
    return r;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private MooncakeRequest readNext() {
    String text;
    try {
      // Blank lines (a trailing newline, an editor's extra line) carry no request: skip them.
      do {
        text = boundedLine();
        if (text == null) {
          return null;
        }
        line++;
      } while (text.isBlank());
    } catch (java.nio.charset.CharacterCodingException e) {
      line++;
      throw bad("line", "not UTF-8 text; a Mooncake trace is UTF-8 JSON lines");
    } catch (IOException e) {
      throw new UncheckedIOException(name + ":" + (line + 1) + ": cannot read: " + e.getMessage(), e);
    }
    MooncakeRequest r = parse(text);
    lastTimestamp = r.timestampMs();
    outputBase += r.outputLength();
    index++;
    return r;
  }

  /**
   * Returns the next line without its terminator, or null at the end; a line longer than {@link
   * #MAX_LINE_CHARS} is refused before it is held whole (a 50 MB line must not become a 100 MB string and
   * a million-block request).
   */
  private String boundedLine() throws IOException {
    StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        return b.toString();
      }
      if (b.length() >= MAX_LINE_CHARS) {
        line++;
        throw bad("line", "longer than " + MAX_LINE_CHARS + " characters; a Mooncake request line is a few KB");
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }

  private MooncakeRequest parse(String text) {
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw bad("line", "not valid JSON (" + firstLine(e.getOriginalMessage()) + ")");
    }
    if (node == null || !node.isObject()) {
      throw bad("line", "not a JSON object");
    }
    long timestamp = integer(node, "timestamp", Long.MAX_VALUE);
    if (timestamp < lastTimestamp) {
      throw bad("timestamp", "decreases (" + lastTimestamp + " then " + timestamp
          + "); the replay needs the file in arrival order");
    }
    int input = (int) integer(node, "input_length", Integer.MAX_VALUE);
    int output = (int) integer(node, "output_length", Integer.MAX_VALUE);
    long[] hashes = hashIds(node);
    long n = hashes.length;
    if (n == 0) {
      throw bad("hash_ids", "empty; a request has at least one input token, so at least one block");
    }
    int bt = MooncakeRequest.BLOCK_TOKENS;
    if (input > bt * n) {
      throw bad("input_length", input + " is larger than 512 x " + n + " hash_ids = " + bt * n);
    }
    if (input < bt * (n - 1) + 1) {
      throw bad("input_length", input + " leaves block " + (n - 1) + " of hash_ids empty (needs at least "
          + (bt * (n - 1) + 1) + ")");
    }
    if (outputBase + output > BlockTokens.MAX_OUTPUT_TOKENS) {
      throw bad("output_length", "the trace's outputs so far exceed " + BlockTokens.MAX_OUTPUT_TOKENS
          + " synthetic tokens");
    }
    return new MooncakeRequest(index, line, timestamp, input, output, hashes, outputBase);
  }

  private long integer(JsonNode obj, String field, long max) {
    JsonNode v = obj.get(field);
    if (v == null) {
      throw bad(field, "missing");
    }
    return checkedInteger(v, field, max);
  }

  private long checkedInteger(JsonNode v, String field, long max) {
    if (!v.isIntegralNumber()) {
      throw bad(field, "expected a non-negative integer, got " + shorten(v.toString()));
    }
    if (!v.canConvertToLong() || v.longValue() > max) {
      throw bad(field, "out of range (at most " + max + "), got " + shorten(v.toString()));
    }
    if (v.longValue() < 0) {
      throw bad(field, "must be >= 0, got " + v.longValue());
    }
    return v.longValue();
  }

  private long[] hashIds(JsonNode obj) {
    JsonNode v = obj.get("hash_ids");
    if (v == null) {
      throw bad("hash_ids", "missing");
    }
    if (!v.isArray()) {
      throw bad("hash_ids", "expected an array of non-negative integers, got " + shorten(v.toString()));
    }
    long[] out = new long[v.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = checkedInteger(v.get(i), "hash_ids[" + i + "]", BlockTokens.MAX_BLOCK_ID);
    }
    return out;
  }

  private MalformedTraceException bad(String field, String problem) {
    return new MalformedTraceException(name, line, field, problem);
  }

  private static String shorten(String s) {
    return s.length() <= 40 ? s : s.substring(0, 37) + "...";
  }

  // Jackson messages can span lines (source excerpts); the contract is one line.
  private static String firstLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
