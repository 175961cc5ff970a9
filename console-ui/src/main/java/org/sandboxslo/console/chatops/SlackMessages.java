package org.sandboxslo.console.chatops;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Slack messages in Block Kit: always ephemeral (only the caller sees them), with a plain {@code
 * text} fallback, sections in mrkdwn, a context line of console links, and for the first step of a
 * write the Confirm / Cancel buttons (Confirm carries a confirmation dialog when the change is
 * destructive; reference slo-alerting §5.3). Section text is cut at Slack's 3,000 characters.
 */
final class SlackMessages {
  static final String CONFIRM = "confirm";
  static final String CANCEL = "cancel";
  private static final int MAX_SECTION = 3000;

  private SlackMessages() {}

  /**
   * A link under a message.
   *
   * @param label what the link shows
   * @param url absolute URL into the console
   */
  record Link(String label, String url) {}

  /** An ephemeral message with one section and optional links ({@code label → url}). */
  static JsonObject text(String mrkdwn, List<Link> links) {
    JsonArray blocks = new JsonArray().add(section(mrkdwn));
    if (!links.isEmpty()) {
      blocks.add(linkContext(links));
    }
    return new JsonObject()
        .put("response_type", "ephemeral")
        .put("text", plain(mrkdwn))
        .put("blocks", blocks);
  }

  /** {@link #text} that replaces the message the button was on. */
  static JsonObject replacing(String mrkdwn, List<Link> links) {
    return text(mrkdwn, links).put("replace_original", true);
  }

  /**
   * The dry run of a write with Confirm and Cancel.
   *
   * @param token the pending action's token (the buttons' value)
   * @param danger style Confirm as dangerous and ask again before it is sent
   */
  static JsonObject confirm(
      String mrkdwn, List<Link> links, String token, boolean danger, String confirmQuestion) {
    JsonObject confirmButton =
        new JsonObject()
            .put("type", "button")
            .put("action_id", CONFIRM)
            .put("value", token)
            .put("text", plainText("Confirm"))
            .put("style", danger ? "danger" : "primary");
    if (danger) {
      confirmButton.put(
          "confirm",
          new JsonObject()
              .put("title", plainText("Are you sure?"))
              .put(
                  "text",
                  new JsonObject().put("type", "mrkdwn").put("text", cut(confirmQuestion, 300)))
              .put("confirm", plainText("Yes, go ahead"))
              .put("deny", plainText("No"))
              .put("style", "danger"));
    }
    JsonObject m = text(mrkdwn, links);
    m.getJsonArray("blocks")
        .add(
            new JsonObject()
                .put("type", "actions")
                .put(
                    "elements",
                    new JsonArray()
                        .add(confirmButton)
                        .add(
                            new JsonObject()
                                .put("type", "button")
                                .put("action_id", CANCEL)
                                .put("value", token)
                                .put("text", plainText("Cancel")))));
    return m;
  }

  static JsonObject section(String mrkdwn) {
    return new JsonObject()
        .put("type", "section")
        .put("text", new JsonObject().put("type", "mrkdwn").put("text", cut(mrkdwn, MAX_SECTION)));
  }

  private static JsonObject linkContext(List<Link> links) {
    StringBuilder sb = new StringBuilder();
    for (Link l : links) {
      if (sb.length() > 0) {
        sb.append("  ·  ");
      }
      sb.append('<').append(l.url()).append('|').append(escape(l.label())).append('>');
    }
    return new JsonObject()
        .put("type", "context")
        .put(
            "elements",
            new JsonArray().add(new JsonObject().put("type", "mrkdwn").put("text", sb.toString())));
  }

  private static JsonObject plainText(String s) {
    return new JsonObject().put("type", "plain_text").put("text", s);
  }

  /** Slack's three control characters, escaped in user-provided text. */
  static String escape(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  private static String plain(String mrkdwn) {
    return cut(mrkdwn.replace("*", "").replace("`", ""), MAX_SECTION);
  }
}
