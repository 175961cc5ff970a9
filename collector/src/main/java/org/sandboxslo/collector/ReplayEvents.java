package org.sandboxslo.collector;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sandboxslo.engine.model.FleetEvent;
import org.sandboxslo.engine.model.Kind;
import org.sandboxslo.engine.model.ObjectView;
import org.sandboxslo.engine.scrape.PromText;
import org.sandboxslo.engine.scrape.Scrape;

/**
 * One recorded timeline entry (the replay format: {@code at}, {@code type}, {@code object} or
 * {@code text}) → the engine events it stands for. Pure; the replay command and tests call it for
 * every entry and apply the result in order.
 *
 * <ul>
 *   <li>{@code ADDED}/{@code MODIFIED}/{@code DELETED} with an agent-sandbox object ({@link
 *       ObjectViews}) or a core/v1 Pod or Event, apps/v1 Deployment of the controller, or a CRD
 *       ({@link CoreViews});
 *   <li>{@code SYNCED} with optional {@code kind} (all four kinds when absent);
 *   <li>{@code SCRAPE} with {@code text} (Prometheus exposition) and optional {@code target};
 *   <li>{@code PROBE} with {@code probe} (or the entry itself) as an identity-probe body ({@link
 *       CoreViews#probe}).
 * </ul>
 */
public final class ReplayEvents {
  private ReplayEvents() {}

  /**
   * @param type the entry's {@code type}
   * @param entry the entry (its {@code object}, {@code text}, {@code kind}, {@code probe} fields)
   * @param at the receive time ({@code at})
   * @return the events, possibly empty (e.g. a deleted core Event)
   * @throws MalformedObjectException for an object or probe with a missing or mistyped field
   * @throws IllegalArgumentException for an unknown type, a missing object, a bad scrape or kind
   */
  @SuppressWarnings("unchecked")
  public static List<FleetEvent> of(String type, Map<String, ?> entry, Instant at) {
    List<FleetEvent> out = new ArrayList<>();
    switch (type) {
      case "ADDED", "MODIFIED", "DELETED" -> {
        if (!(entry.get("object") instanceof Map<?, ?> om)) {
          throw new IllegalArgumentException(type + " without an object");
        }
        Map<String, ?> o = (Map<String, ?>) om;
        boolean deleted = type.equals("DELETED");
        if (CoreViews.handles(o)) {
          FleetEvent e = CoreViews.toEvent(o, deleted, at);
          if (e != null) {
            out.add(e);
          }
        } else {
          ObjectView v = ObjectViews.toView(o);
          out.add(
              deleted
                  ? new FleetEvent.Deleted(v.kind(), v.ref(), v.uid(), at)
                  : new FleetEvent.Upserted(v, ObjectViews.serverTime(o), at));
        }
      }
      case "SYNCED" -> {
        Object k = entry.get("kind");
        if (k == null) {
          for (Kind x : Kind.values()) {
            out.add(new FleetEvent.Synced(x, at));
          }
        } else {
          Kind kind = Kind.ofKindName(String.valueOf(k));
          if (kind == null) {
            throw new IllegalArgumentException("SYNCED: unknown kind '" + k + "'");
          }
          out.add(new FleetEvent.Synced(kind, at));
        }
      }
      case "SCRAPE" -> {
        Object target = entry.get("target");
        out.add(
            new FleetEvent.Scraped(
                new Scrape(
                    at,
                    target == null ? "unknown" : String.valueOf(target),
                    PromText.parse(
                        String.valueOf(entry.get("text") == null ? "" : entry.get("text"))))));
      }
      case "PROBE" -> {
        Map<String, ?> body =
            entry.get("probe") instanceof Map<?, ?> p ? (Map<String, ?>) p : entry;
        out.add(new FleetEvent.ProbeReported(CoreViews.probe(body, at), at));
      }
      default -> throw new IllegalArgumentException("unknown type '" + type + "'");
    }
    return out;
  }
}
