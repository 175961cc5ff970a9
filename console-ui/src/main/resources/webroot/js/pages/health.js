// Health: informer sync and watch lag per kind, ingest errors, store and executor, snapshot age.
import { h, clear, secs, table, time, kv, badge, ago } from '../util.js';
import { api, auth } from '../api.js';

export function render(root, params, query, app) {
  document.title = 'Health · Sandbox SLO Console';
  const box = h('div', { id: 'health' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Health')), box);
  async function load() {
    const [s, ready, plans] = await Promise.all([
      api('/api/v1/status'),
      fetch('/readyz').then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) })).catch(() => null),
      auth.me ? api('/api/v1/plans').then((r) => r.items).catch(() => null) : Promise.resolve(null),
    ]);
    const kinds = Object.keys(s.synced);
    const executing = plans ? plans.filter((p) => p.state === 'executing') : null;
    clear(box).append(
      kv([
        ['ready', ready && ready.status === 200 ? badge('ready', 'status-ok') : badge('not ready', 'status-burning')],
        ['database', ready && ready.body && ready.body.checks && ready.body.checks.database
          ? (ready.body.checks.database === 'up' ? badge('up', 'status-ok') : badge(ready.body.checks.database, 'status-exhausted'))
          : 'none'],
        ['last snapshot', s.at ? [time(s.at), ' (' + ago(s.at) + ')'] : 'none yet'],
        ['live stream', app.live.state],
        ['store', s.store.enabled ? (s.store.error ? badge('error', 'status-exhausted') : badge('ok', 'status-ok')) : 'off (no history)'],
        ['store rows', s.store.rows === null ? (s.store.error || 'no data') : String(s.store.rows)],
        ['remediation executor', executing === null ? 'sign in to see plans' : executing.length + ' plan(s) executing'],
      ]),
      h('section', null, h('h2', null, 'Informers'), table([
        { key: 'kind', label: 'Kind', render: (k) => k },
        { key: 'synced', label: 'Synced', render: (k) => s.synced[k] ? badge('synced', 'status-ok') : badge('not synced', 'status-burning') },
        { key: 'lag', label: 'Watch lag (last)', cls: 'num', render: (k) => secs(s.watchLagSeconds[k] && s.watchLagSeconds[k].last) },
        { key: 'lag5m', label: 'Watch lag (max 5 min)', cls: 'num', render: (k) => secs(s.watchLagSeconds[k] && s.watchLagSeconds[k].max5m) },
      ], kinds, { cls: 'informers', rowAttrs: (k) => ({ 'data-kind': k }) })),
      h('section', null, h('h2', null, 'Ingest errors'), table([
        { key: 'key', label: 'Kind / reason', render: (e) => h('code', null, e[0]) },
        { key: 'count', label: 'Count since start', cls: 'num', render: (e) => String(e[1]) },
      ], Object.entries(s.ingestErrors), { cls: 'ingest', empty: 'No ingest errors.' })),
      h('section', null, h('h2', null, 'Stored SLOs skipped at start'), table([
        { key: 'slo', label: 'SLO', render: (e) => h('code', null, e.slo) },
        { key: 'reason', label: 'Why', render: (e) => e.reason },
      ], (s.slos && s.slos.loadErrors) || [], { cls: 'slo-load-errors', empty: 'Every stored SLO loaded.' })));
  }
  app.every(2000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Status unavailable: ' + e.message))));
}
