// Fleet: one row per template, worst first; sortable, filterable; values updated in place.
import { h, setText, pct, secs, isNum, NO_DATA } from '../util.js';
import { api } from '../api.js';

const SLO_ABBR = { warm_hit_ratio: 'WH', claim_to_ready_latency: 'CR', pool_ready_fraction: 'PR', resume_success_ratio: 'RS' };
const SLO_NAME = { warm_hit_ratio: 'warm-hit', claim_to_ready_latency: 'claim-to-ready', pool_ready_fraction: 'pool ready', resume_success_ratio: 'resume success' };
const RANK = { exhausted: 4, burning: 3, ok: 1, 'no data': 0 };

const COLUMNS = [
  { key: 'name', label: 'Template', sort: (r) => r.key },
  { key: 'status', label: 'SLO status', sort: (r) => r.rank },
  { key: 'budget', label: 'Error budget left (per SLO)', sort: (r) => (r.minBudget === null ? 9 : r.minBudget) },
  { key: 'warm5m', label: 'Warm-hit 5m', num: true, sort: (r) => r.warm5m },
  { key: 'warm1h', label: 'Warm-hit 1h', num: true, sort: (r) => r.warm1h },
  { key: 'c2rWarm', label: 'Claim→Ready p95 warm', num: true, sort: (r) => r.c2rWarm },
  { key: 'c2rCold', label: 'p95 cold', num: true, sort: (r) => r.c2rCold },
  { key: 'ready', label: 'Pool ready (upstream / current)', num: true, sort: (r) => r.readyCurrent },
  { key: 'stale', label: 'Stale', num: true, sort: (r) => r.stale },
  { key: 'findings', label: 'Findings', num: true, sort: (r) => r.findings },
  { key: 'alerts', label: 'Alerts', num: true, sort: (r) => r.alerts },
];

