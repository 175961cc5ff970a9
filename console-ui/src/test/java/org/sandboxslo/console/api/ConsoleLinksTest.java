package org.sandboxslo.console.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConsoleLinksTest {
  @Test
  void pagesUnderTheDefaultBase() {
    ConsoleLinks l = ConsoleLinks.defaults();
    assertEquals("http://127.0.0.1:8080/templates/team-a/tpl-py", l.template("team-a", "tpl-py"));
    assertEquals("http://127.0.0.1:8080/pools/team-a/pool-py", l.pool("team-a", "pool-py"));
    assertEquals("http://127.0.0.1:8080/slos/warm-hit", l.slo("warm-hit"));
    assertEquals(
        "http://127.0.0.1:8080/findings?kind=ExpiredClaimsAccumulating",
        l.findings("ExpiredClaimsAccumulating"));
    assertEquals(
        "http://127.0.0.1:8080/findings?kind=ExpiredClaimsAccumulating&namespace=team-a",
        l.findings("ExpiredClaimsAccumulating", "team-a"));
    assertEquals("http://127.0.0.1:8080/health", l.health());
  }

  @Test
  void aPathPrefixIsKeptAndOneTrailingSlashDropped() {
    ConsoleLinks l = ConsoleLinks.parse("k", "https://example.com/sandbox-slo/");
    assertEquals("https://example.com/sandbox-slo", l.base().toString());
    assertEquals("https://example.com/sandbox-slo/pools/ns/p", l.pool("ns", "p"));
    // Prometheus templates go in verbatim, to be expanded by Prometheus
    assertEquals(
        "https://example.com/sandbox-slo/templates/{{ $labels.namespace }}/x",
        l.template("{{ $labels.namespace }}", "x"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ftp://example.com|scheme must be http or https",
        "example.com|scheme must be http or https",
        "/relative/path|scheme must be http or https",
        "http:///nohost|host missing",
        "https://user:pw@example.com|no user info allowed",
        "https://example.com/?tab=1|no query or fragment allowed",
        "https://example.com/#/|no query or fragment allowed",
        "http://exa mple.com|Illegal character in authority",
      })
  void rejectsWhatIsNotAnAbsoluteHttpBase(String url, String why) {
    assertEquals(
        "sloconsole.http.external-url: expected an absolute http(s) URL like"
            + " https://sandbox-slo.example.com ("
            + why
            + "), got '"
            + url
            + "'",
        assertThrows(
                IllegalArgumentException.class,
                () -> ConsoleLinks.parse("sloconsole.http.external-url", url))
            .getMessage());
  }

  @Test
  void blankIsRejectedToo() {
    assertEquals(
        "--external-url: expected an absolute http(s) URL like https://sandbox-slo.example.com,"
            + " got ' '",
        assertThrows(
                IllegalArgumentException.class, () -> ConsoleLinks.parse("--external-url", " "))
            .getMessage());
  }
}
