package org.sandboxslo.console.chatops;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's request signature (reference slo-alerting §5.2): {@code X-Slack-Signature = "v0=" +
 * hex(HMAC-SHA256(signing secret, "v0:" + X-Slack-Request-Timestamp + ":" + raw body))}, compared
 * in constant time ({@link MessageDigest#isEqual}); a timestamp more than {@link #MAX_SKEW} from
 * now is refused, so a captured request cannot be sent again later. Pure apart from the JDK's MAC.
 */
public final class SlackSignature {
  /** The largest accepted |now − timestamp|: 5 minutes, as Slack's own verifiers. */
  public static final Duration MAX_SKEW = Duration.ofMinutes(5);

  private static final int MAX_SIGNATURE_CHARS = 128;

  private SlackSignature() {}

  /** The outcome of {@link #verify}. */
  public sealed interface Verdict {
    /**
     * A valid signature.
     *
     * @param timestamp the request's timestamp
     */
    record Valid(Instant timestamp) implements Verdict {}

    /**
     * A refused request.
     *
     * @param reason why, for the log and the 401 (never contains the secret or the expected
     *     signature)
     */
    record Refused(String reason) implements Verdict {}
  }

  /**
   * {@code "v0=" + hex(HMAC-SHA256(secret, "v0:" + timestamp + ":" + body))}.
   *
   * @param timestamp the {@code X-Slack-Request-Timestamp} text, Unix seconds
   */
  public static String sign(String secret, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
      return "v0=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable in this JVM", e);
    }
  }

  /**
   * Verifies one request.
   *
   * @param secret the signing secret, non-empty
   * @param timestamp the {@code X-Slack-Request-Timestamp} header, or null
   * @param signature the {@code X-Slack-Signature} header, or null
   * @param body the raw body bytes, before any parsing
   * @param now the console's time
   */
  public static Verdict verify(
      String secret, String timestamp, String signature, byte[] body, Instant now) {
    if (timestamp == null || timestamp.isBlank()) {
      return new Verdict.Refused("missing X-Slack-Request-Timestamp");
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.trim());
    } catch (NumberFormatException e) {
      return new Verdict.Refused("X-Slack-Request-Timestamp is not Unix seconds");
    }
    long skew;
    try {
      skew = Math.abs(Math.subtractExact(now.getEpochSecond(), seconds));
    } catch (ArithmeticException e) {
      skew = Long.MAX_VALUE;
    }
    if (skew < 0) {
      skew = Long.MAX_VALUE; // |Long.MIN_VALUE|
    }
    if (skew > MAX_SKEW.getSeconds()) {
      return new Verdict.Refused(
          "stale timestamp: "
              + (skew == Long.MAX_VALUE ? "far" : skew + " s")
              + " from the console's clock (at most "
              + MAX_SKEW.getSeconds()
              + " s)");
    }
    Instant at = Instant.ofEpochSecond(seconds);
    if (signature == null || signature.isBlank()) {
      return new Verdict.Refused("missing X-Slack-Signature");
    }
    if (!signature.startsWith("v0=") || signature.length() > MAX_SIGNATURE_CHARS) {
      return new Verdict.Refused("X-Slack-Signature is not a v0= signature");
    }
    byte[] expected = sign(secret, timestamp.trim(), body).getBytes(StandardCharsets.US_ASCII);
    byte[] presented = signature.trim().getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, presented)) {
      return new Verdict.Refused("signature mismatch");
    }
    return new Verdict.Valid(at);
  }
}
