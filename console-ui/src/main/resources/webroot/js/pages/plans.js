// Plans: a validated form for every remediation action, the dry-run diff and predicted SLIs, a
// confirmation naming what will be deleted, approval by a second person, live progress, audit.
import { h, clear, time, table, badge, objectLink, kv } from '../util.js';
import { api, auth, has, cannot, namespaceOf } from '../api.js';

export const ACTIONS = {
  PacedRecreate: { subject: 'pool', help: 'Replace stale unclaimed members in batches, never below the Ready floor.', params: [] },
  SetUpdateStrategy: { subject: 'pool', help: 'Set spec.updateStrategy.type of the pool.', params: [{ key: 'type', label: 'Update strategy', type: 'select', options: ['OnReplenish', 'Recreate'] }] },
  ScalePool: { subject: 'pool', help: 'Set spec.replicas of the pool.', params: [{ key: 'replicas', label: 'Replicas', type: 'int', min: 0, max: 10000 }] },
  ShardPool: { subject: 'pool', help: 'Create N−1 pools of the same template, wait until Ready, then shrink this one.', params: [{ key: 'shards', label: 'Shards', type: 'int', min: 2, max: 64 }] },
  SetRefillPacing: { subject: 'controller', help: 'Set the per-pool max refill rate (controller-lite, or the upstream controller Deployment ns/name).', params: [{ key: 'maxRefillRate', label: 'Max refill rate (sandboxes/s per pool, 0 = unpaced)', type: 'number', min: 0 }] },
  DeleteExpiredClaims: { subject: 'namespace', help: 'Delete the expired or never-expiring finished claims listed by the finding (never automatic).', params: [] },
};

function subjectHint(kind) {
  return kind === 'pool' ? 'namespace/pool' : kind === 'namespace' ? 'namespace' : 'controller-lite or namespace/deployment';
}

/** Client-side checks mirroring the server's (which stays the authority). */
export function validate(action, subject, params, reason) {
  const errors = {};
  const a = ACTIONS[action];
  if (!a) errors.action = 'choose an action';
  else {
    if (!subject) errors.subject = 'required: ' + subjectHint(a.subject);
    else if (a.subject === 'pool' && !/^[^/\s]+\/[^/\s]+$/.test(subject)) errors.subject = 'expected namespace/pool';
    else if (a.subject === 'namespace' && !/^[^/\s]+$/.test(subject)) errors.subject = 'expected a namespace';
    else if (a.subject === 'controller' && subject !== 'controller-lite' && !/^[^/\s]+\/[^/\s]+$/.test(subject)) errors.subject = 'expected controller-lite or namespace/deployment';
    for (const p of a.params) {
      const v = params[p.key];
      if (p.type === 'int' && !(Number.isInteger(v) && v >= p.min && v <= p.max)) errors['params.' + p.key] = `an integer ${p.min}..${p.max}`;
      if (p.type === 'number' && !(typeof v === 'number' && Number.isFinite(v) && v >= p.min)) errors['params.' + p.key] = `a number ≥ ${p.min}`;
      if (p.type === 'select' && !p.options.includes(v)) errors['params.' + p.key] = 'one of ' + p.options.join(', ');
    }
  }
  if (!reason || !reason.trim()) errors.reason = 'say why (it is audited)';
  return errors;
}

