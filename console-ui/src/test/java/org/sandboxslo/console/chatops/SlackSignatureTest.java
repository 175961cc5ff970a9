package org.sandboxslo.console.chatops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SlackSignatureTest {
  /** The worked example of Slack's "Verifying requests from Slack" page. */
  static final String SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

  static final String BODY =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow"
          + "&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner"
          + "&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands"
          + "%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN"
          + "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

  static final String EXPECTED =
      "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";
  static final Instant AT = Instant.ofEpochSecond(1531420618);

  static byte[] body() {
    return BODY.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void signsLikeSlacksWorkedExample() {
    assertEquals(EXPECTED, SlackSignature.sign(SECRET, "1531420618", body()));
    assertEquals(
        new SlackSignature.Verdict.Valid(AT),
        SlackSignature.verify(SECRET, "1531420618", EXPECTED, body(), AT.plusSeconds(5)));
  }

  @Test
  void refusesAnyChangeToBodyTimestampSecretOrSignature() {
    byte[] other = (BODY + "x").getBytes(StandardCharsets.UTF_8);
    assertEquals(reason("signature mismatch"), verify(SECRET, "1531420618", EXPECTED, other, AT));
    assertEquals(reason("signature mismatch"), verify("other", "1531420618", EXPECTED, body(), AT));
    // the same signature under the next second's timestamp
    assertEquals(reason("signature mismatch"), verify(SECRET, "1531420619", EXPECTED, body(), AT));
    assertEquals(
        reason("signature mismatch"),
        verify(SECRET, "1531420618", EXPECTED.replace("a2114", "a2115"), body(), AT));
    assertEquals(
        reason("X-Slack-Signature is not a v0= signature"),
        verify(SECRET, "1531420618", EXPECTED.replace("v0=", "v1="), body(), AT));
    assertEquals(
        reason("missing X-Slack-Signature"), verify(SECRET, "1531420618", null, body(), AT));
    assertEquals(
        reason("missing X-Slack-Request-Timestamp"), verify(SECRET, null, EXPECTED, body(), AT));
    assertEquals(
        reason("X-Slack-Request-Timestamp is not Unix seconds"),
        verify(SECRET, "yesterday", EXPECTED, body(), AT));
  }

  @Test
  void theWindowIsThreeHundredSecondsEitherWay() {
    // 300 s old and 300 s ahead are accepted; 301 s either way is refused
    assertTrue(
        verify(SECRET, "1531420618", EXPECTED, body(), AT.plusSeconds(300))
            instanceof SlackSignature.Verdict.Valid);
    assertTrue(
        verify(SECRET, "1531420618", EXPECTED, body(), AT.minusSeconds(300))
            instanceof SlackSignature.Verdict.Valid);
    assertEquals(
        reason("stale timestamp: 301 s from the console's clock (at most 300 s)"),
        verify(SECRET, "1531420618", EXPECTED, body(), AT.plusSeconds(301)));
    assertEquals(
        reason("stale timestamp: 301 s from the console's clock (at most 300 s)"),
        verify(SECRET, "1531420618", EXPECTED, body(), AT.minusSeconds(301)));
    assertEquals(
        reason("stale timestamp: far from the console's clock (at most 300 s)"),
        verify(SECRET, "-9223372036854775808", EXPECTED, body(), AT));
  }

  @Test
  void theReasonNeverCarriesTheSecretOrTheExpectedSignature() {
    SlackSignature.Verdict v = verify(SECRET, "1531420618", "v0=00", body(), AT);
    String text = v.toString();
    assertFalse(text.contains(SECRET), text);
    assertFalse(text.contains(EXPECTED.substring(3)), text);
  }

  @Test
  void theReplayCacheKnowsARequestOnceAndStaysBounded() {
    ReplayCache cache = new ReplayCache(3);
    Instant now = AT;
    assertTrue(cache.firstTime(AT, body(), now));
    assertFalse(cache.firstTime(AT, body(), now.plusSeconds(10)));
    // another timestamp with the same body is another request
    assertTrue(cache.firstTime(AT.plusSeconds(1), body(), now));
    // entries go once their window (timestamp + 300 s) has passed: 2 entries → 0 at +302 s
    assertTrue(cache.firstTime(AT.plusSeconds(302), body(), AT.plusSeconds(302)));
    assertEquals(1, cache.size());
    // full: the oldest unexpired entry is dropped (and counted)
    Instant t = AT.plusSeconds(400);
    assertTrue(cache.firstTime(t, "a".getBytes(StandardCharsets.UTF_8), t));
    assertTrue(cache.firstTime(t, "b".getBytes(StandardCharsets.UTF_8), t));
    assertTrue(cache.firstTime(t, "c".getBytes(StandardCharsets.UTF_8), t));
    assertEquals(3, cache.size());
    assertEquals(1, cache.evictedEarly());
  }

  static SlackSignature.Verdict verify(
      String secret, String ts, String sig, byte[] body, Instant now) {
    return SlackSignature.verify(secret, ts, sig, body, now);
  }

  static SlackSignature.Verdict reason(String r) {
    return new SlackSignature.Verdict.Refused(r);
  }
}
