package org.sandboxslo.console;

import io.vertx.ext.web.Router;

/** Test access to the console's JSON error handling for routers built in other packages. */
public final class ConsoleVerticleAccess {
  private ConsoleVerticleAccess() {}

  public static void jsonErrors(Router r) {
    ConsoleVerticle.jsonErrors(r);
  }
}