export function renderList(root, params, query, app) {
  document.title = 'Plans · Sandbox SLO Console';
  const formBox = h('section', { id: 'plan-form-box' });
  const listBox = h('div', { id: 'plans-list' });
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Plans')), formBox, h('section', null, h('h2', null, 'Recent plans'), listBox));

  function renderForm() {
    clear(formBox);
    const ids = (k) => 'plan-' + k;
    const action = h('select', { id: ids('action'), name: 'action' }, Object.keys(ACTIONS).map((a) => h('option', { value: a }, a)));
    action.value = ACTIONS[query.get('action')] ? query.get('action') : 'PacedRecreate';
    const subject = h('input', { id: ids('subject'), name: 'subject', list: 'plan-subjects', size: 36, value: query.get('subject') || '', autocomplete: 'off' });
    const subjects = h('datalist', { id: 'plan-subjects' });
    const snap = app.snapshot;
    const pools = new Set();
    const namespaces = new Set();
    for (const it of (snap && snap.items) || []) { namespaces.add(it.namespace); for (const p of it.pools || []) pools.add(it.namespace + '/' + p); }
    for (const v of ['controller-lite', ...pools, ...namespaces]) subjects.append(h('option', { value: v }));
    const reason = h('textarea', { id: ids('reason'), name: 'reason', rows: 2, cols: 60 });
    reason.value = query.get('finding') ? 'remediate finding ' + query.get('finding') : '';
    const paramBox = h('div', { class: 'params' });
    const help = h('p', { class: 'muted', id: 'plan-help' });
    const errs = {};
    const err = (k) => (errs[k] = h('span', { class: 'field-error', id: 'err-' + k.replace('.', '-'), role: 'alert' }));
    const paramEls = {};
    function renderParams() {
      clear(paramBox);
      const a = ACTIONS[action.value];
      help.textContent = a.help + ' Subject: ' + subjectHint(a.subject) + '.';
      for (const p of a.params) {
        const id = ids('param-' + p.key);
        const el = p.type === 'select'
          ? h('select', { id, name: p.key }, p.options.map((o) => h('option', { value: o }, o)))
          : h('input', { id, name: p.key, type: 'number', min: p.min, max: p.max ?? null, step: p.type === 'int' ? 1 : 'any', required: true });
        paramEls[p.key] = el;
        paramBox.append(h('div', { class: 'field' }, h('label', { for: id }, p.label), el, err('params.' + p.key)));
      }
    }
    action.addEventListener('change', renderParams);
    renderParams();
    const submit = h('button', { type: 'submit', class: 'primary', id: 'plan-submit' }, 'Dry run');
    const why = h('span', { class: 'reason muted', id: 'plan-submit-reason' });
    const status = h('p', { role: 'status', id: 'plan-status' });
    function gate() {
      const w = cannot('operator', namespaceOf(action.value, subject.value.trim() || 'x/x'), 'planning ' + action.value);
      submit.disabled = !!w;
      why.textContent = w || '';
    }
    action.addEventListener('change', gate);
    subject.addEventListener('input', gate);
    gate();
    app.onAuth.push(gate);
    const form = h('form', { id: 'plan-form', novalidate: true },
      h('h2', null, 'New plan (dry run first)'),
      h('div', { class: 'field' }, h('label', { for: ids('action') }, 'Action'), action, err('action')), help,
      h('div', { class: 'field' }, h('label', { for: ids('subject') }, 'Subject'), subject, subjects, err('subject')),
      paramBox,
      h('div', { class: 'field' }, h('label', { for: ids('reason') }, 'Reason'), reason, err('reason')),
      h('div', { class: 'actions' }, submit, why), status);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const a = ACTIONS[action.value];
      const ps = {};
      for (const p of a.params) {
        const raw = paramEls[p.key].value;
        ps[p.key] = p.type === 'select' ? raw : raw === '' ? null : Number(raw);
      }
      for (const e of Object.values(errs)) e.textContent = '';
      const errors = validate(action.value, subject.value.trim(), ps, reason.value);
      for (const [k, v] of Object.entries(errors)) if (errs[k]) errs[k].textContent = v;
      if (Object.keys(errors).length) { status.textContent = 'Fix the marked fields.'; return; }
      status.textContent = 'Planning…';
      try {
        const p = await api('/api/v1/plans', { method: 'POST', body: { action: action.value, subject: subject.value.trim(), params: ps, reason: reason.value.trim() } });
        app.navigate('/plans/' + p.id);
      } catch (e) {
        const f = e.body && e.body.field;
        if (f && errs[f]) errs[f].textContent = e.message;
        status.textContent = 'The server refused the plan: ' + e.message;
      }
    });
    formBox.append(form);
  }

  async function loadList() {
    clear(listBox);
    if (!auth.me) { listBox.append(h('p', null, h('button', { type: 'button', onclick: app.openSignin }, 'Sign in'), ' to see and act on plans.')); return; }
    const r = await api('/api/v1/plans');
    listBox.append(table([
      { key: 'id', label: 'Plan', render: (p) => h('a', { href: '/plans/' + p.id, 'data-nav': '' }, p.id) },
      { key: 'action', label: 'Action', render: (p) => p.action },
      { key: 'subject', label: 'Subject', render: (p) => p.subject },
      { key: 'state', label: 'State', render: (p) => badge(p.state, 'plan-' + p.state) },
      { key: 'by', label: 'Planned by', render: (p) => p.plannedBy },
      { key: 'created', label: 'Created', render: (p) => time(p.createdAt) },
    ], r.items, { empty: 'No plans yet.', rowAttrs: (p) => ({ 'data-plan': p.id }) }));
  }
  renderForm();
  app.onAuth.push(() => loadList().catch(() => {}));
  app.every(5000, loadList);
}

