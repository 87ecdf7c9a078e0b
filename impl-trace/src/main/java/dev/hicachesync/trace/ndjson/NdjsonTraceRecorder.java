package dev.hicachesync.trace.ndjson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.RankFailedRecord;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecord;
import dev.hicachesync.trace.TraceRecorder;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a trace as NDJSON, one object a line (format: {@link TraceReader}).
 *
 * <p>Any thread: every call writes its whole line under this object's lock, so lines never interleave and
 * each rank's lines keep that rank's order. Write errors are thrown as {@link UncheckedIOException}.
 */
public final class NdjsonTraceRecorder implements TraceRecorder, Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  // @GuardedBy("this")
  private final Writer out;
  // @GuardedBy("this")
  private boolean headerWritten;

  /** Writes to {@code out}; closing the recorder closes it. */
  public NdjsonTraceRecorder(Writer out) {
    this.out = out;
  }

  /** Creates (or truncates) {@code file} and writes to it. */
  public static NdjsonTraceRecorder toFile(Path file) throws IOException {
    return new NdjsonTraceRecorder(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public synchronized void header(TraceHeader h) {
    if (headerWritten) {
      throw new IllegalStateException("the trace header is written once");
    }
    headerWritten = true;
    write(headerFields(h));
  }

  @Override
  public synchronized void record(TraceRecord record) {
    if (!headerWritten) {
      throw new IllegalStateException("write the trace header before the first event");
    }
    write(fields(record));
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  /** The header as the ordered JSON fields the format names. */
  static Map<String, Object> headerFields(TraceHeader h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("trace", TraceHeader.FORMAT);
    m.put("DP", h.dp());
    m.put("CP", h.cp());
    m.put("TP", h.tp());
    m.put("PP", h.pp());
    m.put("Version", h.version());
    m.put("Policy", h.policy());
    m.put("WritePolicy", h.writePolicy());
    m.put("StorageOn", h.storage());
    m.put("Requests", h.requests());
    m.put("PagesPerKey", h.pagesPerKey());
    m.put("DeviceCap", h.deviceCap());
    m.put("HostCap", h.hostCap());
    m.put("PrefetchThreshold", h.prefetchThreshold());
    m.put("Features", h.features().stream().map(TraceFeature::label).toList());
    return m;
  }

  /** An event as the ordered JSON fields the format names. */
  static Map<String, Object> fields(TraceRecord record) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ev", record.event().name());
    m.put("r", record.rank());
    m.put("step", record.step());
    if (record instanceof CollectiveRecord c) {
      m.put("grp", c.group());
      m.put("ch", c.channel());
      m.put("m", c.members());
      m.put("site", c.site());
      m.put("stage", c.stage());
      m.put("op", c.op());
      m.put("val", c.value());
      m.put("res", c.result());
      if (c.popped() != null) {
        m.put("pop", c.popped());
      }
      if (c.snapshot() != null) {
        Snapshot s = c.snapshot();
        Map<String, Object> sm = new LinkedHashMap<>();
        sm.put("dfree", s.deviceFree());
        sm.put("hfree", s.hostFree());
        sm.put("nwq", s.writeAcks());
        sm.put("nlq", s.loadAcks());
        sm.put("nrv", s.revokes());
        sm.put("nrl", s.releases());
        sm.put("wait", s.waiting());
        sm.put("run", s.running());
        if (s.backupAcks() >= 0) {
          sm.put("nba", s.backupAcks());
        }
        if (s.digest() != null) {
          sm.put("dig", s.digest());
        }
        if (s.abortedRunning() >= 0) {
          sm.put("abr", s.abortedRunning());
        }
        m.put("snap", sm);
      }
    } else if (record instanceof RankFailedRecord f) {
      m.put("reason", f.reason());
    }
    return m;
  }

  /** One line of NDJSON for {@code record} (no newline). */
  public static String line(TraceRecord record) {
    return json(fields(record));
  }

  /** One line of NDJSON for {@code header} (no newline). */
  public static String line(TraceHeader header) {
    return json(headerFields(header));
  }

  private static String json(Map<String, Object> fields) {
    try {
      return JSON.writeValueAsString(fields);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a trace line", e);
    }
  }

  private void write(Map<String, Object> fields) {
    try {
      out.write(json(fields));
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the trace", e);
    }
  }
}
