package org.sandboxslo.console.chatops;

import java.net.URI;
import java.util.Objects;

/**
 * Links into the web console, from {@code sloconsole.http.external-url}.
 *
 * @param base the console's public base URL, without a trailing slash
 */
record Links(URI base) {
  Links {
    Objects.requireNonNull(base, "base");
  }

  /** {@code base + path}, e.g. {@code link("/plans/p-1")}. */
  String link(String path) {
    return base + (path.startsWith("/") ? path : "/" + path);
  }
}