export function renderOne(root, [id], query, app) {
  document.title = 'Plan ' + id + ' · Sandbox SLO Console';
  const box = h('div', { id: 'plan' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '/plans', 'data-nav': '' }, 'Plans'), ' › ', id), box);
  let confirming = false;
  let message = '';
  let lastState = null;

  async function act(what, headers) {
    try {
      await api(`/api/v1/plans/${id}/${what}`, { method: 'POST', headers });
      message = what + ': done';
      confirming = false;
    } catch (e) {
      message = what + ' refused: ' + e.message;
    }
    await load();
  }

  function approveBlock(p) {
    const ns = namespaceOf(p.action, p.subject);
    if (p.state !== 'planned') return 'the plan is ' + p.state;
    if (!auth.me) return 'Sign in to approve.';
    const roles = (auth.me.approverRoles && auth.me.approverRoles[p.action]) || ['approver'];
    if (!roles.some((r) => has(r, ns))) return `${auth.me.user} lacks ${roles.join(' or ')}${ns ? ' for namespace ' + ns : ''}, which approving ${p.action} requires.`;
    if (auth.me.twoPerson && p.plan && p.plan.destructive && p.plannedBy === auth.me.user) return `Two-person rule: ${p.plannedBy} planned this destructive change; someone else must approve it.`;
    return null;
  }

  function deletions(p) {
    const out = [];
    for (const s of (p.plan && p.plan.steps) || []) {
      if (s.op === 'delete-members' || s.op === 'delete-claim') out.push(...s.objects);
    }
    if (!out.length && p.plan && p.plan.destructive) {
      for (const s of p.plan.steps) out.push(s.description);
      if (p.plan.predicted && p.plan.predicted.warning) out.push(p.plan.predicted.warning);
    }
    return out;
  }

  async function load() {
    if (!auth.me) {
      clear(box).append(h('p', null, h('button', { type: 'button', onclick: app.openSignin }, 'Sign in'), ' to see plan ' + id + '.'));
      return;
    }
    const p = await api('/api/v1/plans/' + encodeURIComponent(id));
    lastState = p.state;
    const ns = namespaceOf(p.action, p.subject);
    const approveWhy = approveBlock(p);
    const execWhy = p.state !== 'approved' ? (p.state === 'planned' ? 'it must be approved first' : 'the plan is ' + p.state) : cannot('operator', ns, 'executing a plan');
    const cancelWhy = ['succeeded', 'failed', 'cancelled'].includes(p.state) ? 'the plan has finished' : !(has('operator', ns) || has('approver', ns)) ? (auth.me.user + ' lacks operator or approver' + (ns ? ' for namespace ' + ns : '')) : null;
    const steps = (p.plan && p.plan.steps) || [];
    const progress = p.progress || {};
    const done = progress.stepsDone ?? progress.batchesDone ?? (p.state === 'succeeded' ? steps.length : 0);
    const del = deletions(p);
    const btn = (label, why, onclick, idAttr) => [h('button', { type: 'button', id: idAttr, disabled: why ? true : null, onclick, 'aria-describedby': idAttr + '-why' }, label),
      h('span', { class: 'reason muted', id: idAttr + '-why' }, why ? ' ' + why : '')];
    clear(box).append(
      h('div', { class: 'page-head' }, h('h1', { id: 'subject' }, p.action, ' ', h('span', { class: 'muted' }, p.subject)), h('span', { class: 'state', id: 'plan-state' }, badge(p.state, 'plan-' + p.state))),
      kv([['plan', p.id], ['reason', p.reason], ['planned by', [p.plannedBy, ' ', time(p.createdAt)]], ['approved by', p.approvedBy || '—'], ['executed by', p.executedBy || '—'], ['updated', time(p.updatedAt)], ['result', p.result || '—']]),
      h('div', { class: 'actions plan-actions' },
        btn('Approve', approveWhy, () => act('approve'), 'plan-approve'),
        btn('Execute…', execWhy, () => { confirming = true; render(); }, 'plan-execute'),
        btn('Cancel plan', cancelWhy, () => act('cancel'), 'plan-cancel')),
      message ? h('p', { role: 'status', id: 'plan-message' }, message) : '',
      confirming ? confirmPanel(p, del) : '',
      h('section', null, h('h2', null, 'Progress'), progressView(p, steps, done, progress)),
      h('section', null, h('h2', null, 'Dry run: what changes'), table([
        { key: 'n', label: '#', cls: 'num', render: (s) => String(s.n) },
        { key: 'op', label: 'Operation', render: (s) => h('code', null, s.op) },
        { key: 'objects', label: 'Objects', render: (s) => h('ul', { class: 'plain' }, s.objects.map((o) => h('li', null, objectLink(o)))) },
        { key: 'desc', label: 'Change', render: (s) => [s.description, s.patch ? h('div', null, h('code', null, typeof s.patch === 'string' ? s.patch : JSON.stringify(s.patch))) : null] },
      ], steps, { cls: 'steps', empty: 'No steps.' })),
      h('section', null, h('h2', null, 'Predicted effect'), predicted(p.plan || {})),
      h('section', null, h('h2', null, 'Audit trail'), table([
        { key: 'at', label: 'At', render: (a) => time(a.at) },
        { key: 'actor', label: 'Actor', render: (a) => a.actor },
        { key: 'what', label: 'What', render: (a) => h('code', null, a.what) },
        { key: 'step', label: 'Step', cls: 'num', render: (a) => a.step ?? '' },
        { key: 'object', label: 'Object', render: (a) => a.object || '' },
        { key: 'result', label: 'Result', render: (a) => a.result || '' },
      ], p.audit || [], { cls: 'audit compact', empty: 'No audit rows.' })));

    function render() { load().catch(() => {}); }
  }

  function confirmPanel(p, del) {
    const check = h('input', { type: 'checkbox', id: 'confirm-check' });
    const go = h('button', { type: 'button', id: 'confirm-execute', class: 'danger', disabled: true, onclick: () => act('execute', { 'Idempotency-Key': id + '-execute' }) }, 'Execute now');
    check.addEventListener('change', () => { go.disabled = !check.checked; });
    return h('section', { class: 'confirm', id: 'confirm', role: 'region', 'aria-label': 'Confirm execution' },
      h('h2', null, del.length ? 'This will delete or disrupt:' : 'This changes:'),
      del.length ? h('ul', { id: 'confirm-objects' }, del.map((o) => h('li', null, o))) : h('p', null, (p.plan.steps || []).map((s) => s.description).join('; ')),
      h('p', null, h('input', { type: 'hidden' }), check, h('label', { for: 'confirm-check' }, ' I have checked ' + (del.length ? 'the ' + del.length + ' item(s) above' : 'the change') + ' against the live pool.')),
      h('div', { class: 'actions' }, go, h('button', { type: 'button', onclick: () => { confirming = false; load(); } }, 'Back')));
  }

  function progressView(p, steps, done, progress) {
    const total = Math.max(1, p.action === 'PacedRecreate' ? ((p.plan && p.plan.batches) || []).length : steps.length);
    const frac = p.state === 'succeeded' ? 1 : Math.min(1, done / total);
    return h('div', { id: 'plan-progress' },
      h('progress', { max: 1, value: frac, 'aria-label': 'plan progress' }), ' ', `${Math.round(frac * 100)} %`,
      Object.keys(progress).length ? kv(Object.entries(progress).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') || '—' : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)])) : h('p', { class: 'muted' }, p.state === 'executing' ? 'starting…' : 'not started'));
  }

  load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Plan unavailable: ' + e.message)));
  const t = setInterval(() => { if (!confirming && (lastState === 'executing' || lastState === 'approved' || lastState === 'planned')) load().catch(() => {}); }, 1000);
  app.onAuth.push(() => load().catch(() => {}));
  return { dispose() { clearInterval(t); } };
}

function predicted(plan) {
  const pr = plan.predicted || {};
  const rows = [];
  for (const [k, v] of Object.entries(pr)) {
    if (v && typeof v === 'object' && ('before' in v || 'after' in v)) rows.push([k, fmt(v.before), fmt(v.after)]);
    else rows.push([k, '', fmt(v)]);
  }
  for (const k of ['maxUnavailable', 'floorReady', 'floorFraction', 'replicas']) if (k in plan) rows.push([k, '', fmt(plan[k])]);
  if (plan.maxUnavailableArithmetic) rows.push(['maxUnavailable arithmetic', '', plan.maxUnavailableArithmetic]);
  if (plan.untouched && plan.untouched.length) rows.push(['untouched (claimed)', '', plan.untouched.join(', ')]);
  return table([
    { key: 'what', label: 'SLI / quantity', render: (r) => r[0] },
    { key: 'before', label: 'Before', cls: 'num', render: (r) => r[1] },
    { key: 'after', label: 'After / value', cls: 'num', render: (r) => r[2] },
  ], rows, { cls: 'predicted compact', empty: 'No prediction.' });
}

function fmt(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2);
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
