// Incidents: alerts received from Alertmanager, joined to template, findings and SLO; persisted.
// Below them: truncated notification groups, and the Alertmanager silences (list, create, expire).
import { h, clear, table, time } from '../util.js';
import { api, auth, has } from '../api.js';
import { incidents, incidentRows } from './common.js';

export function render(root, params, query, app) {
  document.title = 'Incidents · Sandbox SLO Console';
  const state = query.get('state') || 'all';
  const tabs = h('nav', { class: 'ranges', 'aria-label': 'Alert state' }, ['all', 'firing', 'resolved'].map((s) =>
    h('a', { href: '/incidents?state=' + s, 'data-nav': '', 'aria-current': s === state ? 'true' : null }, s)));
  const box = h('div', { id: 'incidents' }, h('p', { class: 'muted' }, 'Loading…'));
  const groups = h('div', { id: 'alert-groups' });
  const silences = h('div', { id: 'silences' });
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Incidents'), tabs),
    h('p', { class: 'muted' }, 'Alerts sent to this console by Alertmanager (webhook /hooks/alertmanager), one row per firing episode, kept across restarts.'), box,
    groups, h('h2', null, 'Silences'), silenceForm(() => loadSilences()), silences);
  async function load() {
    const p = { state };
    if (query.get('namespace')) p.namespace = query.get('namespace');
    if (query.get('template')) p.template = query.get('template');
    const items = await incidents(p);
    items.sort((a, b) => (a.status === 'firing' ? 0 : 1) - (b.status === 'firing' ? 0 : 1) || Date.parse(b.startsAt) - Date.parse(a.startsAt));
    clear(box).append(incidentRows(items));
    const g = (await api('/api/v1/alert-groups?incomplete=true')).items;
    clear(groups).append(...(g.length ? [h('p', { class: 'banner warn' }, g.map((x) =>
      `Group ${Object.entries(x.groupLabels).map(([k, v]) => k + '=' + v).join(', ')} is incomplete: Alertmanager left out ${x.truncatedAlerts} alert(s) (max_alerts); `
      + (x.reread && x.reread.at ? `re-read ${x.reread.alerts} from Alertmanager.` : x.reread && x.reread.error ? 'not re-read: ' + x.reread.error : 'not re-read (no sloconsole.alertmanager.url).')).join(' '))] : []));
  }
  async function loadSilences() {
    if (!auth.token) { clear(silences).append(h('p', { class: 'muted' }, 'Sign in to see and manage silences.')); return; }
    try {
      const items = (await api('/api/v1/silences')).items;
      clear(silences).append(table([
        { key: 'matchers', label: 'Matchers', render: (s) => h('code', null, s.matchers.join(', ')) },
        { key: 'state', label: 'State', render: (s) => s.state },
        { key: 'ends', label: 'Ends', render: (s) => time(s.endsAt) },
        { key: 'by', label: 'By', render: (s) => s.createdBy },
        { key: 'why', label: 'Reason', render: (s) => s.plan ? h('span', null, h('a', { href: '/plans/' + s.plan, 'data-nav': '' }, s.plan), ' ', s.comment.slice(s.comment.indexOf(':') + 1)) : s.comment },
        { key: 'act', label: '', render: (s) => expireButton(s, loadSilences) },
      ], items, { empty: 'No active or pending silences.', caption: 'Active and pending silences in Alertmanager' }));
    } catch (e) {
      clear(silences).append(h('p', { class: e.status === 503 ? 'muted' : 'error' }, 'Silences unavailable: ' + e.message));
    }
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Incidents unavailable: ' + e.message))));
  app.every(10000, () => loadSilences());
}

function pinnedNamespace(matchers) {
  for (const m of matchers) {
    const r = /^namespace="(.*)"$/.exec(m);
    if (r) return r[1];
  }
  return null;
}

function expireButton(s, reload) {
  const ns = pinnedNamespace(s.matchers);
  const ok = has('operator', ns);
  const b = h('button', { type: 'button', disabled: ok ? null : '', title: ok ? 'Expire this silence now' : `needs role operator${ns ? ' for namespace ' + ns : ''}` }, 'Expire');
  b.addEventListener('click', async () => {
    b.disabled = true;
    try { await api('/api/v1/silences/' + encodeURIComponent(s.id), { method: 'DELETE' }); } catch (e) { alert('Not expired: ' + e.message); }
    reload();
  });
  return b;
}

/** alertname and a namespace or template are required; at most sloconsole.alertmanager.max-silence. */
function silenceForm(reload) {
  const matchers = h('input', { name: 'matchers', size: 48, required: '', placeholder: 'alertname="WarmPoolDrained",namespace="demo"', 'aria-label': 'Matchers' });
  const duration = h('input', { name: 'duration', size: 6, required: '', value: '1h', 'aria-label': 'Duration' });
  const reason = h('input', { name: 'reason', size: 32, required: '', placeholder: 'why', 'aria-label': 'Reason' });
  const out = h('span', { class: 'muted', role: 'status' });
  const form = h('form', { class: 'silence-form' }, matchers, ' for ', duration, ' ', reason, ' ', h('button', { type: 'submit' }, 'Silence'), ' ', out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const s = await api('/api/v1/silences', { method: 'POST', body: { matchers: matchers.value, duration: duration.value, reason: reason.value } });
      out.textContent = 'Silence ' + s.id + ' until ' + s.endsAt;
      reload();
    } catch (e) {
      out.textContent = 'Refused: ' + e.message;
    }
  });
  return form;
}
