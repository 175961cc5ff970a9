-- One row per subject (SandboxTemplate or SandboxWarmPool) x window x SLI per stored snapshot.
-- value is NULL when the window held no valid events ("no data"); never NaN.
create table sli_snapshot (
  at         timestamptz      not null,
  scope      text             not null,  -- 'template' | 'pool'
  namespace  text             not null,
  name       text             not null,
  sli_window text             not null,  -- '5m', '1h', ... or 'now' for pool-state SLIs
  sli        text             not null,  -- see SliName
  value      double precision null
);

-- [jooq ignore start] (code generation: H2 cannot index text columns)
create index sli_snapshot_series_idx on sli_snapshot (scope, namespace, name, sli, sli_window, at);
-- [jooq ignore stop]
