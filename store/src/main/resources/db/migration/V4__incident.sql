-- Incidents: alerts received from Alertmanager (webhook payload version 4), one row per firing
-- episode of an alert: (fingerprint, starts_at). A redelivery or the resolved notification of the
-- same episode updates the row; an alert that fires again later (new startsAt) is a new row.
-- [jooq ignore ...]: keys and indexes on text columns that jOOQ's code generation (H2) cannot
-- simulate; PostgreSQL runs every statement.
create table incident (
  fingerprint       text        not null,
  starts_at         timestamptz not null,
  alertname         text        not null,
  status            text        not null,  -- firing | resolved
  severity          text        null,      -- labels.severity (page | ticket | ...)
  namespace         text        null,      -- labels.namespace, else labels.exported_namespace
  sandbox_template  text        null,      -- labels.sandbox_template
  warmpool_name     text        null,      -- labels.warmpool_name
  slo               text        null,      -- labels.slo
  labels            text        not null,  -- JSON object
  annotations       text        not null,  -- JSON object
  ends_at           timestamptz null,      -- null while firing (Alertmanager's zero time)
  generator_url     text        null,
  receiver          text        null,
  first_received_at timestamptz not null,
  last_received_at  timestamptz not null,
  notifications     integer     not null default 1
  /* [jooq ignore start] */ , primary key (fingerprint, starts_at) /* [jooq ignore stop] */
);
-- [jooq ignore start]
create index incident_recent_idx on incident (starts_at desc);
create index incident_subject_idx on incident (namespace, sandbox_template);
-- [jooq ignore stop]
