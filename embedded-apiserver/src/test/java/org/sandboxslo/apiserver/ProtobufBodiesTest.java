package org.sandboxslo.apiserver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProtobufBodiesTest {
  /** A length-delimited field: tag (number << 3 | 2), length, bytes. */
  static byte[] field(int number, byte[] value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(number << 3 | 2);
    out.write(value.length); // all test values are shorter than 128 bytes
    out.writeBytes(value);
    return out.toByteArray();
  }

  static byte[] field(int number, String value) {
    return field(number, value.getBytes(StandardCharsets.UTF_8));
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** k8s\0 + Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding, contentType}. */
  static byte[] envelope(String apiVersion, String kind, byte[] raw) {
    return concat(
        new byte[] {0x6b, 0x38, 0x73, 0x00},
        field(1, concat(field(1, apiVersion), field(2, kind))),
        field(2, raw),
        field(3, ""),
        field(4, ""));
  }

  @Test
  void readsTheNamespaceKubectlCreateSends() {
    // ObjectMeta{name "team-x", generateName "", labels {env: dev}}, then an empty spec and status
    byte[] meta =
        concat(
            field(1, "team-x"), field(2, ""), field(11, concat(field(1, "env"), field(2, "dev"))));
    byte[] namespace = concat(field(1, meta), field(2, new byte[0]), field(3, new byte[0]));
    assertEquals(
        Optional.of(
            Json.parse(
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                    + "\"metadata\":{\"name\":\"team-x\",\"labels\":{\"env\":\"dev\"}}}")),
        ProtobufBodies.namespace(envelope("v1", "Namespace", namespace)));
  }

  @Test
  void anythingElseIsNotRead() {
    byte[] meta = field(1, field(1, "cm"));
    assertEquals(Optional.empty(), ProtobufBodies.namespace(envelope("v1", "ConfigMap", meta)));
    assertEquals(Optional.empty(), ProtobufBodies.namespace("{\"kind\":\"Namespace\"}".getBytes()));
    // a truncated message: the length says 100 bytes, 2 follow
    assertEquals(
        Optional.empty(),
        ProtobufBodies.namespace(new byte[] {0x6b, 0x38, 0x73, 0x00, 0x0a, 100, 1, 2}));
    assertEquals(Optional.empty(), ProtobufBodies.namespace(null));
  }
}
