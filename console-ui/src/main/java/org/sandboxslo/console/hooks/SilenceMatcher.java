package org.sandboxslo.console.hooks;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sandboxslo.console.api.ApiException;

/**
 * One Alertmanager matcher (API v2 {@code matchers[]} of a silence, or a {@code filter} of {@code
 * GET /api/v2/alerts}).
 *
 * @param name label name, non-empty
 * @param value value or regular expression
 * @param regex whether {@code value} is a regular expression ({@code =~}, {@code !~})
 * @param equal whether the matcher selects equality ({@code =}, {@code =~}) rather than its
 *     negation ({@code !=}, {@code !~})
 */
public record SilenceMatcher(String name, String value, boolean regex, boolean equal) {
  private static final Pattern ONE =
      Pattern.compile(
          "\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(=~|!~|!=|=)\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,\\s{}\"]+)\\s*");

  public SilenceMatcher {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("matcher name must not be empty");
    }
  }

  /** {@code name="value"} equality. */
  public static SilenceMatcher eq(String name, String value) {
    return new SilenceMatcher(name, value, false, true);
  }

  /** Whether it pins {@code label} to one non-empty value ({@code label="x"}). */
  public boolean pins(String label) {
    return name.equals(label) && equal && !regex && !value.isEmpty();
  }

  /** The matcher in Alertmanager's text form, e.g. {@code alertname="WarmPoolDrained"}. */
  @Override
  public String toString() {
    String op = equal ? (regex ? "=~" : "=") : (regex ? "!~" : "!=");
    return name + op + "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** API v2 JSON: {@code {"name","value","isRegex","isEqual"}}. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("name", name)
        .put("value", value)
        .put("isRegex", regex)
        .put("isEqual", equal);
  }

  /**
   * From API v2 JSON ({@code isEqual} defaults to true, as in Alertmanager).
   *
   * @throws ApiException 400 naming {@code field} for a wrong type or a missing name/value
   */
  public static SilenceMatcher fromJson(Object v, String field) {
    if (!(v instanceof JsonObject o)) {
      throw ApiException.badRequest(
          field, "expected {\"name\",\"value\",\"isRegex\"?,\"isEqual\"?}");
    }
    if (!(o.getValue("name") instanceof String n) || n.isEmpty()) {
      throw ApiException.badRequest(field + ".name", "expected a non-empty string");
    }
    if (!(o.getValue("value") instanceof String val)) {
      throw ApiException.badRequest(field + ".value", "expected a string");
    }
    Object r = o.getValue("isRegex", false);
    Object e = o.getValue("isEqual", true);
    if (!(r instanceof Boolean rb)) {
      throw ApiException.badRequest(field + ".isRegex", "expected true or false");
    }
    if (!(e instanceof Boolean eb)) {
      throw ApiException.badRequest(field + ".isEqual", "expected true or false");
    }
    return new SilenceMatcher(n, val, rb, eb);
  }

  /**
   * Parses {@code alertname="X",namespace=demo} or {@code {alertname="X", namespace="demo"}}
   * (amtool's forms; values may be quoted or bare).
   *
   * @throws ApiException 400 naming {@code field} when the text is not a matcher list
   */
  public static List<SilenceMatcher> parseList(String text, String field) {
    String t = text.trim();
    if (t.startsWith("{") && t.endsWith("}")) {
      t = t.substring(1, t.length() - 1);
    }
    List<SilenceMatcher> out = new ArrayList<>();
    Matcher m = ONE.matcher(t);
    int at = 0;
    while (at < t.length()) {
      m.region(at, t.length());
      if (!m.lookingAt()) {
        throw ApiException.badRequest(
            field,
            "expected matchers like alertname=\"WarmPoolDrained\",namespace=\"demo\"; cannot read '"
                + t.substring(at)
                + "'");
      }
      String op = m.group(2);
      String value = m.group(4) != null ? m.group(4).replaceAll("\\\\(.)", "$1") : m.group(3);
      out.add(new SilenceMatcher(m.group(1), value, op.contains("~"), !op.startsWith("!")));
      at = m.end();
      if (at < t.length()) {
        if (t.charAt(at) != ',') {
          throw ApiException.badRequest(
              field, "expected ',' between matchers at '" + t.substring(at) + "'");
        }
        at++;
      }
    }
    if (out.isEmpty()) {
      throw ApiException.badRequest(field, "at least one matcher is required");
    }
    return out;
  }
}
