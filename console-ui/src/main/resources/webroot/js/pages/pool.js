// Pool: members with state, age and generation (stale fields that differ), refill timeline,
// watch lag, sizing arithmetic.
import { h, clear, pct, secs, duration, NO_DATA, time, table, badge, kv, isNum } from '../util.js';
import { api } from '../api.js';
import { chart } from '../charts.js';
import { RANGES, rangeBar, tile, history, findingRow } from './common.js';

export function render(root, [ns, name], query, app) {
  const key = ns + '/' + name;
  document.title = 'Pool ' + key + ' · Sandbox SLO Console';
  const range = RANGES[query.get('range')] ? query.get('range') : '1h';
  const base = `/pools/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
  const tiles = h('div', { class: 'tiles', id: 'pool-tiles' });
  const members = h('div', { id: 'pool-members' }, h('p', { class: 'muted' }, 'Loading members…'));
  const timeline = h('div', { id: 'refill-timeline' });
  const lag = h('div', { id: 'watch-lag' });
  const sizing = h('div', { id: 'pool-sizing' });
  const findingsBox = h('ul', { class: 'findings plain', id: 'pool-findings' });
  const charts = h('div', { class: 'charts' });
  const sub = h('p', { class: 'muted', id: 'pool-sub' });
  root.append(
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '/', 'data-nav': '' }, 'Fleet'), ' › ', h('span', { id: 'pool-template-crumb' }), 'SandboxWarmPool ', key),
    h('div', { class: 'page-head' }, h('h1', { id: 'subject' }, key), rangeBar(range, base)),
    sub, tiles,
    h('section', null, h('h2', null, 'Findings'), findingsBox),
    h('section', null, h('h2', null, 'Members'), members),
    h('div', { class: 'two' },
      h('section', null, h('h2', null, 'Refill timeline'), timeline),
      h('section', null, h('h2', null, 'Sizing'), sizing, h('h2', null, 'Watch lag'), lag)),
    h('section', null, h('h2', null, 'Ready over the last ', range), charts));

  async function load() {
    const [m, status, finds] = await Promise.all([
      api(`/api/v1/pools/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/members`),
      api('/api/v1/status').catch(() => null),
      api('/api/v1/findings?state=all&subject=' + encodeURIComponent(key)).then((r) => r.items).catch(() => []),
    ]);
    const crumb = document.getElementById('pool-template-crumb');
    clear(crumb).append(h('a', { href: `/templates/${ns}/${m.template}`, 'data-nav': '' }, 'SandboxTemplate ' + ns + '/' + m.template), ' › ');
    sub.textContent = `template ${m.template}${m.templateKnown ? ' (generation ' + m.templateGeneration + ', ' + m.templateImages.join(', ') + ')' : ' (not seen)'} · spec.replicas ${m.replicas} · updateStrategy ${m.updateStrategy}`;
    const c = m.counts;
    clear(tiles).append(
      tile('Ready (current template)', `${c.ready} of ${m.replicas}`, m.replicas && c.ready / m.replicas < 0.2 ? 'bad' : '', null, 'kpi-ready'),
      tile('Pending', String(c.pending), c.pending ? 'warn' : '', null, 'kpi-pending'),
      tile('Stale', String(c.stale), c.stale ? 'warn' : '', null, 'kpi-stale'),
      tile('Unschedulable', String(c.unschedulable), c.unschedulable ? 'bad' : '', null, 'kpi-unschedulable'),
      tile('Claimed (adopted)', String(c.claimed), '', null, 'kpi-claimed'));
    clear(members).append(table([
      { key: 'name', label: 'Sandbox', render: (x) => h('code', null, x.name) },
      { key: 'state', label: 'State', render: (x) => [badge(x.state, 'member-' + x.state), x.reason && x.state !== 'ready' ? h('span', { class: 'muted' }, ' ' + x.reason) : null] },
      { key: 'age', label: 'Age', cls: 'num', render: (x) => h('span', { title: x.createdAt || '' }, isNum(x.ageSeconds) ? duration(x.ageSeconds) : NO_DATA) },
      { key: 'generation', label: 'Template generation', cls: 'num', render: (x) => x.templateGeneration !== null ? String(x.templateGeneration) : x.olderThanGeneration !== null ? '< ' + x.olderThanGeneration : NO_DATA },
      { key: 'claim', label: 'Claim', render: (x) => x.claim ? h('a', { href: `/claims?namespace=${ns}`, 'data-nav': '' }, x.claim) : '' },
      { key: 'diff', label: 'Differs from the template', render: (x) => x.differences.length ? h('ul', { class: 'plain diff' }, x.differences.map((d) => h('li', null, h('code', null, d.path), ': ', h('del', null, d.member ?? 'absent'), ' → ', h('ins', null, d.template ?? 'absent'))))
        : x.stale ? h('span', { class: 'muted' }, 'images ' + x.images.join(', ') + ' (blueprint not kept)') : '' },
    ], m.items, { cls: 'members', empty: 'The pool has no members.', rowAttrs: (x) => ({ 'data-member': x.name, 'data-state': x.state }) }));
    renderTimeline(m);
    if (m.sizing) {
      const s = m.sizing;
      clear(sizing).append(kv([
        ['claims/s (' + s.window + ')', s.claimsPerSecond.toFixed(3)],
        ['refill p95', secs(s.refillP95Seconds)],
        ['replicas needed', String(s.replicasNeeded) + (s.undersized ? ' (pool has ' + s.replicas + ': undersized)' : ' (pool has ' + s.replicas + ')')],
        ['pools', s.pools + ' × ' + s.replicasPerPool + ', refill ≥ ' + s.refillRatePerPool + '/s per pool'],
      ]), h('p', { class: 'arith' }, h('code', { id: 'sizing-arithmetic' }, s.arithmetic)));
    } else {
      clear(sizing).append(h('p', { class: 'muted', id: 'sizing-arithmetic' }, 'No sizing advice: ' + m.sizingReason + '.'));
    }
    const l = status && status.watchLagSeconds ? status.watchLagSeconds.Sandbox : null;
    clear(lag).append(kv([
      ['Sandbox watch lag, last', l ? secs(l.last) : NO_DATA],
      ['max over 5 min', l ? secs(l.max5m) : NO_DATA],
      ['informers synced', status ? Object.entries(status.synced).filter(([, v]) => v).length + ' of 4' : NO_DATA],
    ]), h('p', { class: 'muted' }, 'Lag holds refill back: the controller creates only after it has observed its earlier creates (the expectations gate).'));
    clear(findingsBox).append(...(finds.length ? finds.map(findingRow) : [h('li', { class: 'muted' }, 'No findings for this pool.')]));
    const gate = finds.find((f) => f.kind === 'RefillStalled' && f.state === 'open');
    if (gate) timeline.prepend(h('p', { class: 'banner warn' }, 'Refill gate: ', h('a', { href: '/findings/' + gate.id, 'data-nav': '' }, gate.explanation)));
  }

  function renderTimeline(m) {
    const now = Date.now();
    const items = m.items.filter((x) => x.createdAt).sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    clear(timeline);
    if (!items.length) { timeline.append(h('p', { class: 'muted' }, NO_DATA)); return; }
    const t0 = Math.min(...items.map((x) => Date.parse(x.createdAt)), now - 60e3);
    const W = 600;
    const rowH = 14;
    const shown = items.slice(-40);
    const x = (t) => 110 + ((t - t0) / (now - t0)) * (W - 120);
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${shown.length * rowH + 24}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `Refill timeline of ${shown.length} members: created (left edge) to observed Ready (right edge)`);
    svg.classList.add('timeline');
    const el = (tag, attrs, text) => { const e = document.createElementNS('http://www.w3.org/2000/svg', tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; return e; };
    shown.forEach((it, i) => {
      const y = i * rowH + 4;
      const c = Date.parse(it.createdAt);
      const r = it.readyAt ? Date.parse(it.readyAt) : now;
      svg.append(el('text', { x: 0, y: y + 10, class: 'tl-label' }, it.name.length > 18 ? '…' + it.name.slice(-17) : it.name));
      const bar = el('rect', { x: x(c), y, width: Math.max(2, x(r) - x(c)), height: rowH - 4, class: 'tl-' + (it.readyAt ? 'ready' : it.state) });
      bar.append(el('title', {}, `${it.name}: created ${it.createdAt}${it.readyAt ? ', Ready ' + it.readyAt + ' (' + secs((r - c) / 1000) + ')' : ', not Ready yet'}`));
      svg.append(bar);
    });
    svg.append(el('text', { x: 110, y: shown.length * rowH + 20, class: 'tl-axis' }, new Date(t0).toISOString().slice(11, 19) + ' UTC'),
      el('text', { x: W - 40, y: shown.length * rowH + 20, class: 'tl-axis' }, 'now'));
    timeline.append(svg, h('p', { class: 'muted' }, 'Each bar: a member from its creation (create issued) to Ready observed; open bars are still pending. ' + (items.length > 40 ? 'Newest 40 of ' + items.length + '.' : '')));
  }

  async function loadChart() {
    const to = Date.now();
    const from = to - RANGES[range];
    const hist = await history('pools', ns, name, ['pool_ready_fraction', 'pool_ready_fraction_current_template', 'stale_members', 'cold_start_p95_seconds'], from, to);
    const w = Math.floor((charts.clientWidth || 1300) / 2) - 24;
    clear(charts).append(
      chart({ id: 'pool-ready', title: 'Pool ready fraction', unit: 'ratio', from, to, width: w, series: [{ label: 'upstream', points: hist.pool_ready_fraction }, { label: 'current template', points: hist.pool_ready_fraction_current_template }] }),
      chart({ id: 'pool-cold-start', title: 'Refill (cold start) p95', unit: 'seconds', from, to, width: w, series: [{ label: 'p95', points: hist.cold_start_p95_seconds }] }));
  }

  load().catch((e) => clear(members).append(h('p', { class: 'error' }, e.status === 404 ? 'No SandboxWarmPool ' + key + ' is known.' : 'Members unavailable: ' + e.message)));
  loadChart().catch((e) => clear(charts).append(h('p', { class: 'muted' }, 'History unavailable: ' + e.message)));
  const t = setInterval(() => load().catch(() => {}), 3000);
  return { dispose() { clearInterval(t); } };
}
