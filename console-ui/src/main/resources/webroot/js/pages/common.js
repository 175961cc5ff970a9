// Pieces shared by several pages.
import { h, pct, secs, isNum, NO_DATA, badge, urgency, time, table, fmtUnit } from '../util.js';
import { api } from '../api.js';
import { chart } from '../charts.js';

export const RANGES = { '1h': 3600e3, '6h': 6 * 3600e3, '24h': 24 * 3600e3, '7d': 7 * 86400e3 };

export function rangeBar(current, base) {
  return h('nav', { class: 'ranges', 'aria-label': 'Time range' }, Object.keys(RANGES).map((r) =>
    h('a', { href: base + '?range=' + r, 'data-nav': '', 'aria-current': r === current ? 'true' : null }, r)));
}

export function tile(label, value, cls, title, id) {
  return h('div', { class: 'tile ' + (cls || ''), title: title || null, id: id || null }, h('div', { class: 'tile-label' }, label), h('div', { class: 'tile-value' }, value));
}

export async function history(kind, ns, name, slis, from, to) {
  const q = new URLSearchParams();
  for (const s of slis) q.append('sli', s);
  q.set('from', new Date(from).toISOString());
  q.set('to', new Date(to).toISOString());
  q.set('step', Math.max(10, Math.ceil((to - from) / 1000 / 400)) + 's');
  const r = await api(`/api/v1/${kind}/${encodeURIComponent(ns)}/${encodeURIComponent(name)}/history?${q}`);
  const by = {};
  for (const s of r.series) by[s.sli] = s.points;
  return by;
}

export function findingRow(f) {
  return h('li', { class: 'finding urg-' + urgency(f.severity), 'data-kind': f.kind },
    badge(f.severity, 'sev-' + urgency(f.severity)), ' ',
    h('a', { href: '/findings/' + encodeURIComponent(f.id), 'data-nav': '' }, f.kind), ' ',
    h('span', null, f.subject), ' · ', f.state === 'closed' ? ['closed ', time(f.closedAt)] : ['open since ', time(f.openedAt)]);
}

export function incidentRows(items) {
  return table([
    { key: 'status', label: 'Status', render: (a) => badge(a.status, a.status === 'firing' ? 'sev-page' : 'sev-info') },
    { key: 'alert', label: 'Alert', render: (a) => [h('strong', null, a.alertname), a.severity ? [' ', badge(a.severity, 'sev-' + urgency(a.severity))] : null, h('div', { class: 'muted' }, a.summary || '')] },
    { key: 'subject', label: 'Subject', render: (a) => subjectLinks(a) },
    { key: 'started', label: 'Started', render: (a) => time(a.startsAt) },
    { key: 'duration', label: 'Duration', cls: 'num', render: (a) => durationText(a) },
    { key: 'findings', label: 'Findings', render: (a) => (a.findings || []).length ? h('ul', { class: 'plain' }, a.findings.map((f) => h('li', null, h('a', { href: '/findings/' + f.id, 'data-nav': '' }, f.kind), ' ', badge(f.state, f.state)))) : h('span', { class: 'muted' }, 'none') },
    { key: 'slo', label: 'SLO', render: (a) => a.slo ? [h('a', { href: '/slos/' + encodeURIComponent(a.slo), 'data-nav': '' }, a.slo), a.sloStatus ? h('div', { class: 'muted' }, a.sloStatus.status + ', budget left ' + pct(a.sloStatus.budgetRemaining)) : null] : h('span', { class: 'muted' }, '—') },
  ], items, { empty: 'No alerts received from Alertmanager yet.', cls: 'incidents', rowAttrs: (a) => ({ 'data-incident': a.id, 'data-status': a.status }) });
}

function durationText(a) {
  const s = a.durationSeconds;
  const txt = isNum(s) ? (s < 60 ? s + ' s' : s < 3600 ? Math.floor(s / 60) + ' min' : (s / 3600).toFixed(1) + ' h') : NO_DATA;
  return a.status === 'firing' ? txt + ' (firing)' : txt;
}

function subjectLinks(a) {
  const out = [];
  const l = a.links || {};
  if (l.template) out.push(h('a', { href: l.template, 'data-nav': '' }, a.namespace + '/' + a.template));
  if (l.pool) out.push(' ', h('a', { href: l.pool, 'data-nav': '' }, 'pool ' + a.pool));
  if (!out.length) out.push(h('span', { class: 'muted' }, a.namespace || '—'));
  return out;
}

/** Incidents for a subject; falls back to the in-memory alerts without a store. */
export async function incidents(params) {
  try {
    return (await api('/api/v1/incidents?' + new URLSearchParams(params))).items;
  } catch (e) {
    if (e.status !== 503) throw e;
    const alerts = (await api('/api/v1/alerts')).items;
    return alerts.filter((a) => !params.template || (a.labels.sandbox_template === params.template)).map((a) => ({
      id: a.fingerprint, alertname: a.alertname, status: a.status, severity: a.labels.severity, namespace: a.labels.namespace || a.labels.exported_namespace,
      template: a.labels.sandbox_template, slo: a.labels.slo, summary: a.annotations.summary, startsAt: a.startsAt, endsAt: a.endsAt,
      durationSeconds: ((a.endsAt ? Date.parse(a.endsAt) : Date.now()) - Date.parse(a.startsAt)) / 1000 | 0, links: {}, findings: [],
    }));
  }
}

export function budgetChart(b, width) {
  const points = b.points.map((p) => ({ at: p.at, value: p.remaining }));
  return chart({
    id: 'budget-' + b.id,
    title: 'Error budget left · ' + b.id,
    unit: 'ratio',
    unitLabel: 'objective ' + b.objective + ' % over ' + b.period,
    from: Date.parse(b.from),
    to: Date.parse(b.to),
    width,
    height: 170,
    series: [{ label: 'budget left', points }],
    targets: [{ value: 0, label: 'exhausted' }],
    annotations: (b.exclusions || []).map((x) => ({ at: x.from, end: x.to, kind: 'exclusion', label: 'excluded: ' + x.reason })),
  });
}

export function tiersTable(tiers) {
  return table([
    { key: 'tier', label: 'Tier', render: (t) => t.tier },
    { key: 'sev', label: 'Severity', render: (t) => badge(t.severity, 'sev-' + urgency(t.severity)) },
    { key: 'factor', label: 'Burn-rate threshold', cls: 'num', render: (t) => '× ' + t.factor },
    { key: 'long', label: 'Long window', render: (t) => windowText(t.long) },
    { key: 'short', label: 'Short window', render: (t) => windowText(t.short) },
    { key: 'firing', label: 'State', render: (t) => t.firing ? badge('firing', 'sev-page') : t.insufficientData ? h('span', { class: 'muted' }, 'too few events') : 'ok' },
  ], tiers || [], { cls: 'tiers compact', empty: 'No burn-rate tiers.' });
}

function windowText(w) {
  if (!w) return NO_DATA;
  return `${w.window}: burn ${isNum(w.burnRate) ? '× ' + w.burnRate.toFixed(2) : NO_DATA} (${w.valid - w.good} bad of ${w.valid})`;
}

export { fmtUnit, secs };
