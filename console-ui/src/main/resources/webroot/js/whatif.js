// Capacity what-if (POST /api/v1/whatif): the form of the template page, the request a
// PoolUndersized / PoolNeedsSharding finding's advice makes, and the result table (today's
// configuration, the proposed one and the difference, both simulated on the same demand).
import { h, clear, pct, secs, isNum, NO_DATA, table } from './util.js';
import { api } from './api.js';

/** Largest demand a request may simulate (the server's limit is 3,000,000 claims). */
const MAX_CLAIMS = 2_500_000;

/** Seconds of demand to simulate at `rate` claims/s: `wanted`, shortened to stay under the limit. */
export function horizonSeconds(rate, wanted) {
  return Math.max(1, Math.min(wanted, Math.floor(MAX_CLAIMS / Math.max(rate, 1e-9))));
}

/**
 * The what-if a sizing finding's advice makes, or null when the finding lacks the numbers:
 * a steady demand at the observed claims/s for 15 min (shorter at very high rates), today's pools
 * (Σ spec.replicas spread evenly) against the advised pools, replicas and refill rate, both with
 * the observed refill p50/p95 as the cold start.
 */
export function sizingRequest(f) {
  const ev = Object.fromEntries((f.evidence || []).map((e) => [e.name, e.value]));
  const n = (k) => (ev[k] === undefined ? NaN : Number(ev[k]));
  const rate = n('claimsPerSecond');
  const pools = n('pools');
  const replicas = n('replicas');
  const p95 = n('refillP95Seconds');
  const p50 = Math.min(isNum(n('refillP50Seconds')) ? n('refillP50Seconds') : p95, p95);
  const adv = { pools: n('advisedPools'), replicas: n('advisedReplicasPerPool'), refill: n('advisedRefillRatePerPool') };
  if (![rate, pools, replicas, p95, p50, adv.pools, adv.replicas, adv.refill].every(isNum) || rate <= 0 || pools < 1) return null;
  return {
    seed: 1,
    demand: { shape: 'steady', claimsPerSecond: rate, duration: horizonSeconds(rate, 900) },
    current: { pools, replicas: Math.max(1, Math.ceil(replicas / pools)), coldStartP50: p50, coldStartP95: p95 },
    proposed: { pools: adv.pools, replicas: adv.replicas, refillRatePerPool: adv.refill },
  };
}

/** Runs a what-if; rejects with the API error (its body names the field). */
export function simulate(request) {
  return api('/api/v1/whatif', { method: 'POST', body: request });
}

/** Today's vs the proposed configuration, simulated, with the difference. */
export function resultTable(res) {
  const c = res.current;
  const p = res.proposed;
  const q = (r, k) => r.claimToReadySeconds && r.claimToReadySeconds[k];
  const cfg = (r) => `${r.config.pools} × ${r.config.replicas}` + (r.config.refillRatePerPool > 0 ? `, refill ≤ ${r.config.refillRatePerPool}/s` : ', refill unpaced');
  const signed = (v, f) => (isNum(v) ? (v > 0 ? '+' : '') + f(v) : NO_DATA);
  const rows = [
    ['pools × replicas', cfg(c), cfg(p), signed(res.delta.replicas, String) + ' replicas'],
    ['warm-hit ratio', pct(c.warmHitRatio), pct(p.warmHitRatio), signed(res.delta.warmHitRatio, (v) => (v * 100).toFixed(1) + ' pt')],
    ['claim-to-ready p50', secs(q(c, 'p50')), secs(q(p, 'p50')), ''],
    ['claim-to-ready p95', secs(q(c, 'p95')), secs(q(p, 'p95')), signed(res.delta.claimToReadyP95Seconds, secs)],
    ['claim-to-ready p99', secs(q(c, 'p99')), secs(q(p, 'p99')), ''],
    ['minimum ready fraction', pct(c.minReadyFraction), pct(p.minReadyFraction), signed(res.delta.minReadyFraction, (v) => (v * 100).toFixed(1) + ' pt')],
    ['members created', String(c.membersCreated), String(p.membersCreated), ''],
    ['idle cost (core-hours)', c.idleCpuCoreHours.toFixed(2), p.idleCpuCoreHours.toFixed(2), signed(res.delta.idleCpuCoreHours, (v) => v.toFixed(2))],
  ];
  return h('div', { class: 'whatif-result', 'data-whatif': 'result' },
    table([
      { key: 'what', label: 'Simulated', render: (r) => r[0] },
      { key: 'current', label: 'Today', cls: 'num', render: (r) => r[1] },
      { key: 'proposed', label: 'Proposed', cls: 'num', render: (r) => r[2] },
      { key: 'delta', label: 'Difference', cls: 'num', render: (r) => r[3] },
    ], rows, { cls: 'compact' }),
    h('p', { class: 'muted' }, `${res.claims} claims over ${secs(res.durationSeconds)}, seed ${res.seed}; a model of upstream's warm-pool controller (round-robin pools, refill by pacing and max batch, cold start log-normal from p50/p95), not a replay.`));
}