export function render(root, params, query, app) {
  document.title = 'Fleet · Sandbox SLO Console';
  const state = {
    rows: new Map(), // key -> {tr, cells, m}
    slos: new Map(), // ns/tpl -> [slo]
    findings: new Map(), // ns/tpl or ns/pool -> open count
    alerts: new Map(), // ns/tpl -> firing count
    items: [],
    sortKey: query.get('sort') || 'worst',
    sortDir: query.get('dir') === 'asc' ? 1 : -1,
    order: '',
  };
  const nsSelect = h('select', { id: 'f-namespace', name: 'namespace' }, h('option', { value: '' }, 'all namespaces'));
  const statusSelect = h('select', { id: 'f-status', name: 'status' },
    [['', 'any status'], ['problem', 'burning or exhausted'], ['exhausted', 'exhausted'], ['burning', 'burning'], ['ok', 'ok'], ['no data', 'no data']]
      .map(([v, t]) => h('option', { value: v }, t)));
  const text = h('input', { id: 'f-text', type: 'search', name: 'q', placeholder: 'namespace/template or pool', size: 28 });
  statusSelect.value = query.get('status') || '';
  text.value = query.get('q') || '';
  const count = h('span', { id: 'fleet-count', class: 'muted', role: 'status' });
  const head = h('tr', null, COLUMNS.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null, 'data-col': c.key },
    h('button', { type: 'button', class: 'sort', onclick: () => sortBy(c.key) }, c.label))));
  const tbody = h('tbody', { id: 'fleet-rows' });
  const tableEl = h('table', { id: 'fleet', class: 'grid fleet' }, h('caption', { class: 'sr-only' }, 'Templates, worst first'), h('thead', null, head), tbody);
  root.append(
    h('div', { class: 'page-head' }, h('h1', null, 'Fleet'), count),
    h('form', { class: 'filters', role: 'search', onsubmit: (e) => e.preventDefault() },
      h('label', { for: 'f-namespace' }, 'Namespace'), nsSelect,
      h('label', { for: 'f-status' }, 'Status'), statusSelect,
      h('label', { for: 'f-text' }, 'Search'), text,
      h('button', { type: 'button', onclick: () => sortBy('worst') }, 'Worst first')),
    tableEl,
    h('p', { class: 'legend muted' }, 'SLO chips: WH warm-hit, CR claim-to-ready, PR pool ready, RS resume success; the value is the error budget left over the SLO period. ',
      '“no data” means the window held no event. Ready: upstream status.readyReplicas / spec.replicas, and Ready members on the current template / spec.replicas.'));

  for (const el of [nsSelect, statusSelect]) el.addEventListener('change', () => { filter(); syncUrl(); });
  text.addEventListener('input', () => { filter(); syncUrl(); });

  function syncUrl() {
    const q = new URLSearchParams();
    if (nsSelect.value) q.set('namespace', nsSelect.value);
    if (statusSelect.value) q.set('status', statusSelect.value);
    if (text.value) q.set('q', text.value);
    if (state.sortKey !== 'worst') { q.set('sort', state.sortKey); q.set('dir', state.sortDir > 0 ? 'asc' : 'desc'); }
    const s = q.toString();
    history.replaceState(null, '', '/' + (s ? '?' + s : ''));
  }

  function sortBy(key) {
    if (state.sortKey === key) state.sortDir = -state.sortDir;
    else { state.sortKey = key; state.sortDir = key === 'name' ? 1 : -1; }
    for (const th of head.children) {
      th.setAttribute('aria-sort', th.dataset.col === state.sortKey ? (state.sortDir > 0 ? 'ascending' : 'descending') : 'none');
    }
    order(true);
    syncUrl();
  }

  function model(it) {
    const key = it.namespace + '/' + it.name;
    const w = it.windows || {};
    const wk = Object.keys(w);
    const w0 = w[wk[0]] || {};
    const w1 = w[wk[1]] || w0;
    const slos = state.slos.get(key) || [];
    let rank = -1;
    const firing = new Set();
    let minBudget = null;
    for (const s of slos) {
      rank = Math.max(rank, RANK[s.status] ?? 0);
      (s.firingTiers || []).forEach((t) => firing.add(t));
      if (isNum(s.budgetRemaining)) minBudget = minBudget === null ? s.budgetRemaining : Math.min(minBudget, s.budgetRemaining);
    }
    const c2r = w0.claimToReadySeconds || {};
    const p = it.pool || {};
    const m = {
      key, ns: it.namespace, name: it.name, pools: it.pools || [], exists: it.exists,
      slos, rank, firing: [...firing], minBudget,
      status: rank < 0 ? 'no SLO' : Object.keys(RANK).find((k) => RANK[k] === rank) || 'no data',
      warm5m: w0.warmHitRatio ?? null, warm1h: w1.warmHitRatio ?? null,
      win0: wk[0] || '5m', win1: wk[1] || wk[0] || '1h',
      c2rWarm: c2r.warm ? c2r.warm.p95 : null, c2rCold: c2r.cold ? c2r.cold.p95 : null,
      readyUp: p.readyFraction ?? null, readyCurrent: p.readyFractionCurrentTemplate ?? null,
      replicas: p.replicas, stale: p.staleMembers ?? 0,
      findings: state.findings.get(key) || 0, alerts: state.alerts.get(key) || 0,
    };
    m.score = (m.alerts > 0 ? 50 : 0) + Math.max(0, rank) * 10 + (m.findings > 0 ? 5 : 0)
      + (isNum(m.warm5m) && m.warm5m < 0.95 ? 3 : 0) + (isNum(m.readyCurrent) && m.readyCurrent < 0.2 ? 3 : 0) + (m.stale > 0 ? 1 : 0);
    return m;
  }

  function createRow(m) {
    const cells = {};
    const tr = h('tr', { 'data-template': m.key });
    for (const c of COLUMNS) {
      const td = h('td', { 'data-col': c.key, class: c.num ? 'num' : null });
      cells[c.key] = td;
      tr.append(td);
    }
    cells.name.append(h('a', { href: `/templates/${encodeURIComponent(m.ns)}/${encodeURIComponent(m.name)}`, 'data-nav': '' }, m.key), h('span', { class: 'sub muted' }));
    tr.addEventListener('click', (ev) => {
      if (ev.target.closest('a,button') || String(window.getSelection())) return;
      app.navigate(`/templates/${encodeURIComponent(m.ns)}/${encodeURIComponent(m.name)}`);
    });
    return { tr, cells, m: null };
  }

  function cls(v, bad, warn, higherIsBetter = true) {
    if (!isNum(v)) return 'nodata';
    if (higherIsBetter) return v < bad ? 'bad' : v < warn ? 'warn' : 'good';
    return v > bad ? 'bad' : v > warn ? 'warn' : 'good';
  }

  function fill(row, m) {
    const c = row.cells;
    setText(c.name.lastChild, m.pools.length ? ' ' + m.pools.length + (m.pools.length === 1 ? ' pool' : ' pools') : m.exists === false ? ' template missing' : ' no pool', 'sub muted');
    const statusText = m.status + (m.firing.length ? ' · ' + m.firing.join(', ') : '');
    setText(c.status, statusText, 'status-' + m.status.replace(' ', '-'), m.firing.length ? 'burn-rate tiers firing: ' + m.firing.join(', ') : '');
    const chips = m.slos.map((s) => `${SLO_ABBR[s.sli] || s.sli} ${isNum(s.budgetRemaining) ? Math.round(s.budgetRemaining * 100) + '%' : '–'}`).join(' ');
    if (c.budget.dataset.v !== chips + m.slos.map((s) => s.status).join()) {
      c.budget.dataset.v = chips + m.slos.map((s) => s.status).join();
      c.budget.replaceChildren(...(m.slos.length ? m.slos.map((s) => h('span', {
        class: 'chip status-' + String(s.status).replace(' ', '-'),
        title: `${SLO_NAME[s.sli] || s.sli} SLO ${s.id}: ${s.status}, budget left ${isNum(s.budgetRemaining) ? pct(s.budgetRemaining) : NO_DATA}` + (s.firingTiers && s.firingTiers.length ? ', firing ' + s.firingTiers.join(', ') : ''),
      }, (SLO_ABBR[s.sli] || s.sli) + ' ' + (isNum(s.budgetRemaining) ? Math.round(s.budgetRemaining * 100) + '%' : NO_DATA))) : [h('span', { class: 'muted' }, 'no SLO')]));
    }
    setText(c.warm5m, pct(m.warm5m), cls(m.warm5m, 0.95, 0.99), 'warm-hit ratio over ' + m.win0);
    setText(c.warm1h, pct(m.warm1h), cls(m.warm1h, 0.95, 0.99), 'warm-hit ratio over ' + m.win1);
    setText(c.c2rWarm, secs(m.c2rWarm), isNum(m.c2rWarm) ? '' : 'nodata', 'claim-to-ready p95 of warm launches over ' + m.win0);
    setText(c.c2rCold, secs(m.c2rCold), isNum(m.c2rCold) ? '' : 'nodata', 'claim-to-ready p95 of cold launches over ' + m.win0);
    setText(c.ready, pct(m.readyUp, 0) + ' / ' + pct(m.readyCurrent, 0), cls(m.readyCurrent, 0.2, 0.5), `of ${m.replicas ?? '?'} replicas`);
    setText(c.stale, String(m.stale), m.stale > 0 ? 'warn' : '');
    setText(c.findings, String(m.findings), m.findings > 0 ? 'warn' : '');
    setText(c.alerts, String(m.alerts), m.alerts > 0 ? 'bad' : '');
    row.m = m;
  }

  function update(snap) {
    const t0 = performance.now();
    state.items = snap.items || [];
    const seen = new Set();
    const namespaces = new Set();
    for (const it of state.items) {
      const m = model(it);
      seen.add(m.key);
      namespaces.add(m.ns);
      let row = state.rows.get(m.key);
      if (!row) {
        row = createRow(m);
        state.rows.set(m.key, row);
      }
      fill(row, m);
    }
    for (const [k, row] of state.rows) {
      if (!seen.has(k)) { row.tr.remove(); state.rows.delete(k); }
    }
    if (nsSelect.options.length - 1 !== namespaces.size) {
      const cur = nsSelect.value || query.get('namespace') || '';
      nsSelect.replaceChildren(h('option', { value: '' }, 'all namespaces'), ...[...namespaces].sort().map((n) => h('option', { value: n }, n)));
      nsSelect.value = cur;
    }
    order(false);
    filter();
    const t1 = performance.now();
    requestAnimationFrame(() => {
      window.__fleetRender = { rows: state.rows.size, syncMs: t1 - t0, paintMs: performance.now() - t0 };
    });
  }

  function order(force) {
    const rows = [...state.rows.values()];
    const col = COLUMNS.find((c) => c.key === state.sortKey);
    rows.sort((a, b) => {
      if (!col) return b.m.score - a.m.score || a.m.key.localeCompare(b.m.key);
      const va = col.sort(a.m);
      const vb = col.sort(b.m);
      const na = va === null || va === undefined;
      const nb = vb === null || vb === undefined;
      if (na || nb) return na && nb ? a.m.key.localeCompare(b.m.key) : na ? 1 : -1; // no data last
      return (va < vb ? -1 : va > vb ? 1 : 0) * state.sortDir || a.m.key.localeCompare(b.m.key);
    });
    const sig = rows.map((r) => r.m.key).join('\n');
    if (sig === state.order && !force) return;
    // keep a text selection intact: reorder later
    if (!force && String(window.getSelection()) && tableEl.contains(window.getSelection().anchorNode)) return;
    state.order = sig;
    const frag = document.createDocumentFragment();
    for (const r of rows) frag.append(r.tr);
    tbody.append(frag);
  }

  function filter() {
    const ns = nsSelect.value;
    const st = statusSelect.value;
    const q = text.value.trim().toLowerCase();
    let shown = 0;
    for (const r of state.rows.values()) {
      const m = r.m;
      const ok = (!ns || m.ns === ns)
        && (!st || (st === 'problem' ? m.rank >= 3 : m.status === st))
        && (!q || m.key.toLowerCase().includes(q) || m.pools.some((p) => p.toLowerCase().includes(q)));
      if (r.tr.hidden === ok) r.tr.hidden = !ok;
      if (ok) shown++;
    }
    setText(count, `${shown} of ${state.rows.size} templates`);
  }

  async function loadSide() {
    const [slos, findings, alerts] = await Promise.allSettled([
      api('/api/v1/slos'), api('/api/v1/findings?state=open'), api('/api/v1/alerts?state=firing')]);
    if (slos.status === 'fulfilled') {
      state.slos = new Map();
      for (const s of slos.value.items) {
        const sel = s.selector || {};
        if (!sel.namespace || !sel.sandboxTemplate) continue;
        const k = sel.namespace + '/' + sel.sandboxTemplate;
        if (!state.slos.has(k)) state.slos.set(k, []);
        state.slos.get(k).push(s);
      }
    }
    if (findings.status === 'fulfilled') {
      state.findings = new Map();
      const poolToTemplate = new Map();
      for (const it of state.items) for (const p of it.pools || []) poolToTemplate.set(it.namespace + '/' + p, it.namespace + '/' + it.name);
      for (const f of findings.value.items) {
        const ref = (f.subject.split(' ')[1] || '');
        const k = poolToTemplate.get(ref) || ref;
        state.findings.set(k, (state.findings.get(k) || 0) + 1);
      }
    }
    if (alerts.status === 'fulfilled') {
      state.alerts = new Map();
      for (const a of alerts.value.items) {
        const l = a.labels || {};
        const ns = l.namespace || l.exported_namespace;
        if (ns && l.sandbox_template) {
          const k = ns + '/' + l.sandbox_template;
          state.alerts.set(k, (state.alerts.get(k) || 0) + 1);
        }
      }
    }
    if (app.snapshot) update(app.snapshot);
  }
  app.every(5000, loadSide);
  if (query.get('namespace')) {
    nsSelect.append(h('option', { value: query.get('namespace') }, query.get('namespace')));
    nsSelect.value = query.get('namespace');
  }
  for (const th of head.children) th.setAttribute('aria-sort', th.dataset.col === state.sortKey ? (state.sortDir > 0 ? 'ascending' : 'descending') : 'none');
  return { update };
}
