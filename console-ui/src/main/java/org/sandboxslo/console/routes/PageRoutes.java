package org.sandboxslo.console.routes;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.regex.Pattern;
import org.sandboxslo.console.api.ApiException;

/**
 * The web console's page routes: every page path of the single-page app answers {@code
 * webroot/index.html} (the app routes on the client with the History API), front-end libraries are
 * served from WebJars on the class path ({@code /webjars/uplot/1.6.30/dist/uPlot.esm.js}), and
 * runbooks are served as Markdown ({@code GET /api/v1/runbooks/{name}}, 404 for an unknown name).
 *
 * <p>Page paths: {@code /}, {@code /templates/{ns}/{name}}, {@code /pools/{ns}/{name}}, {@code
 * /claims}, {@code /claims/{ns}}, {@code /findings}, {@code /findings/{id}}, {@code /incidents},
 * {@code /plans}, {@code /plans/{id}}, {@code /slos}, {@code /slos/{id}}, {@code /audit}, {@code
 * /health}.
 */
public final class PageRoutes {
  /** The page paths that answer index.html (Vert.x route patterns). */
  public static final List<String> PAGES =
      List.of(
          "/",
          "/templates/:ns/:name",
          "/pools/:ns/:name",
          "/claims",
          "/claims/:ns",
          "/findings",
          "/findings/:id",
          "/incidents",
          "/plans",
          "/plans/:id",
          "/slos",
          "/slos/:id",
          "/audit",
          "/health");

  private static final Pattern RUNBOOK = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,80}");

  private PageRoutes() {}

  /** Mounts the page, WebJars and runbook routes (before the static webroot handler). */
  public static void mount(Router router) {
    Buffer index = resource("webroot/index.html");
    for (String p : PAGES) {
      router.get(p).handler(ctx -> page(ctx, index));
    }
    router
        .route("/webjars/*")
        .method(io.vertx.core.http.HttpMethod.GET)
        .method(io.vertx.core.http.HttpMethod.HEAD)
        .handler(StaticHandler.create("META-INF/resources/webjars").setMaxAgeSeconds(86_400));
    router.get("/api/v1/runbooks/:name").handler(PageRoutes::runbook);
  }

  private static void page(RoutingContext ctx, Buffer index) {
    ctx.response()
        .putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-cache")
        .end(index);
  }

  private static void runbook(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    if (name.endsWith(".md")) {
      name = name.substring(0, name.length() - 3);
    }
    if (!RUNBOOK.matcher(name).matches()) {
      throw ApiException.badRequest("name", "expected a runbook name like WarmPoolStaleMembers");
    }
    Buffer md = resourceOrNull("runbooks/" + name + ".md");
    if (md == null) {
      throw ApiException.notFound("name", "no runbook " + name + " is known");
    }
    ctx.response().putHeader("Content-Type", "text/markdown; charset=utf-8").end(md);
  }

  private static Buffer resource(String name) {
    Buffer b = resourceOrNull(name);
    if (b == null) {
      throw new IllegalStateException("resource " + name + " is missing from the classpath");
    }
    return b;
  }

  private static Buffer resourceOrNull(String name) {
    try (InputStream in = PageRoutes.class.getClassLoader().getResourceAsStream(name)) {
      return in == null ? null : Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("resource " + name + " could not be read", e);
    }
  }
}
