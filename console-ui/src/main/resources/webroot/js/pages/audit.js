// Audit: the append-only log of plans and steps.
import { h, clear, table, time } from '../util.js';
import { api, auth } from '../api.js';

export function render(root, params, query, app) {
  document.title = 'Audit · Sandbox SLO Console';
  const box = h('div', { id: 'audit' });
  const plan = h('input', { id: 'a-plan', name: 'plan', size: 18, value: query.get('plan') || '' });
  const actor = h('input', { id: 'a-actor', name: 'actor', size: 14, value: query.get('actor') || '' });
  const form = h('form', { class: 'filters', role: 'search', onsubmit: (e) => { e.preventDefault(); go(); } },
    h('label', { for: 'a-plan' }, 'Plan'), plan, h('label', { for: 'a-actor' }, 'Actor'), actor, h('button', { type: 'submit' }, 'Filter'));
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Audit')), form, box);
  function go() {
    const q = new URLSearchParams();
    if (plan.value.trim()) q.set('plan', plan.value.trim());
    if (actor.value.trim()) q.set('actor', actor.value.trim());
    history.replaceState(null, '', '/audit' + (q.toString() ? '?' + q : ''));
    load().catch(() => {});
  }
  async function load() {
    clear(box);
    if (!auth.me) { box.append(h('p', null, h('button', { type: 'button', onclick: app.openSignin }, 'Sign in'), ' to read the audit log.')); return; }
    const q = new URLSearchParams();
    if (plan.value.trim()) q.set('plan', plan.value.trim());
    if (actor.value.trim()) q.set('actor', actor.value.trim());
    try {
      const r = await api('/api/v1/audit?' + q);
      box.append(table([
        { key: 'seq', label: '#', cls: 'num', render: (a) => String(a.seq) },
        { key: 'at', label: 'At', render: (a) => time(a.at) },
        { key: 'actor', label: 'Actor', render: (a) => a.actor },
        { key: 'what', label: 'What', render: (a) => h('code', null, a.what) },
        { key: 'plan', label: 'Plan', render: (a) => a.planId ? h('a', { href: '/plans/' + a.planId, 'data-nav': '' }, a.planId) : '' },
        { key: 'object', label: 'Object', render: (a) => a.object || '' },
        { key: 'why', label: 'Why', render: (a) => a.why || '' },
        { key: 'result', label: 'Result', render: (a) => a.result || '' },
      ], r.items.slice().reverse(), { cls: 'audit compact', empty: 'No audit rows.', rowAttrs: (a) => ({ 'data-what': a.what }) }));
    } catch (e) {
      box.append(h('p', { class: 'error' }, 'Audit unavailable: ' + e.message));
    }
  }
  app.onAuth.push(() => load().catch(() => {}));
  app.every(5000, load);
}
