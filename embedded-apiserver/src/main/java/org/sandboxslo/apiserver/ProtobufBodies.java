package org.sandboxslo.apiserver;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one protobuf body kubectl sends here: {@code kubectl create namespace} posts a {@code
 * v1.Namespace} in the Kubernetes protobuf envelope ({@code k8s\0} + {@code runtime.Unknown}) and
 * does not retry as JSON after a 415. Its metadata (name, generateName, labels, annotations) is
 * read; everything else is refused with 415 by the caller.
 */
final class ProtobufBodies {
  private ProtobufBodies() {}

  private static final byte[] MAGIC = {0x6b, 0x38, 0x73, 0x00};

  /**
   * The Namespace in {@code body} as JSON, or empty when the body is not an enveloped v1 Namespace
   * (or is malformed).
   */
  static Optional<ObjectNode> namespace(byte[] body) {
    if (body == null
        || body.length < MAGIC.length
        || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
      return Optional.empty();
    }
    try {
      Reader unknown = new Reader(Arrays.copyOfRange(body, MAGIC.length, body.length));
      String apiVersion = null;
      String kind = null;
      byte[] raw = null;
      while (unknown.more()) {
        int tag = unknown.varint32();
        if (tag == (1 << 3 | 2)) {
          Reader typeMeta = new Reader(unknown.bytes());
          while (typeMeta.more()) {
            int t = typeMeta.varint32();
            if (t == (1 << 3 | 2)) {
              apiVersion = typeMeta.string();
            } else if (t == (2 << 3 | 2)) {
              kind = typeMeta.string();
            } else {
              typeMeta.skip(t);
            }
          }
        } else if (tag == (2 << 3 | 2)) {
          raw = unknown.bytes();
        } else {
          unknown.skip(tag);
        }
      }
      if (!"v1".equals(apiVersion) || !"Namespace".equals(kind) || raw == null) {
        return Optional.empty();
      }
      ObjectNode ns = Json.object();
      ns.put("apiVersion", "v1");
      ns.put("kind", "Namespace");
      ObjectNode meta = ns.putObject("metadata");
      Reader namespace = new Reader(raw);
      while (namespace.more()) {
        int tag = namespace.varint32();
        if (tag == (1 << 3 | 2)) {
          readObjectMeta(new Reader(namespace.bytes()), meta);
        } else {
          namespace.skip(tag);
        }
      }
      return Optional.of(ns);
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  /** ObjectMeta: name = 1, generateName = 2, labels = 11, annotations = 12 (map entries). */
  private static void readObjectMeta(Reader r, ObjectNode meta) {
    while (r.more()) {
      int tag = r.varint32();
      int field = tag >>> 3;
      if ((field == 1 || field == 2) && (tag & 7) == 2) {
        String v = r.string();
        if (!v.isEmpty()) {
          meta.put(field == 1 ? "name" : "generateName", v);
        }
      } else if ((field == 11 || field == 12) && (tag & 7) == 2) {
        Reader entry = new Reader(r.bytes());
        String key = "";
        String value = "";
        while (entry.more()) {
          int t = entry.varint32();
          if (t == (1 << 3 | 2)) {
            key = entry.string();
          } else if (t == (2 << 3 | 2)) {
            value = entry.string();
          } else {
            entry.skip(t);
          }
        }
        meta.withObjectProperty(field == 11 ? "labels" : "annotations").put(key, value);
      } else {
        r.skip(tag);
      }
    }
  }

  /** A protobuf wire-format reader; malformed input throws IllegalStateException. */
  private static final class Reader {
    private final byte[] buf;
    private int pos;

    Reader(byte[] bytes) {
      buf = bytes;
    }

    boolean more() {
      return pos < buf.length;
    }

    long varint() {
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= buf.length) {
          throw new IllegalStateException("truncated varint");
        }
        int b = buf[pos++] & 0xff;
        v |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IllegalStateException("varint too long");
    }

    int varint32() {
      return (int) varint();
    }

    byte[] bytes() {
      long len = varint();
      advance(len);
      return Arrays.copyOfRange(buf, pos - (int) len, pos);
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    private void advance(long n) {
      if (n < 0 || n > buf.length - pos) {
        throw new IllegalStateException("truncated field");
      }
      pos += (int) n;
    }

    void skip(int tag) {
      switch (tag & 7) {
        case 0 -> varint();
        case 1 -> advance(8);
        case 2 -> bytes();
        case 5 -> advance(4);
        default -> throw new IllegalStateException("unsupported wire type " + (tag & 7));
      }
    }
  }
}
