package org.sandboxslo.console.api;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * The console's page addresses under its external URL ({@code sloconsole.http.external-url}): every
 * link the console hands out (alert annotations written by {@code generate-rules}, API links, chat
 * messages) is built here, so one setting moves them all.
 *
 * <p>Pages: {@code /templates/{namespace}/{name}}, {@code /pools/{namespace}/{name}}, {@code
 * /slos/{name}}, {@code /findings?kind={kind}[&namespace={namespace}]}, {@code /health}. Path
 * segments are put in as given: Kubernetes names are URL-safe, and Prometheus rule templates such
 * as {@code {{ $labels.namespace }}} must stay verbatim until Prometheus expands them.
 *
 * @param base absolute {@code http} or {@code https} URL without query, fragment, user info or
 *     trailing slash, e.g. {@code https://sandbox-slo.example.com} or {@code
 *     https://example.com/sandbox-slo}
 */
public record ConsoleLinks(URI base) {
  /** The default external URL: the console's default bind address and port. */
  public static final String DEFAULT_BASE = "http://127.0.0.1:8080";

  public ConsoleLinks {
    Objects.requireNonNull(base, "base");
    String problem = problem(base);
    if (problem != null) {
      throw new IllegalArgumentException("base " + problem + ", got '" + base + "'");
    }
  }

  /** Links under {@link #DEFAULT_BASE}. */
  public static ConsoleLinks defaults() {
    return parse("external URL", DEFAULT_BASE);
  }

  /**
   * Parses and normalises an external URL (one trailing {@code /} is dropped).
   *
   * @param key the configuration key or option, named in the error
   * @throws IllegalArgumentException "{@code key}: expected an absolute http(s) URL like
   *     https://sandbox-slo.example.com (...), got 'x'"
   */
  public static ConsoleLinks parse(String key, String url) {
    String hint = key + ": expected an absolute http(s) URL like https://sandbox-slo.example.com";
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(hint + ", got '" + url + "'");
    }
    URI u;
    try {
      u = new URI(url.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(hint + " (" + e.getReason() + "), got '" + url + "'");
    }
    String problem = problem(u);
    if (problem != null) {
      throw new IllegalArgumentException(hint + " (" + problem + "), got '" + url + "'");
    }
    String s = u.toString();
    return new ConsoleLinks(URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s));
  }

  private static String problem(URI u) {
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!u.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
      return "scheme must be http or https";
    }
    if (u.getHost() == null || u.getHost().isEmpty()) {
      return "host missing";
    }
    if (u.getRawUserInfo() != null) {
      return "no user info allowed";
    }
    if (u.getRawQuery() != null || u.getRawFragment() != null) {
      return "no query or fragment allowed";
    }
    return null;
  }

  /** {@code base + path}; {@code path} starts with {@code /}. */
  public String page(String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with /, got '" + path + "'");
    }
    String b = base.toString();
    return (b.endsWith("/") ? b.substring(0, b.length() - 1) : b) + path;
  }

  /** The SandboxTemplate page. */
  public String template(String namespace, String name) {
    return page("/templates/" + namespace + "/" + name);
  }

  /** The SandboxWarmPool page. */
  public String pool(String namespace, String name) {
    return page("/pools/" + namespace + "/" + name);
  }

  /** The SLO page ({@code name} is the console's SLO id). */
  public String slo(String name) {
    return page("/slos/" + name);
  }

  /** The findings page filtered by finding kind (e.g. {@code ExpiredClaimsAccumulating}). */
  public String findings(String kind) {
    return page("/findings?kind=" + kind);
  }

  /** The findings page filtered by finding kind and namespace. */
  public String findings(String kind, String namespace) {
    return page("/findings?kind=" + kind + "&namespace=" + namespace);
  }

  /** The health page (informers, watch lag, ingest errors, store and executor). */
  public String health() {
    return page("/health");
  }
}
