// Incidents: alerts received from Alertmanager, joined to template, findings and SLO; persisted.
import { h, clear } from '../util.js';
import { incidents, incidentRows } from './common.js';

export function render(root, params, query, app) {
  document.title = 'Incidents · Sandbox SLO Console';
  const state = query.get('state') || 'all';
  const tabs = h('nav', { class: 'ranges', 'aria-label': 'Alert state' }, ['all', 'firing', 'resolved'].map((s) =>
    h('a', { href: '/incidents?state=' + s, 'data-nav': '', 'aria-current': s === state ? 'true' : null }, s)));
  const box = h('div', { id: 'incidents' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Incidents'), tabs),
    h('p', { class: 'muted' }, 'Alerts sent to this console by Alertmanager (webhook /hooks/alertmanager), one row per firing episode, kept across restarts.'), box);
  async function load() {
    const p = { state };
    if (query.get('namespace')) p.namespace = query.get('namespace');
    if (query.get('template')) p.template = query.get('template');
    const items = await incidents(p);
    items.sort((a, b) => (a.status === 'firing' ? 0 : 1) - (b.status === 'firing' ? 0 : 1) || Date.parse(b.startsAt) - Date.parse(a.startsAt));
    clear(box).append(incidentRows(items));
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Incidents unavailable: ' + e.message))));
}
