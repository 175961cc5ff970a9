// SLOs: every SLO with status, budget and burn tiers; one SLO with its burn-down.
import { h, clear, pct, table, badge, time, kv, isNum } from '../util.js';
import { api } from '../api.js';
import { budgetChart, tiersTable } from './common.js';

export function renderList(root, params, query, app) {
  document.title = 'SLOs · Sandbox SLO Console';
  const box = h('div', { id: 'slos' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'SLOs')), box);
  const rank = { exhausted: 0, burning: 1, ok: 2, 'no data': 3 };
  async function load() {
    const items = (await api('/api/v1/slos')).items.sort((a, b) => (rank[a.status] ?? 4) - (rank[b.status] ?? 4) || (a.budgetRemaining ?? 9) - (b.budgetRemaining ?? 9) || a.id.localeCompare(b.id));
    clear(box).append(table([
      { key: 'id', label: 'SLO', render: (s) => h('a', { href: '/slos/' + encodeURIComponent(s.id), 'data-nav': '' }, s.id) },
      { key: 'sli', label: 'SLI', render: (s) => s.sli },
      { key: 'subject', label: 'Selects', render: (s) => s.selector && s.selector.sandboxTemplate ? h('a', { href: `/templates/${s.selector.namespace}/${s.selector.sandboxTemplate}`, 'data-nav': '' }, s.selector.namespace + '/' + s.selector.sandboxTemplate) : (s.selector && s.selector.namespace) || 'all' },
      { key: 'objective', label: 'Objective', cls: 'num', render: (s) => s.objective + ' % / ' + s.period },
      { key: 'status', label: 'Status', render: (s) => [badge(s.status, 'status-' + s.status.replace(' ', '-')), s.firingTiers.length ? ' ' + s.firingTiers.join(', ') : ''] },
      { key: 'budget', label: 'Budget left', cls: 'num', render: (s) => budgetBar(s.budgetRemaining) },
      { key: 'sli-now', label: 'SLI now', cls: 'num', render: (s) => pct(s.sliNow, 2) },
      { key: 'origin', label: 'Origin', render: (s) => s.origin },
    ], items, { cls: 'slos compact', rowAttrs: (s) => ({ 'data-slo': s.id }) }));
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'SLOs unavailable: ' + e.message))));
}

export function budgetBar(v) {
  if (!isNum(v)) return h('span', { class: 'nodata' }, 'no data');
  const w = Math.max(0, Math.min(1, v));
  return h('span', { class: 'budget' }, h('span', { class: 'bar' }, h('span', { class: 'fill ' + (v <= 0 ? 'bad' : v < 0.25 ? 'warn' : 'good'), style: `width:${(w * 100).toFixed(0)}%` })), ' ', pct(v));
}

export function renderOne(root, [id], query, app) {
  document.title = id + ' · Sandbox SLO Console';
  const box = h('div', { id: 'slo' }, h('p', { class: 'muted' }, 'Loading…'));
  const plot = h('div', { id: 'slo-burndown' });
  root.append(h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '/slos', 'data-nav': '' }, 'SLOs'), ' › ', id), box, plot);
  async function load() {
    const s = await api('/api/v1/slos/' + encodeURIComponent(id));
    const sel = s.selector || {};
    clear(box).append(
      h('div', { class: 'page-head' }, h('h1', { id: 'subject' }, s.id), badge(s.status, 'status-' + s.status.replace(' ', '-'))),
      kv([
        ['SLI', s.sli], ['selects', sel.sandboxTemplate ? h('a', { href: `/templates/${sel.namespace}/${sel.sandboxTemplate}`, 'data-nav': '' }, sel.namespace + '/' + sel.sandboxTemplate) : sel.namespace || 'all'],
        ['objective', s.objective + ' % over ' + s.period], ['error budget', pct(s.errorBudget, 2)],
        ['budget left', budgetBar(s.budgetRemaining)], ['SLI over the period', pct(s.sliPeriod, 3) + ` (${s.good} good of ${s.valid})`],
        ['SLI now', pct(s.sliNow, 3)], ['time to exhaustion', isNum(s.timeToExhaustionSeconds) ? Math.round(s.timeToExhaustionSeconds / 60) + ' min at the current burn' : '—'],
      ]),
      h('section', null, h('h2', null, 'Burn-rate tiers'), tiersTable(s.tiers)),
      h('section', null, h('h2', null, 'Exclusions'), s.exclusions.length ? table([
        { key: 'from', label: 'From', render: (x) => time(x.from) }, { key: 'to', label: 'To', render: (x) => time(x.to) },
        { key: 'reason', label: 'Reason', render: (x) => x.reason }, { key: 'author', label: 'Author', render: (x) => x.author },
      ], s.exclusions, { cls: 'compact' }) : h('p', { class: 'muted' }, 'none')));
  }
  async function loadBudget() {
    const b = await api('/api/v1/slos/' + encodeURIComponent(id) + '/budget');
    clear(plot).append(h('h2', null, 'Error budget burn-down over the period'), budgetChart(b, Math.min(1200, (root.clientWidth || 1200) - 20)));
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, e.status === 404 ? e.message : 'SLO unavailable: ' + e.message))));
  loadBudget().catch((e) => clear(plot).append(h('p', { class: 'muted' }, 'Burn-down unavailable: ' + e.message)));
}