/**
 * The template page's form. `defaults` {claimsPerSecond, pools, replicas, coldStartP50, coldStartP95}
 * (seconds) fill today's configuration; `onResult(res, request)` gets each answer.
 */
export function whatifForm(defaults, onResult) {
  const id = (k) => 'whatif-' + k;
  const num = (k, label, value, attrs = {}) => h('div', { class: 'field' }, h('label', { for: id(k) }, label),
    h('input', { id: id(k), name: k, type: 'number', step: 'any', min: 0, value: isNum(value) ? String(value) : '', ...attrs }));
  const shape = h('select', { id: id('shape'), name: 'shape' }, ['steady', 'diurnal', 'bursts'].map((s) => h('option', { value: s }, s)));
  const error = h('p', { class: 'error', role: 'alert', id: id('error') });
  const rate = isNum(defaults.claimsPerSecond) && defaults.claimsPerSecond > 0 ? +defaults.claimsPerSecond.toFixed(2) : 1;
  const form = h('form', { id: 'whatif-form', novalidate: true },
    h('fieldset', null, h('legend', null, 'Demand'),
      h('div', { class: 'field' }, h('label', { for: id('shape') }, 'Shape'), shape),
      num('rate', 'Claims/s (steady, peak of diurnal, base of bursts)', rate),
      num('trough', 'Trough claims/s (diurnal)', 0),
      num('burst', 'Burst size (claims)', Math.max(1, Math.round(rate * 30)), { step: 1 }),
      num('every', 'Burst every (s)', 300),
      num('minutes', 'Duration (min)', 60)),
    h('fieldset', null, h('legend', null, 'Today'),
      num('curPools', 'Pools', defaults.pools, { step: 1, min: 1 }),
      num('curReplicas', 'Replicas per pool', defaults.replicas, { step: 1, min: 0 }),
      num('p50', 'Cold start p50 (s)', defaults.coldStartP50),
      num('p95', 'Cold start p95 (s)', defaults.coldStartP95)),
    h('fieldset', null, h('legend', null, 'Proposed'),
      num('pools', 'Pools', defaults.pools, { step: 1, min: 1 }),
      num('replicas', 'Replicas per pool', defaults.replicas, { step: 1, min: 0 }),
      num('refill', 'Refill rate per pool (/s, 0 = unpaced)', 0),
      num('maxBatch', 'Max batch', 300, { step: 1, min: 1 })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: id('run') }, 'Simulate')), error);
  const v = (k) => form.elements[k].value;
  const f = (k) => (v(k).trim() === '' ? undefined : Number(v(k))); // undefined: the server names the missing field
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    const minutes = f('minutes');
    const demand = { shape: v('shape'), duration: Math.round(minutes * 60) };
    if (demand.shape === 'steady') demand.claimsPerSecond = f('rate');
    if (demand.shape === 'diurnal') Object.assign(demand, { troughClaimsPerSecond: f('trough'), peakClaimsPerSecond: f('rate'), period: demand.duration });
    if (demand.shape === 'bursts') Object.assign(demand, { baseClaimsPerSecond: f('rate'), burstSize: f('burst'), every: f('every') });
    const request = {
      seed: 1,
      demand,
      current: { pools: f('curPools'), replicas: f('curReplicas'), coldStartP50: f('p50'), coldStartP95: f('p95') },
      proposed: { pools: f('pools'), replicas: f('replicas'), refillRatePerPool: f('refill'), maxBatch: f('maxBatch') },
    };
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      onResult(await simulate(request), request);
    } catch (e) {
      error.textContent = (e.body && e.body.field ? e.body.field + ': ' : '') + e.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

/** A section body that runs a finding's advice through the simulator, or says why it cannot. */
export function adviceEffect(f) {
  const box = h('div', { id: 'advice-effect' });
  const req = sizingRequest(f);
  if (!req) {
    box.append(h('p', { class: 'muted' }, 'This finding lacks the numbers to simulate its advice.'));
    return box;
  }
  box.append(h('p', { class: 'muted' }, 'Simulating the advice…'));
  simulate(req)
    .then((res) => clear(box).append(
      h('p', null, `Steady ${req.demand.claimsPerSecond} claims/s for ${secs(req.demand.duration)}, cold start p50 ${secs(req.current.coldStartP50)} / p95 ${secs(req.current.coldStartP95)}: today's ${req.current.pools} pool(s) of ${req.current.replicas} against the advised ${req.proposed.pools} of ${req.proposed.replicas}.`),
      resultTable(res)))
    .catch((e) => clear(box).append(h('p', { class: 'error' }, 'Simulation unavailable: ' + e.message)));
  return box;
}
