-- Caller-facing safety: revocable budget exclusions and stored Idempotency-Key responses.
-- [jooq ignore ...]: keys and indexes on text columns that jOOQ's code generation (H2) cannot
-- simulate; PostgreSQL runs every statement.

-- An exclusion is revoked, never deleted: the row stays as the audit of who added it.
alter table slo_exclusion add column revoked_at timestamptz null;
alter table slo_exclusion add column revoked_by text null;
alter table slo_exclusion add column revoke_reason text null;

-- One row per (caller, Idempotency-Key): the first request's fingerprint and, once answered, its
-- response, replayed for a retry with the same key until expires_at.
create table idempotency_key (
  caller       text        not null,
  key          text        not null,
  request_hash text        not null,  -- SHA-256 of method, path and body (hex)
  status       integer     null,      -- null while the first request is in progress
  content_type text        null,
  body         text        null,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null
  /* [jooq ignore start] */ , primary key (caller, key) /* [jooq ignore stop] */
);
-- [jooq ignore start]
create index idempotency_key_expires_idx on idempotency_key (expires_at);
-- [jooq ignore stop]
