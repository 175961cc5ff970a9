-- Remediation plans (plan -> approve -> execute) and their append-only audit log.
create table remediation_plan (
  id              text        /* [jooq ignore start] */ primary key /* [jooq ignore stop] */,
  action          text        not null,  -- PacedRecreate | SetUpdateStrategy | ScalePool | ShardPool | SetRefillPacing | DeleteExpiredClaims
  subject         text        not null,  -- ns/pool, a namespace, or controller-lite / ns/deployment
  params          text        not null,  -- JSON object as given
  reason          text        not null,  -- why (from the planner)
  state           text        not null,  -- planned | approved | executing | succeeded | failed | cancelled
  planned_by      text        not null,
  approved_by     text        null,
  executed_by     text        null,
  idempotency_key text        null,
  dry_run         text        not null,  -- JSON: steps, objects, predicted effect
  progress        text        not null,  -- JSON: executor progress (next step, deleted members, observations)
  result          text        null,
  created_at      timestamptz not null,
  updated_at      timestamptz not null
);

create table remediation_audit (
  seq      bigserial   primary key,
  at       timestamptz not null,
  actor    text        not null,  -- user, or 'executor' for steps
  what     text        not null,  -- plan.create | plan.approve | plan.execute | plan.cancel | step.before | step.after | plan.done ...
  plan_id  text        null,
  step     integer     null,
  object   text        null,      -- e.g. 'Sandbox demo/python-runtime-pool-x1y2z'
  why      text        null,
  result   text        not null   -- intent | ok | refused: ... | failed: ... | skipped: ...
);

-- [jooq ignore start] (code generation: H2 cannot index text columns; functions and triggers
-- are not parsed by jOOQ's open source edition)
create index remediation_audit_plan_idx on remediation_audit (plan_id, seq);

create function remediation_audit_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'remediation_audit is append-only';
end
$$;

create trigger remediation_audit_no_update_or_delete
  before update or delete on remediation_audit
  for each row execute function remediation_audit_append_only();
-- [jooq ignore stop]
