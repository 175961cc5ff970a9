package org.sandboxslo.server.replay;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Issue 9: timelines are caller input. For arbitrary and near-valid timeline documents and watch
 * JSON, the replayer answers a result (bad entries counted as skipped) or a one-line {@link
 * IllegalArgumentException}; nothing else escapes.
 */
class ReplayerPropertyTest {
  @Property(tries = 500)
  void timelinesReplayOrFailWithOneLine(@ForAll("timelines") String yaml) {
    try {
      assertNotNull(Replayer.replayCase("prop.yaml", yaml));
    } catch (IllegalArgumentException e) {
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }

  @Property(tries = 300)
  void watchJsonReplaysOrFailsWithOneLine(@ForAll("watchJson") String json) {
    try {
      assertNotNull(Replayer.replayWatchJson("prop.json", json));
    } catch (IllegalArgumentException e) {
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }

  @Provide
  Arbitrary<String> timelines() {
    Arbitrary<String> at =
        Arbitraries.of(
            "2026-11-29T08:00:00Z", "2026-11-29T08:00:01.5Z", "yesterday", "", "1", "[]", "{}");
    Arbitrary<String> type =
        Arbitraries.of("ADDED", "MODIFIED", "DELETED", "SYNCED", "scrape", "bogus", "");
    Arbitrary<String> object =
        Arbitraries.of(
            "{kind: SandboxClaim, metadata: {name: c1, namespace: demo, uid: u1,"
                + " creationTimestamp: '2026-11-29T08:00:00Z'}, spec: {warmPoolRef: {name: p}}}",
            "{kind: SandboxWarmPool, metadata: {name: p, namespace: demo}, spec: {replicas:"
                + " 4294967296}}",
            "{kind: Sandbox, metadata: {name: s, namespace: demo}, spec: {env: [{name: A, value:"
                + " 'x'}]}}",
            "{kind: Nope}",
            "[]",
            "7",
            "{metadata: 5}",
            "{kind: SandboxTemplate, metadata: {name: t, namespace: demo}, spec: {podTemplate:"
                + " 3}}");
    Arbitrary<String> entry =
        Arbitraries.oneOf(
            Combinators.combine(at, type, object)
                .as((a, t, o) -> "  - {at: '" + a + "', type: " + t + ", object: " + o + "}"),
            Arbitraries.of("  - 5", "  - []", "  - {at: 2026-11-29T08:00:00Z}", "  - text: 'x'"),
            Arbitraries.strings().ofMaxLength(30).map(s -> "  - " + s));
    Arbitrary<String> header =
        Arbitraries.of(
            "case: p\ntimeline:\n",
            "case: p\nclock: 2026-11-29T09:00:00Z\ntimeline:\n",
            "case: p\nclock: not-a-time\ntimeline:\n",
            "case: p\nconfig: {window: 200000d, bucketWidth: -1s}\ntimeline:\n",
            "case: p\nconfig: 5\ntimeline:\n",
            "timeline: 5\n",
            "",
            "- a\n");
    return Combinators.combine(header, entry.list().ofMaxSize(6))
        .as((h, es) -> h + String.join("\n", es) + "\n");
  }

  @Provide
  Arbitrary<String> watchJson() {
    Arbitrary<String> line =
        Arbitraries.of(
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"SandboxClaim\",\"metadata\":{\"name\":\"c\","
                + "\"namespace\":\"d\",\"uid\":\"u\"}}}",
            "{\"type\":\"ADDED\",\"object\":5}",
            "{\"type\":7}",
            "{}",
            "{\"type\":\"DELETED\",\"object\":{\"kind\":\"Sandbox\",\"metadata\":{}}}",
            "{",
            "[1,2]",
            "\"x\"");
    return line.list().ofMinSize(1).ofMaxSize(5).map(List::copyOf).map(l -> String.join("\n", l));
  }
}
