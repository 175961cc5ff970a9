-- Budget history per (SLO name, owner): a user SLO that replaces a default or file SLO of the same
-- name keeps its own buckets, so deleting the override (which deletes its buckets) leaves the
-- replaced SLO's history intact. Existing rows of a name that is stored as a user SLO are the
-- user's; all others belong to the built-in (default or file) SLO.
-- [jooq ignore ...]: the check, the data update and the key on text columns, which jOOQ's code
-- generation (H2) cannot simulate; PostgreSQL runs every statement.
alter table slo_budget_bucket add column owner text not null default 'builtin'
  /* [jooq ignore start] */ check (owner in ('builtin', 'user')) /* [jooq ignore stop] */;
-- [jooq ignore start]
update slo_budget_bucket b set owner = 'user'
  where exists (select 1 from slo_definition d where d.name = b.slo);
alter table slo_budget_bucket drop constraint slo_budget_bucket_pkey;
alter table slo_budget_bucket add primary key (slo, owner, resolution, bucket_start);
-- [jooq ignore stop]
