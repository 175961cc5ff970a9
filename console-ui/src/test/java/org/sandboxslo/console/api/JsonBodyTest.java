package org.sandboxslo.console.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import org.junit.jupiter.api.Test;

/** The media-type check and the one-line parse reasons of the JSON body reader. */
class JsonBodyTest {
  @Test
  void onlyApplicationJsonIsAccepted() {
    JsonBody.requireJson("application/json");
    JsonBody.requireJson("Application/JSON; charset=UTF-8");
    for (String t :
        new String[] {"text/plain", "application/jsonx", "application/x-www-form-urlencoded"}) {
      ApiException e = assertThrows(ApiException.class, () -> JsonBody.requireJson(t), t);
      assertEquals(415, e.status());
      assertEquals("Content-Type", e.toJson().getString("field"));
      assertEquals("expected application/json, got '" + t + "'", e.toJson().getString("reason"));
    }
    assertEquals(
        "missing Content-Type; expected application/json",
        assertThrows(ApiException.class, () -> JsonBody.requireJson(null))
            .toJson()
            .getString("reason"));
  }

  @Test
  void aParseErrorIsOneLineWithItsPosition() {
    // {"a":} : the value is missing where the '}' stands, line 1, column 6
    DecodeException e = assertThrows(DecodeException.class, () -> Json.decodeValue("{\"a\":}"));
    String reason = JsonBody.parseReason(e.getMessage());
    assertEquals(
        "not valid JSON at line 1, column 6: Unexpected character ('}' (code 125)): expected a"
            + " valid value (JSON String, Number, Array, Object or token 'null', 'true' or"
            + " 'false')",
        reason);
    assertEquals(-1, reason.indexOf('\n'));
    // a second line: the position counts lines from 1
    DecodeException two =
        assertThrows(DecodeException.class, () -> Json.decodeValue("{\n  \"a\": tru\n}"));
    assertEquals(
        true,
        JsonBody.parseReason(two.getMessage()).startsWith("not valid JSON at line 2, column "),
        JsonBody.parseReason(two.getMessage()));
  }
}
