package org.sandboxslo.apiserver;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side printing: a list or an object as a {@code meta.k8s.io/v1 Table}, asked for with
 * {@code Accept: application/json;as=Table;g=meta.k8s.io;v=v1}. Columns are Name plus the CRD's
 * additional printer columns (or Age when it declares none), cells formatted the way the CRD table
 * convertor does: the first JSONPath result, integers as numbers, {@code date} as an age such as
 * {@code 5m3s}, missing values as null.
 */
final class Tables {
  private Tables() {}

  /** What each row carries ({@code includeObject}): metadata only (default), all, or nothing. */
  enum IncludeObject {
    NONE,
    METADATA,
    OBJECT;

    static IncludeObject of(String queryValue) {
      if (queryValue == null) {
        return METADATA;
      }
      return switch (queryValue) {
        case "None" -> NONE;
        case "Object" -> OBJECT;
        default -> METADATA;
      };
    }
  }

  /** True when the Accept header asks for a meta.k8s.io/v1 Table. */
  static boolean wanted(String accept) {
    if (accept == null) {
      return false;
    }
    for (String range : accept.split(",")) {
      java.util.Map<String, String> params = new java.util.HashMap<>();
      for (String p : range.split(";")) {
        int eq = p.indexOf('=');
        if (eq > 0) {
          params.put(p.substring(0, eq).strip(), p.substring(eq + 1).strip());
        }
      }
      if ("Table".equals(params.get("as"))
          && "meta.k8s.io".equals(params.get("g"))
          && "v1".equals(params.get("v"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Converts a list ({@code items}) or a single object to a Table.
   *
   * @param resource the served resource (its columns), or null for an unlisted kind
   * @param body the list or object as the store returned it
   * @param include what each row's {@code object} holds
   * @param now the time ages are computed against
   */
  static ObjectNode of(ServedResource resource, JsonNode body, IncludeObject include, Instant now) {
    List<ServedResource.Column> columns = columns(resource);
    ObjectNode t = Json.object();
    t.put("kind", "Table");
    t.put("apiVersion", "meta.k8s.io/v1");
    ObjectNode meta = t.putObject("metadata");
    String rv = body.path("metadata").path("resourceVersion").asString("");
    if (!rv.isEmpty() && body.has("items")) {
      meta.put("resourceVersion", rv);
    }
    ArrayNode defs = t.putArray("columnDefinitions");
    ObjectNode nameDef = defs.addObject();
    nameDef.put("name", "Name");
    nameDef.put("type", "string");
    nameDef.put("format", "name");
    nameDef.put("description", "Name must be unique within a namespace.");
    nameDef.put("priority", 0);
    for (ServedResource.Column c : columns) {
      ObjectNode d = defs.addObject();
      d.put("name", c.name());
      d.put("type", c.type());
      d.put("format", c.format());
      d.put("description", c.description());
      d.put("priority", c.priority());
    }
    ArrayNode rows = t.putArray("rows");
    List<JsonNode> objects = new ArrayList<>();
    if (body.has("items")) {
      body.path("items").forEach(objects::add);
    } else {
      objects.add(body);
    }
    for (JsonNode o : objects) {
      rows.add(row(columns, o, include, now));
    }
    return t;
  }

  /** One row: cells for Name and each column, and the object as {@code include} says. */
  static ObjectNode row(
      List<ServedResource.Column> columns, JsonNode object, IncludeObject include, Instant now) {
    ObjectNode row = Json.object();
    ArrayNode cells = row.putArray("cells");
    cells.add(object.path("metadata").path("name").asString(""));
    for (ServedResource.Column c : columns) {
      cells.add(cell(c, object, now));
    }
    switch (include) {
      case OBJECT -> row.set("object", object);
      case METADATA -> {
        ObjectNode partial = row.putObject("object");
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", object.path("metadata"));
      }
      case NONE -> {}
    }
    return row;
  }

  /** The default column: the object's age. */
  static final ServedResource.Column AGE =
      new ServedResource.Column(
          "Age",
          "date",
          "",
          "CreationTimestamp is a timestamp representing the server time when this object was"
              + " created.",
          0,
          ".metadata.creationTimestamp");

  /** The columns after Name: the resource's, or Age when it declares none. */
  static List<ServedResource.Column> columns(ServedResource resource) {
    return resource == null || resource.columns().isEmpty() ? List.of(AGE) : resource.columns();
  }

  private static JsonNode cell(ServedResource.Column c, JsonNode object, Instant now) {
    List<JsonNode> found = JsonPathSubset.select(object, c.jsonPath());
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (found.isEmpty() || found.get(0).isNull()) {
      return f.nullNode();
    }
    JsonNode v = found.get(0);
    return switch (c.type()) {
      case "integer" -> v.isIntegralNumber() ? v : f.nullNode();
      case "number" -> v.isNumber() ? v : f.nullNode();
      case "boolean" -> v.isBoolean() ? v : f.nullNode();
      case "date" -> {
        try {
          yield f.stringNode(humanDuration(Duration.between(Instant.parse(v.asString()), now)));
        } catch (DateTimeParseException e) {
          yield f.nullNode();
        }
      }
      default -> f.stringNode(v.isValueNode() ? v.asString() : Json.write(v));
    };
  }

  /**
   * An age as {@code kubectl} prints it (apimachinery's {@code duration.HumanDuration}): {@code
   * 45s}, {@code 2m}, {@code 5m3s}, {@code 15m}, {@code 3h20m}, {@code 9h}, {@code 2d5h}, {@code
   * 30d}, {@code 2y10d}, {@code 9y}; less than -1 s is {@code <invalid>}, between -1 s and 0 is
   * {@code 0s}.
   */
  static String humanDuration(Duration d) {
    long seconds = d.toSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = d.toMinutes();
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = d.toHours();
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = hours / 24 % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }
}
