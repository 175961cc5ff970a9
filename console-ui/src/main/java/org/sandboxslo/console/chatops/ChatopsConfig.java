package org.sandboxslo.console.chatops;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The chat door's configuration ({@code sloconsole.chatops.*}), immutable. Keys:
 *
 * <ul>
 *   <li>{@code sloconsole.chatops.slack.signing-secret} (default empty = chat disabled, its routes
 *       answer 404): the Slack app's signing secret; masked in {@link #describe()} and {@link
 *       #toString()}
 *   <li>{@code sloconsole.chatops.slack.users} (default empty): {@code
 *       SlackUserId:consoleUser,...}, e.g. {@code U123:alice,U456:bob}; the console user's roles
 *       are those of {@code sloconsole.auth.tokens}. Unmapped Slack users may only read ({@code
 *       status}, {@code explain}, {@code help})
 *   <li>{@code sloconsole.chatops.slack.response-url-hosts} (default {@code hooks.slack.com}):
 *       hosts a {@code response_url} may name (comma-separated, exact match); the console posts
 *       nowhere else
 *   <li>{@code sloconsole.chatops.slack.notify-url} (default empty = none): a Slack incoming
 *       webhook ({@code https://hooks.slack.com/services/...}) to which new incidents and plan
 *       progress are posted ({@link ChannelNotifier}); its host must be one of {@code
 *       response-url-hosts}; only its host is ever logged (the path is the credential)
 * </ul>
 *
 * @param signingSecret the signing secret, or empty
 * @param users Slack user id → console user name
 * @param responseUrlHosts allowed hosts of {@code response_url}, non-empty
 * @param notifyUrl the incoming webhook for channel notifications, or null
 */
public record ChatopsConfig(
    String signingSecret,
    Map<String, String> users,
    Set<String> responseUrlHosts,
    java.net.URI notifyUrl) {
  public static final String SIGNING_SECRET = "sloconsole.chatops.slack.signing-secret";
  public static final String USERS = "sloconsole.chatops.slack.users";
  public static final String RESPONSE_URL_HOSTS = "sloconsole.chatops.slack.response-url-hosts";
  public static final String NOTIFY_URL = "sloconsole.chatops.slack.notify-url";
  static final String PREFIX = "sloconsole.chatops.";
  private static final Set<String> KEYS =
      Set.of(SIGNING_SECRET, USERS, RESPONSE_URL_HOSTS, NOTIFY_URL);
  private static final Pattern SLACK_USER = Pattern.compile("[UW][A-Z0-9]{2,20}");
  private static final Pattern CONSOLE_USER = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

  public ChatopsConfig {
    users = Map.copyOf(users);
    responseUrlHosts = Set.copyOf(responseUrlHosts);
    if (responseUrlHosts.isEmpty()) {
      throw new IllegalArgumentException(RESPONSE_URL_HOSTS + ": must name at least one host");
    }
    if (notifyUrl != null && !responseUrlHosts.contains(hostOf(notifyUrl))) {
      throw new IllegalArgumentException(
          NOTIFY_URL
              + ": host "
              + hostOf(notifyUrl)
              + " is not in "
              + RESPONSE_URL_HOSTS
              + " "
              + new TreeSet<>(responseUrlHosts));
    }
  }

  private static String hostOf(java.net.URI u) {
    return u.getHost() == null ? "" : u.getHost().toLowerCase(java.util.Locale.ROOT);
  }

  private static java.net.URI notifyUrl(String value) {
    String v = value.trim();
    if (v.isEmpty()) {
      return null;
    }
    try {
      java.net.URI u = new java.net.URI(v);
      if (("https".equals(u.getScheme()) || "http".equals(u.getScheme()))
          && u.getHost() != null
          && u.getRawUserInfo() == null) {
        return u;
      }
    } catch (java.net.URISyntaxException e) {
      // reported below, without the value (its path is the credential)
    }
    throw new IllegalArgumentException(
        NOTIFY_URL
            + ": expected an absolute http(s) URL such as"
            + " https://hooks.slack.com/services/T000/B000/XXXX");
  }

  /**
   * Reads the keys above; other keys under {@code sloconsole.chatops.} are rejected.
   *
   * @throws IllegalArgumentException naming the key and the bad value (never the secret)
   */
  public static ChatopsConfig fromMap(Map<String, String> m) {
    for (String k : m.keySet()) {
      if (k.startsWith(PREFIX) && !KEYS.contains(k)) {
        throw new IllegalArgumentException(
            "unknown configuration key " + k + "; known: " + new TreeSet<>(KEYS));
      }
    }
    Map<String, String> users = new LinkedHashMap<>();
    String u = m.getOrDefault(USERS, "").trim();
    if (!u.isEmpty()) {
      for (String entry : u.split(",")) {
        String[] p = entry.trim().split(":", 2);
        if (p.length != 2
            || !SLACK_USER.matcher(p[0]).matches()
            || !CONSOLE_USER.matcher(p[1]).matches()) {
          throw new IllegalArgumentException(
              USERS
                  + ": expected SlackUserId:consoleUser (e.g. U123ABC:alice), got '"
                  + entry.trim()
                  + "'");
        }
        if (users.put(p[0], p[1]) != null) {
          throw new IllegalArgumentException(USERS + ": Slack user " + p[0] + " is mapped twice");
        }
      }
    }
    Set<String> hosts = new TreeSet<>();
    for (String h : m.getOrDefault(RESPONSE_URL_HOSTS, "hooks.slack.com").split(",")) {
      if (!h.isBlank()) {
        hosts.add(h.trim().toLowerCase(java.util.Locale.ROOT));
      }
    }
    return new ChatopsConfig(
        m.getOrDefault(SIGNING_SECRET, "").trim(),
        users,
        hosts,
        notifyUrl(m.getOrDefault(NOTIFY_URL, "")));
  }

  /** All defaults: chat disabled. */
  public static ChatopsConfig disabled() {
    return fromMap(Map.of());
  }

  /** Whether the chat routes are mounted (a signing secret is configured). */
  public boolean enabled() {
    return !signingSecret.isEmpty();
  }

  /** The lines of the startup log, secret masked. */
  public String describe() {
    return String.join(
        "\n",
        SIGNING_SECRET + "=" + (signingSecret.isEmpty() ? "(chat disabled)" : "******"),
        USERS
            + "="
            + String.join(
                ",", users.entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).toList()),
        RESPONSE_URL_HOSTS + "=" + String.join(",", List.copyOf(new TreeSet<>(responseUrlHosts))),
        NOTIFY_URL
            + "="
            + (notifyUrl == null
                ? ""
                : notifyUrl.getScheme() + "://" + hostOf(notifyUrl) + "/******"));
  }

  @Override
  public String toString() {
    return "ChatopsConfig[" + describe().replace('\n', ' ') + "]";
  }
}
