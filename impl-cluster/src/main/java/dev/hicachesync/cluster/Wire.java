package dev.hicachesync.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The four messages rank processes exchange, as bytes: a start-up {@code HELLO} (rank and identity), a
 * group member's {@code CALL}, a pipeline {@code PIPE} message, a {@code BEAT} (rank only) that says the
 * process still runs, and {@code LOST} (sender, lost rank): a rank its sender found silent past a timeout. Small and explicit on purpose: no Java
 * serialization crosses process boundaries.
 */
final class Wire {
  static final byte HELLO = 1;
  static final byte CALL = 2;
  static final byte PIPE = 3;
  static final byte BEAT = 4;
  static final byte LOST = 5;

  private Wire() {}

  static byte[] hello(int rank, String identity) {
    return write(out -> {
      out.writeByte(HELLO);
      out.writeInt(rank);
      out.writeUTF(identity);
    });
  }

  static byte[] beat(int rank) {
    return write(out -> {
      out.writeByte(BEAT);
      out.writeInt(rank);
    });
  }

  static byte[] lost(int rank, int lostRank) {
    return write(out -> {
      out.writeByte(LOST);
      out.writeInt(rank);
      out.writeInt(lostRank);
    });
  }

  static byte[] call(String group, long seq, int rank, WireCall call) {
    return write(out -> {
      out.writeByte(CALL);
      out.writeUTF(group);
      out.writeLong(seq);
      out.writeInt(rank);
      out.writeUTF(call.kind());
      out.writeUTF(call.site());
      writeLongs(out, call.values());
    });
  }

  static byte[] pipe(int from, int to, long seq, long[] values) {
    return write(out -> {
      out.writeByte(PIPE);
      out.writeInt(from);
      out.writeInt(to);
      out.writeLong(seq);
      writeLongs(out, values);
    });
  }

  /** A decoded message; only the fields of its type are set. */
  record Decoded(byte type, int rank, String identity, String group, long seq, WireCall call, int to, long[] values) {}

  static Decoded read(byte[] bytes, int offset, int length) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, offset, length))) {
      byte type = in.readByte();
      switch (type) {
        case HELLO:
          return new Decoded(type, in.readInt(), in.readUTF(), null, 0, null, -1, null);
        case BEAT:
          return new Decoded(type, in.readInt(), null, null, 0, null, -1, null);
        case LOST:
          return new Decoded(type, in.readInt(), null, null, 0, null, in.readInt(), null);
        case CALL: {
          String group = in.readUTF();
          long seq = in.readLong();
          int rank = in.readInt();
          WireCall call = new WireCall(in.readUTF(), in.readUTF(), readLongs(in));
          return new Decoded(type, rank, null, group, seq, call, -1, null);
        }
        case PIPE: {
          int from = in.readInt();
          int to = in.readInt();
          long seq = in.readLong();
          return new Decoded(type, from, null, null, seq, null, to, readLongs(in));
        }
        default:
          throw new IllegalArgumentException("unknown message type " + type);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("malformed cluster message", e);
    }
  }

  private interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  private static byte[] write(Writer w) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      w.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  private static void writeLongs(DataOutputStream out, long[] values) throws IOException {
    out.writeInt(values.length);
    for (long v : values) {
      out.writeLong(v);
    }
  }

  private static long[] readLongs(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > (1 << 20)) {
      throw new IOException("payload length " + n + " out of range");
    }
    long[] values = new long[n];
    for (int i = 0; i < n; i++) {
      values[i] = in.readLong();
    }
    return values;
  }
}
