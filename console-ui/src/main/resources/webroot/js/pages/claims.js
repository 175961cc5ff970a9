// Claims: recent SandboxClaims with launch type, claim-to-ready, cold-start cause, outcome.
import { h, clear, secs, time, table, badge } from '../util.js';
import { api } from '../api.js';

const FILTERS = [
  ['namespace', 'Namespace', null],
  ['template', 'Template', null],
  ['createdBy', 'Created by', null],
  ['launchType', 'Launch type', ['', 'warm', 'cold']],
  ['outcome', 'Outcome', ['', 'ready', 'pending', 'rejected', 'expired-unserved', 'deleted-before-ready']],
];

export function render(root, params, query, app) {
  document.title = 'Claims · Sandbox SLO Console';
  if (params[0]) query.set('namespace', params[0]);
  const controls = {};
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (e) => { e.preventDefault(); apply(); } });
  for (const [k, label, options] of FILTERS) {
    const id = 'c-' + k;
    const el = options
      ? h('select', { id, name: k }, options.map((o) => h('option', { value: o }, o || 'any')))
      : h('input', { id, name: k, type: 'text', size: 14 });
    el.value = query.get(k) || '';
    el.addEventListener('change', apply);
    controls[k] = el;
    form.append(h('label', { for: id }, label), el);
  }
  form.append(h('button', { type: 'submit' }, 'Filter'));
  const summary = h('p', { class: 'muted', id: 'claims-summary', role: 'status' });
  const box = h('div', { id: 'claims-table' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Claims')), form, summary, box);

  function apply() {
    const q = new URLSearchParams();
    for (const [k] of FILTERS) if (controls[k].value) q.set(k, controls[k].value);
    history.replaceState(null, '', '/claims' + (q.toString() ? '?' + q : ''));
    load();
  }

  async function load() {
    const q = new URLSearchParams();
    for (const [k] of FILTERS) if (controls[k].value) q.set(k, controls[k].value);
    const r = await api('/api/v1/claims?' + q);
    summary.textContent = `${r.matched} of ${r.total} claims match` + (r.matched > r.items.length ? `; newest ${r.items.length} shown` : '') + '. Claims deleted by their owners are not kept yet.';
    clear(box).append(table([
      { key: 'claim', label: 'SandboxClaim', render: (c) => h('code', null, c.namespace + '/' + c.name) },
      { key: 'template', label: 'Template', render: (c) => c.template ? h('a', { href: `/templates/${c.namespace}/${c.template}`, 'data-nav': '' }, c.template) : h('span', { class: 'nodata' }, 'unknown') },
      { key: 'pool', label: 'Pool', render: (c) => c.warmPool ? h('a', { href: `/pools/${c.namespace}/${c.warmPool}`, 'data-nav': '' }, c.warmPool) : '' },
      { key: 'createdBy', label: 'Created by', render: (c) => c.createdBy },
      { key: 'seen', label: 'First seen', render: (c) => time(c.firstSeen) },
      { key: 'launch', label: 'Launch', render: (c) => c.launchType ? badge(c.launchType, 'launch-' + c.launchType) : h('span', { class: 'nodata' }, '—') },
      { key: 'c2r', label: 'Claim→Ready', cls: 'num', render: (c) => secs(c.claimToReadySeconds) },
      { key: 'cause', label: 'Cold-start cause', render: (c) => c.coldStartCause || '' },
      { key: 'outcome', label: 'Outcome', render: (c) => badge(c.outcome, 'outcome-' + c.outcome) },
      { key: 'reason', label: 'Reason', render: (c) => c.reason || '' },
    ], r.items, { cls: 'claims compact', empty: 'No claim matches.', rowAttrs: (c) => ({ 'data-claim': c.namespace + '/' + c.name }) }));
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Claims unavailable: ' + e.message))));
}
