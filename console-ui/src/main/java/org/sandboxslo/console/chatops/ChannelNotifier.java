package org.sandboxslo.console.chatops;

import static org.sandboxslo.console.chatops.SlackMessages.escape;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.sandboxslo.console.remediation.PlanListener;
import org.sandboxslo.console.remediation.PlanState;
import org.sandboxslo.engine.time.Durations;
import org.sandboxslo.store.IncidentRow;
import org.sandboxslo.store.PlanRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts new incidents and plan progress to one chat channel through a Slack incoming webhook
 * ({@code sloconsole.chatops.slack.notify-url}), deduplicated:
 *
 * <ul>
 *   <li>an incident once per (fingerprint, startsAt, status): the first firing notification and the
 *       resolution (with its duration); repeats, redeliveries and re-reads post nothing;
 *   <li>a plan once per (plan id, state): {@code executing}, then {@code succeeded}, {@code failed}
 *       or {@code cancelled}.
 * </ul>
 *
 * The keys already posted are remembered (the last {@value #REMEMBERED}); a key is remembered
 * before its post, so a failed post is not retried (a WARN says so) and never doubled. Posts run on
 * the caller's context and never delay the webhook or the plan. Messages are Block Kit with links
 * into the console ({@code sloconsole.http.external-url}).
 */
public final class ChannelNotifier implements PlanListener {
  private static final Logger LOG = LoggerFactory.getLogger(ChannelNotifier.class);
  static final int REMEMBERED = 10_000;
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final WebClient web;
  private final URI url;
  private final Links links;
  private final Set<String> posted = new LinkedHashSet<>(); // guarded by itself

  ChannelNotifier(WebClient web, URI url, Links links) {
    this.web = Objects.requireNonNull(web, "web");
    this.url = Objects.requireNonNull(url, "url");
    this.links = Objects.requireNonNull(links, "links");
  }

  /**
   * The notifier of {@code config}, or null when no {@code notify-url} is configured.
   *
   * @param externalUrl the base of links in messages
   */
  public static ChannelNotifier create(Vertx vertx, ChatopsConfig config, URI externalUrl) {
    if (config.notifyUrl() == null) {
      return null;
    }
    LOG.info("chat channel notifications on (host {})", config.notifyUrl().getHost());
    return new ChannelNotifier(
        WebClient.create(vertx, new WebClientOptions().setUserAgent("sandbox-slo-console")),
        config.notifyUrl(),
        new Links(externalUrl));
  }

  /**
   * Posts each incident not posted before in its status; called with the rows a webhook
   * notification added or changed.
   *
   * @return completes when every post has been answered (failures are logged, never failed)
   */
  public Future<Void> incidents(List<IncidentRow> rows) {
    List<Future<Void>> posts = new ArrayList<>();
    for (IncidentRow r : rows) {
      boolean resolved = "resolved".equals(r.status());
      String key = "incident " + r.fingerprint() + " " + r.startsAt() + " " + r.status();
      posts.add(post(key, incidentMessage(r, resolved)));
    }
    return Future.join(posts).mapEmpty();
  }

  @Override
  public void executing(PlanRow plan) {
    post("plan " + plan.id() + " executing", planMessage(plan, "executing"));
  }

  @Override
  public void finished(PlanRow plan, PlanState state) {
    post("plan " + plan.id() + " " + state.wireName(), planMessage(plan, state.wireName()));
  }

  JsonObject incidentMessage(IncidentRow r, boolean resolved) {
    String where =
        r.warmpoolName() != null && r.namespace() != null
            ? r.namespace() + "/" + r.warmpoolName()
            : r.sandboxTemplate() != null && r.namespace() != null
                ? r.namespace() + "/" + r.sandboxTemplate()
                : r.namespace();
    StringBuilder text =
        new StringBuilder(resolved ? "Resolved: *" : "Firing: *")
            .append(escape(r.alertname()))
            .append('*');
    if (where != null) {
      text.append(" on ").append(escape(where));
    }
    if (r.severity() != null) {
      text.append(" (").append(escape(r.severity())).append(')');
    }
    if (resolved && r.endsAt() != null && r.startsAt() != null) {
      text.append(" after ").append(Durations.format(Duration.between(r.startsAt(), r.endsAt())));
    }
    String summary = r.annotations() == null ? null : r.annotations().getString("summary");
    if (summary != null && !summary.isBlank()) {
      text.append('\n').append(escape(summary));
    }
    List<SlackMessages.Link> l = new ArrayList<>();
    l.add(new SlackMessages.Link("Incidents", links.link("/incidents")));
    if (r.namespace() != null && r.warmpoolName() != null) {
      l.add(
          new SlackMessages.Link(
              "Pool", links.link("/pools/" + r.namespace() + "/" + r.warmpoolName())));
    }
    if (r.namespace() != null && r.sandboxTemplate() != null) {
      l.add(
          new SlackMessages.Link(
              "Template", links.link("/templates/" + r.namespace() + "/" + r.sandboxTemplate())));
    }
    return channel(SlackMessages.text(text.toString(), l));
  }

  JsonObject planMessage(PlanRow p, String state) {
    String text =
        "Plan "
            + p.id()
            + " "
            + state
            + ": "
            + escape(p.action())
            + " "
            + escape(p.subject())
            + (p.reason() == null || p.reason().isBlank() ? "" : " — " + escape(p.reason()))
            + " (planned by "
            + escape(p.plannedBy())
            + (p.approvedBy() == null ? "" : ", approved by " + escape(p.approvedBy()))
            + ")";
    return channel(
        SlackMessages.text(
            text,
            List.of(new SlackMessages.Link("Plan " + p.id(), links.link("/plans/" + p.id())))));
  }

  /** An incoming webhook posts to its channel: no response_type. */
  private static JsonObject channel(JsonObject message) {
    message.remove("response_type");
    return message;
  }

  private boolean remember(String key) {
    synchronized (posted) {
      if (!posted.add(key)) {
        return false;
      }
      if (posted.size() > REMEMBERED) {
        posted.remove(posted.iterator().next());
      }
      return true;
    }
  }

  private Future<Void> post(String key, JsonObject message) {
    if (!remember(key)) {
      return Future.succeededFuture();
    }
    return web.postAbs(url.toString())
        .timeout(TIMEOUT.toMillis())
        .sendJsonObject(message)
        .<Void>compose(
            r ->
                r.statusCode() / 100 == 2
                    ? Future.succeededFuture()
                    : Future.failedFuture("HTTP " + r.statusCode()))
        .recover(
            e -> {
              LOG.warn("chat channel notification '{}' not posted: {}", key, e.getMessage());
              return Future.succeededFuture();
            });
  }
}
