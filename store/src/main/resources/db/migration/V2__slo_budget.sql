-- SLO subsystem: user SLO definitions, budget history buckets, budget exclusions (audited).
-- [jooq ignore ...] comments hide from jOOQ's code generation (DDLDatabase on H2) what H2 cannot
-- simulate: keys and indexes on text columns. PostgreSQL runs every statement.
create table slo_definition (
  name       text /* [jooq ignore start] */ primary key /* [jooq ignore stop] */,
  body       text not null,            -- the POSTed JSON (console shape)
  created_at timestamptz not null default now(),
  author     text null
);

create table slo_budget_bucket (
  slo          text not null,
  resolution   text not null,          -- fine | coarse
  bucket_start timestamptz not null,
  width_ms     bigint not null,
  good         bigint not null,
  valid        bigint not null,
  updated_at   timestamptz not null default now()
  /* [jooq ignore start] */ , primary key (slo, resolution, bucket_start) /* [jooq ignore stop] */
);

create table slo_exclusion (
  id         bigserial primary key,
  slo        text not null,
  from_at    timestamptz not null,
  to_at      timestamptz not null,
  reason     text not null,
  author     text not null,
  created_at timestamptz not null default now()
);
-- [jooq ignore start]
create index slo_exclusion_slo_idx on slo_exclusion (slo);
-- [jooq ignore stop]
