// Template: live SLIs, charts over 1h/6h/24h/7d with SLO targets and annotations, budget
// burn-down per SLO, controller view, pools, findings, alerts, capacity what-if.
import { h, clear, pct, secs, isNum, setText, NO_DATA, time, table, badge } from '../util.js';
import { api, auth } from '../api.js';
import { chart } from '../charts.js';
import { RANGES, rangeBar, tile, history, findingRow, incidentRows, incidents, budgetChart, tiersTable } from './common.js';
import { whatifForm, resultTable } from '../whatif.js';

export function render(root, [ns, name], query, app) {
  const key = ns + '/' + name;
  document.title = key + ' · Sandbox SLO Console';
  const range = RANGES[query.get('range')] ? query.get('range') : '1h';
  const base = `/templates/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`;
  const tiles = h('div', { class: 'tiles', id: 'template-tiles' });
  const charts = h('div', { class: 'charts', id: 'template-charts' }, h('p', { class: 'muted' }, 'Loading history…'));
  const sloBox = h('div', { id: 'template-slos' }, h('p', { class: 'muted' }, 'Loading SLOs…'));
  const ctrlBox = h('div', { id: 'controller-view' });
  const poolsBox = h('div', { id: 'template-pools' });
  const findingsBox = h('ul', { class: 'findings plain', id: 'template-findings' });
  const alertsBox = h('div', { id: 'template-alerts' });
  const whatifBox = h('div', { id: 'template-whatif' }, h('p', { class: 'muted' }, 'Waiting for the template…'));
  const sub = h('p', { class: 'muted', id: 'template-sub' });
  root.append(
    h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '/', 'data-nav': '' }, 'Fleet'), ' › ', 'SandboxTemplate ', key),
    h('div', { class: 'page-head' }, h('h1', { id: 'subject' }, key), rangeBar(range, base)),
    sub, tiles,
    h('section', null, h('h2', null, 'Alerts'), alertsBox),
    h('section', null, h('h2', null, 'Findings'), findingsBox),
    h('section', null, h('h2', null, 'SLIs over the last ', range), charts),
    h('section', null, h('h2', null, 'Error budget per SLO'), sloBox),
    h('section', null, h('h2', null, 'Controller view'), ctrlBox),
    h('section', null, h('h2', null, 'Capacity what-if'), whatifBox),
    h('section', null, h('h2', null, 'Pools'), poolsBox));

  const tileEls = {};
  function mkTiles() {
    const defs = [
      ['warm5m', 'Warm-hit'], ['warm1h', 'Warm-hit'], ['eligible', 'Warm-hit eligible (SLO)'], ['c2rWarm', 'Claim→Ready p95 warm'],
      ['c2rCold', 'Claim→Ready p95 cold'], ['readyUp', 'Pool ready (upstream)'], ['readyCur', 'Pool ready (current template)'],
      ['stale', 'Stale members'], ['coldStart', 'Cold start p95'], ['resume', 'Resume errors'],
    ];
    for (const [k, label] of defs) {
      const v = h('div', { class: 'tile-value', 'data-kpi': k }, NO_DATA);
      const l = h('div', { class: 'tile-label' }, label);
      tileEls[k] = { v, l, el: h('div', { class: 'tile' }, l, v) };
      tiles.append(tileEls[k].el);
    }
  }
  mkTiles();
  let slos = [];
  let item = null;
  let lastHist = null;
  let lastRange = null;

  function set(k, text, cls, label) {
    setText(tileEls[k].v, text, 'tile-value ' + (cls || ''));
    if (label) setText(tileEls[k].l, label);
  }

  function update(snap) {
    item = (snap.items || []).find((i) => i.namespace === ns && i.name === name) || item;
    if (!item) { setText(sub, 'No SandboxTemplate ' + key + ' is known to the console.'); return; }
    const wk = Object.keys(item.windows);
    const w0 = item.windows[wk[0]];
    const w1 = item.windows[wk[1]] || w0;
    const p = item.pool;
    setText(sub, `${item.exists ? '' : 'Template object not seen (referenced by a pool). '}${(item.pools || []).length} pool(s), ${p.replicas} replicas, ${p.members} members · launches ${wk[0]}: ${w0.warmLaunches} warm, ${w0.coldLaunches} cold`);
    set('warm5m', pct(w0.warmHitRatio), isNum(w0.warmHitRatio) && w0.warmHitRatio < 0.95 ? 'bad' : '', 'Warm-hit ' + wk[0]);
    set('warm1h', pct(w1.warmHitRatio), isNum(w1.warmHitRatio) && w1.warmHitRatio < 0.95 ? 'bad' : '', 'Warm-hit ' + (wk[1] || wk[0]));
    const c = w0.claimToReadySeconds;
    set('c2rWarm', secs(c.warm && c.warm.p95), '', 'Claim→Ready p95 warm (' + wk[0] + ')');
    set('c2rCold', secs(c.cold && c.cold.p95), '', 'Claim→Ready p95 cold (' + wk[0] + ')');
    set('readyUp', pct(p.readyFraction), '');
    set('readyCur', pct(p.readyFractionCurrentTemplate), isNum(p.readyFractionCurrentTemplate) && p.readyFractionCurrentTemplate < 0.2 ? 'bad' : '');
    set('stale', `${p.staleMembers} of ${p.members}`, p.staleMembers > 0 ? 'warn' : '');
    set('coldStart', secs(w0.coldStartSeconds && w0.coldStartSeconds.p95), '', 'Cold start p95 (' + wk[0] + ')');
    set('resume', w0.resume.attempts ? `${w0.resume.errors} of ${w0.resume.attempts} (${pct(w0.resume.errorRatio)})` : NO_DATA, w0.resume.errors ? 'bad' : '', 'Resume errors (' + wk[0] + ')');
    const wh = slos.find((s) => s.sli === 'warm_hit_ratio');
    set('eligible', wh ? pct(wh.sliNow) : NO_DATA, '', 'Warm-hit eligible (SLO ' + (wh ? wh.id : 'none') + ')');
  }

  async function loadSlos() {
    const all = (await api('/api/v1/slos')).items;
    slos = all.filter((s) => s.selector && s.selector.namespace === ns && s.selector.sandboxTemplate === name);
    if (app.snapshot) update(app.snapshot);
    clear(sloBox);
    if (!slos.length) { sloBox.append(h('p', { class: 'muted' }, 'No SLO selects this template.')); return; }
    for (const s of slos) {
      const sec = h('div', { class: 'slo-block', 'data-slo': s.id },
        h('h3', null, h('a', { href: '/slos/' + encodeURIComponent(s.id), 'data-nav': '' }, s.id), ' ', badge(s.status, 'status-' + s.status.replace(' ', '-')),
          h('span', { class: 'muted' }, ` ${s.sli}, objective ${s.objective} % over ${s.period}, budget left ${pct(s.budgetRemaining)}`)));
      const plot = h('div', { class: 'budget-plot' }, h('p', { class: 'muted' }, 'Loading burn-down…'));
      sec.append(h('div', { class: 'two' }, plot, tiersTable(s.tiers)));
      sloBox.append(sec);
      api('/api/v1/slos/' + encodeURIComponent(s.id) + '/budget').then((b) => { clear(plot).append(budgetChart(b, 560)); })
        .catch((e) => { clear(plot).append(h('p', { class: 'muted' }, 'burn-down unavailable: ' + e.message)); });
    }
  }

  async function loadCharts() {
    const to = Date.now();
    const from = to - RANGES[range];
    const [hist, incs, finds, plans] = await Promise.all([
      history('templates', ns, name, ['warm_hit_ratio', 'claim_to_ready_p50_seconds', 'claim_to_ready_p95_seconds', 'claim_to_ready_p99_seconds',
        'claim_to_ready_warm_p95_seconds', 'claim_to_ready_cold_p95_seconds', 'pool_ready_fraction', 'pool_ready_fraction_current_template',
        'cold_start_p95_seconds', 'resume_error_ratio'], from, to).catch((e) => ({ error: e.message })),
      incidents({ namespace: ns, template: name }).catch(() => []),
      api('/api/v1/findings?state=all').then((r) => r.items).catch(() => []),
      auth.me ? api('/api/v1/plans').then((r) => r.items).catch(() => []) : Promise.resolve([]),
    ]);
    const pools = (item && item.pools) || [];
    const mine = (subject) => subject.endsWith(' ' + key) || pools.some((p) => subject.endsWith(' ' + ns + '/' + p) || subject === ns + '/' + p);
    const myFindings = finds.filter((f) => mine(f.subject));
    const myPlans = plans.filter((p) => mine(' ' + p.subject));
    clear(findingsBox).append(...(myFindings.length ? myFindings.map(findingRow) : [h('li', { class: 'muted' }, 'No findings for this template or its pools.')]));
    clear(alertsBox).append(incidentRows(incs));
    const ann = [
      ...incs.map((a) => ({ at: a.startsAt, end: a.endsAt, kind: 'alert', label: a.alertname + ' (' + a.status + ')', href: '/incidents' })),
      ...myFindings.map((f) => ({ at: f.openedAt, kind: 'finding', label: f.kind, href: '/findings/' + f.id })),
      ...myPlans.map((p) => ({ at: p.createdAt, kind: 'plan', label: p.action + ' ' + p.state, href: '/plans/' + p.id })),
    ].filter((a) => a.at && Date.parse(a.at) <= to && (!a.end || Date.parse(a.end) >= from) && (a.end !== undefined || Date.parse(a.at) >= from));
    lastHist = hist.error ? null : hist;
    lastRange = { from, to };
    clear(charts);
    if (hist.error) { charts.append(h('p', { class: 'muted' }, 'History unavailable: ' + hist.error)); return; }
    const target = (sli, f) => { const s = slos.find((x) => x.sli === sli); return s ? f(s) : null; };
    const ser = (label, sli) => ({ label, points: hist[sli] || [] });
    const w = Math.floor((charts.clientWidth || 1300) / 2) - 24;
    charts.append(
      chart({ id: 'warm-hit', title: 'Warm-hit ratio', unit: 'ratio', unitLabel: 'warm ÷ all claims', from, to, width: w, series: [ser('warm-hit (all claims)', 'warm_hit_ratio')],
        targets: [{ value: target('warm_hit_ratio', (s) => s.objective / 100), label: 'SLO ' + (target('warm_hit_ratio', (s) => s.objective) ?? '') + ' %' }], annotations: ann }),
      chart({ id: 'claim-to-ready', title: 'Claim-to-ready latency', unit: 'seconds', unitLabel: 'seconds', from, to, width: w,
        series: [ser('p50', 'claim_to_ready_p50_seconds'), ser('p95', 'claim_to_ready_p95_seconds'), ser('p99', 'claim_to_ready_p99_seconds'), ser('warm p95', 'claim_to_ready_warm_p95_seconds'), ser('cold p95', 'claim_to_ready_cold_p95_seconds')],
        targets: [{ value: target('claim_to_ready_latency', (s) => parseDuration(s.latencyThreshold)), label: 'SLO threshold ' + (target('claim_to_ready_latency', (s) => s.latencyThreshold) ?? '') }], annotations: ann }),
      chart({ id: 'pool-ready', title: 'Pool ready fraction', unit: 'ratio', unitLabel: 'Ready ÷ spec.replicas', from, to, width: w,
        series: [ser('upstream (status.readyReplicas)', 'pool_ready_fraction'), ser('current template', 'pool_ready_fraction_current_template')],
        targets: [{ value: target('pool_ready_fraction', (s) => s.readyFloor), label: 'SLO floor ' + pct(target('pool_ready_fraction', (s) => s.readyFloor), 0) }], annotations: ann }),
      chart({ id: 'cold-start', title: 'Cold start (refill) p95', unit: 'seconds', unitLabel: 'member created → Ready', from, to, width: w, series: [ser('cold start p95', 'cold_start_p95_seconds')], annotations: ann }),
      chart({ id: 'resume-errors', title: 'Resume error ratio', unit: 'ratio', unitLabel: 'failed ÷ ended resumes', from, to, width: w, series: [ser('resume errors', 'resume_error_ratio')],
        targets: [{ value: target('resume_success_ratio', (s) => 1 - s.objective / 100), label: 'error budget ' + (target('resume_success_ratio', (s) => (100 - s.objective).toFixed(1)) ?? '') + ' %' }], annotations: ann }));
  }

  // the what-if form, filled once from the template's first window and pools; the result goes
  // beside the observed curves, with the simulated values drawn on them as lines
  let whatifShown = false;
  function showWhatif(full) {
    if (whatifShown) return;
    whatifShown = true;
    const wk = Object.keys(full.windows || {});
    const w0 = wk.length ? full.windows[wk[0]] : null;
    const windowSeconds = wk.length ? parseDuration(wk[0]) : null;
    const pools = Math.max(1, (full.pools || []).length);
    const cs = w0 && w0.coldStartSeconds;
    const defaults = {
      claimsPerSecond: w0 && windowSeconds ? (w0.warmLaunches + w0.coldLaunches) / windowSeconds : null,
      pools,
      replicas: full.pool ? Math.ceil(full.pool.replicas / pools) : null,
      coldStartP50: cs && isNum(cs.p50) ? Math.max(1, cs.p50) : null,
      coldStartP95: cs && isNum(cs.p95) ? Math.max(1, cs.p95) : null,
    };
    const out = h('div', { id: 'whatif-out', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Simulate a demand curve against today\'s configuration and a proposal; the result appears here beside the observed curves.'));
    clear(whatifBox).append(
      h('p', { class: 'muted' }, 'Today\'s values come from the last ' + (wk[0] || 'window') + ': claims/s = launches ÷ window, cold start = member created → Ready (refill), at least 1 s.'),
      whatifForm(defaults, (res) => showResult(out, res)), out);
  }

  function showResult(out, res) {
    const p95 = (r) => r.claimToReadySeconds && r.claimToReadySeconds.p95;
    const curves = h('div', { class: 'whatif-curves' });
    if (lastHist && lastRange) {
      const w = Math.floor((whatifBox.clientWidth || 1300) / 2) - 24;
      curves.append(
        chart({ id: 'whatif-warm-hit', title: 'Warm-hit ratio: observed, and simulated (lines)', unit: 'ratio', unitLabel: 'warm ÷ all claims', from: lastRange.from, to: lastRange.to, width: w,
          series: [{ label: 'observed', points: lastHist.warm_hit_ratio || [] }],
          targets: [{ value: res.current.warmHitRatio, label: 'simulated today ' + pct(res.current.warmHitRatio) }, { value: res.proposed.warmHitRatio, label: 'simulated proposed ' + pct(res.proposed.warmHitRatio) }] }),
        chart({ id: 'whatif-claim-to-ready', title: 'Claim-to-ready p95: observed, and simulated (lines)', unit: 'seconds', unitLabel: 'seconds', from: lastRange.from, to: lastRange.to, width: w,
          series: [{ label: 'observed p95', points: lastHist.claim_to_ready_p95_seconds || [] }],
          targets: [{ value: p95(res.current), label: 'simulated today ' + secs(p95(res.current)) }, { value: p95(res.proposed), label: 'simulated proposed ' + secs(p95(res.proposed)) }] }));
    } else {
      curves.append(h('p', { class: 'muted' }, 'The observed curves are unavailable (no history).'));
    }
    clear(out).append(h('div', { class: 'two' }, curves, resultTable(res)));
  }

  async function loadItem() {
    const full = await api('/api/v1/templates/' + encodeURIComponent(ns) + '/' + encodeURIComponent(name));
    item = full;
    showWhatif(full);
    clear(poolsBox).append(table([
      { key: 'pool', label: 'SandboxWarmPool', render: (p) => h('a', { href: `/pools/${ns}/${p}`, 'data-nav': '' }, ns + '/' + p) },
    ], full.pools || [], { empty: 'No pool references this template.' }));
    clear(ctrlBox);
    const cv = full.controllerView;
    if (!cv) { ctrlBox.append(h('p', { class: 'muted' }, 'The controller view is off (sloconsole.controller-view.url is not set).')); return; }
    const wk = Object.keys(full.windows);
    const console_ = full.windows[cv.window] || full.windows[wk[wk.length - 1]];
    const dis = full.disagreement || [];
    ctrlBox.append(
      dis.length ? h('p', { class: 'banner warn', role: 'status' }, 'The controller disagrees with the console: ', dis.map((d) => `${d.sli} console ${pct(d.console)} vs controller ${pct(d.controller)} (tolerance ${pct(d.tolerance)})`).join('; ')) : h('p', { class: 'muted' }, 'Console and controller agree within tolerance.'),
      table([
        { key: 'what', label: 'Over ' + cv.window, render: (r) => r[0] },
        { key: 'console', label: 'Console (informers)', cls: 'num', render: (r) => r[1] },
        { key: 'controller', label: 'Controller (/metrics)', cls: 'num', render: (r) => r[2] },
      ], [
        ['warm-hit ratio', pct(console_ && console_.warmHitRatio), pct(cv.warmHitRatio)],
        ['claim-to-ready p95', secs(console_ && console_.claimToReadySeconds.all && console_.claimToReadySeconds.all.p95), secs(cv.p95Seconds)],
        ['warm / cold launches', console_ ? `${console_.warmLaunches} / ${console_.coldLaunches}` : NO_DATA, `${cv.warmLaunches ?? NO_DATA} / ${cv.coldLaunches ?? NO_DATA}`],
      ], { cls: 'compact' }),
      cv.partial ? h('p', { class: 'muted' }, `Controller data partial: ${cv.restarts} restart(s), ${cv.scrapes} scrapes${cv.lastError ? ', last error ' + cv.lastError : ''}.`) : '');
  }

  loadItem().catch((e) => {
    clear(poolsBox).append(h('p', { class: 'error' }, e.status === 404 ? 'No SandboxTemplate ' + key + ' is known.' : 'Template unavailable: ' + e.message));
  });
  loadSlos().catch((e) => { clear(sloBox).append(h('p', { class: 'muted' }, 'SLOs unavailable: ' + e.message)); }).finally(() => loadCharts().catch((e) => console.warn(e)));
  const timer = setInterval(() => { loadSlos().catch(() => {}); loadItem().catch(() => {}); }, 15000);
  const chartTimer = setInterval(() => loadCharts().catch(() => {}), 60000);
  app.onAuth.push(() => loadCharts().catch(() => {}));
  return { update, dispose() { clearInterval(timer); clearInterval(chartTimer); } };
}

export function parseDuration(s) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(s || '');
  if (!m) return null;
  return +m[1] * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[m[2]];
}
