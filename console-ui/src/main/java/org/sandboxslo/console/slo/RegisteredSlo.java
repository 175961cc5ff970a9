package org.sandboxslo.console.slo;

import io.vertx.core.json.JsonObject;
import java.util.Objects;
import org.sandboxslo.engine.slo.SloDefinition;

/**
 * One registered SLO.
 *
 * @param definition the definition the engine evaluates
 * @param origin where it came from
 * @param body the definition in the console's JSON shape (as POSTed, read from a file, or
 *     generated)
 */
public record RegisteredSlo(SloDefinition definition, SloOrigin origin, JsonObject body) {
  public RegisteredSlo {
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(body, "body");
  }

  public String name() {
    return definition.name();
  }
}
