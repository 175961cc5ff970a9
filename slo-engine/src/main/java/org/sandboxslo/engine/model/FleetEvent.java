package org.sandboxslo.engine.model;

import java.time.Instant;
import java.util.Objects;

/**
 * What the collector hands to the engine. A closed set; every variant carries {@code receivedAt},
 * the console's clock when the watch event arrived.
 */
public sealed interface FleetEvent {
  Instant receivedAt();

  /**
   * An object was added or modified (or re-listed). Idempotent: the engine ignores a view whose UID
   * and resourceVersion it has already applied.
   *
   * @param view the compact object
   * @param serverTime the newest server timestamp the object carries (creation, condition
   *     transitions, RFC3339Nano annotations), for watch lag; may be null
   * @param receivedAt console clock at arrival
   * @param listed delivered by an informer's (re-)list rather than by its watch: the object's age
   *     is not watch lag, and its change may have happened any time while nothing watched
   */
  record Upserted(ObjectView view, Instant serverTime, Instant receivedAt, boolean listed)
      implements FleetEvent {
    public Upserted {
      Objects.requireNonNull(view, "view");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** A watch delivery (not flagged as listed; see the engine's initial-list rule). */
    public Upserted(ObjectView view, Instant serverTime, Instant receivedAt) {
      this(view, serverTime, receivedAt, false);
    }
  }

  /**
   * An object was deleted.
   *
   * @param kind its kind
   * @param ref namespace/name
   * @param uid metadata.uid
   * @param receivedAt console clock at arrival
   * @param finalStateUnknown the informer missed the delete and inferred it from a re-list (a
   *     tombstone): the object's last state is unknown, so it is not counted as claimed, expired,
   *     drained or unserved
   */
  record Deleted(
      Kind kind, ObjectRef ref, String uid, Instant receivedAt, boolean finalStateUnknown)
      implements FleetEvent {
    public Deleted {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /** A delete seen by the watch (final state known). */
    public Deleted(Kind kind, ObjectRef ref, String uid, Instant receivedAt) {
      this(kind, ref, uid, receivedAt, false);
    }
  }

  /**
   * The informer of a kind reported {@code hasSynced} (initial list done).
   *
   * @param kind the kind
   * @param receivedAt console clock
   */
  record Synced(Kind kind, Instant receivedAt) implements FleetEvent {
    public Synced {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  // ---- issue 8 part B: evidence outside the four agent-sandbox kinds

  /**
   * A Pod backing a Sandbox was added or modified (label-selected informer, or replay of a core/v1
   * Pod). Idempotent by UID + resourceVersion.
   *
   * @param pod the trimmed Pod
   * @param receivedAt console clock at arrival
   */
  record PodUpserted(PodView pod, Instant receivedAt) implements FleetEvent {
    public PodUpserted {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * A Pod was deleted.
   *
   * @param ref namespace/name
   * @param uid metadata.uid, may be null
   * @param receivedAt console clock
   */
  record PodDeleted(ObjectRef ref, String uid, Instant receivedAt) implements FleetEvent {
    public PodDeleted {
      Objects.requireNonNull(ref, "ref");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * A core/v1 Event about a Pod or an agent-sandbox object (evidence only).
   *
   * @param event the trimmed Event
   * @param receivedAt console clock
   */
  record KubeEventSeen(KubeEventView event, Instant receivedAt) implements FleetEvent {
    public KubeEventSeen {
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * The controller Deployment's command line was read (or reported by a person).
   *
   * @param deployment the trimmed Deployment
   * @param receivedAt console clock
   */
  record ControllerObserved(ControllerDeploymentView deployment, Instant receivedAt)
      implements FleetEvent {
    public ControllerObserved {
      Objects.requireNonNull(deployment, "deployment");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * An agent-sandbox CRD was read (stored versions for the v1.0 upgrade gate).
   *
   * @param crd the trimmed CRD
   * @param receivedAt console clock
   */
  record CrdObserved(CrdView crd, Instant receivedAt) implements FleetEvent {
    public CrdObserved {
      Objects.requireNonNull(crd, "crd");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * An identity probe taken inside a sandbox right after it started or resumed.
   *
   * @param probe the probe
   * @param receivedAt console clock
   */
  record ProbeReported(IdentityProbe probe, Instant receivedAt) implements FleetEvent {
    public ProbeReported {
      Objects.requireNonNull(probe, "probe");
      Objects.requireNonNull(receivedAt, "receivedAt");
    }
  }

  /**
   * One scrape of the agent-sandbox controller's {@code /metrics}; {@code receivedAt} is the scrape
   * time.
   *
   * @param scrape the parsed scrape
   */
  record Scraped(org.sandboxslo.engine.scrape.Scrape scrape) implements FleetEvent {
    public Scraped {
      Objects.requireNonNull(scrape, "scrape");
    }

    @Override
    public Instant receivedAt() {
      return scrape.at();
    }
  }
}
