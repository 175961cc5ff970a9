// Findings: open and closed, by urgency; one finding with evidence, objects, runbook and plans.
import { h, clear, time, table, badge, urgency, objectLink, kv, absolute } from '../util.js';
import { api, text, auth, cannot, namespaceOf } from '../api.js';
import { markdown } from '../markdown.js';
import { adviceEffect } from '../whatif.js';

export function renderList(root, params, query, app) {
  document.title = 'Findings · Sandbox SLO Console';
  const state = query.get('state') || 'open';
  const tabs = h('nav', { class: 'ranges', 'aria-label': 'Finding state' }, ['open', 'closed', 'all'].map((s) => {
    const q = new URLSearchParams(query); q.set('state', s);
    return h('a', { href: '/findings?' + q, 'data-nav': '', 'aria-current': s === state ? 'true' : null }, s);
  }));
  const box = h('div', { id: 'findings-table' }, h('p', { class: 'muted' }, 'Loading…'));
  const filt = [query.get('kind') && 'kind ' + query.get('kind'), query.get('subject') && 'subject ' + query.get('subject')].filter(Boolean);
  root.append(h('div', { class: 'page-head' }, h('h1', null, 'Findings'), tabs),
    filt.length ? h('p', { id: 'findings-filter' }, 'Showing ', filt.join(', '), ' · ', h('a', { href: '/findings', 'data-nav': '' }, 'all findings')) : '', box);
  async function load() {
    const q = new URLSearchParams({ state });
    if (query.get('kind')) q.set('kind', query.get('kind'));
    if (query.get('subject')) q.set('subject', query.get('subject'));
    const r = await api('/api/v1/findings?' + q);
    clear(box).append(table([
      { key: 'severity', label: 'Severity', render: (f) => badge(f.severity, 'sev-' + urgency(f.severity)) },
      { key: 'kind', label: 'Finding', render: (f) => h('a', { href: '/findings/' + encodeURIComponent(f.id), 'data-nav': '' }, f.kind) },
      { key: 'subject', label: 'Subject', render: (f) => objectLink(f.subject) },
      { key: 'explanation', label: 'What', render: (f) => f.explanation },
      { key: 'age', label: 'Open since', render: (f) => time(f.openedAt) },
      { key: 'last', label: 'Last seen', render: (f) => f.state === 'closed' ? ['closed ', time(f.closedAt)] : time(f.lastSeen) },
    ], r.items, { cls: 'findings', empty: 'No ' + (state === 'all' ? '' : state + ' ') + 'findings.', rowAttrs: (f) => ({ class: 'urg-' + urgency(f.severity), 'data-kind': f.kind, 'data-finding': f.id }) }));
  }
  app.every(5000, () => load().catch((e) => clear(box).append(h('p', { class: 'error' }, 'Findings unavailable: ' + e.message))));
}

export function renderOne(root, [id], query, app) {
  document.title = 'Finding · Sandbox SLO Console';
  const box = h('div', { id: 'finding' }, h('p', { class: 'muted' }, 'Loading…'));
  root.append(h('nav', { class: 'crumbs', 'aria-label': 'Breadcrumb' }, h('a', { href: '/findings', 'data-nav': '' }, 'Findings'), ' › ', id), box);
  let runbookLoaded = null;
  const runbookBox = h('section', { id: 'runbook', class: 'runbook' });
  const plansBox = h('div', { id: 'finding-plans' });
  // a sizing finding's advice, simulated once per page (the demand is the finding's claims/s)
  let effectBox = null;

  async function load() {
    const f = await api('/api/v1/findings/' + encodeURIComponent(id));
    document.title = f.kind + ' · Sandbox SLO Console';
    clear(box).append(
      h('div', { class: 'page-head' }, h('h1', { id: 'subject' }, f.kind, ' ', h('span', { class: 'muted' }, f.subject)), badge(f.severity, 'sev-' + urgency(f.severity)), ' ', badge(f.state, f.state)),
      h('p', { class: 'explanation urg-' + urgency(f.severity) }, f.explanation),
      kv([['opened', time(f.openedAt)], ['first seen', time(f.firstSeen)], ['last seen', time(f.lastSeen)], ['closed', f.closedAt ? time(f.closedAt) : 'still open']]),
      h('section', null, h('h2', null, 'Evidence'), table([
        { key: 'name', label: 'Evidence', render: (e) => e.name },
        { key: 'value', label: 'Value', render: (e) => h('strong', null, e.value) },
        { key: 'arith', label: 'Arithmetic', render: (e) => e.arithmetic ? h('code', null, e.arithmetic) : '' },
      ], f.evidence, { cls: 'evidence', empty: 'No evidence recorded.' })),
      h('section', null, h('h2', null, 'Objects involved'), f.objects.length ? h('ul', { class: 'objects' }, f.objects.map((o) => h('li', null, objectLink(o)))) : h('p', { class: 'muted' }, 'none')),
      h('section', null, h('h2', null, 'Proposed remediation'), proposals(f)),
      SIZING.has(f.kind) ? h('section', null, h('h2', null, 'Simulated effect of the advice'), effectBox || (effectBox = adviceEffect(f))) : '',
      plansBox,
      runbookBox);
    if (runbookLoaded !== f.runbook) {
      runbookLoaded = f.runbook;
      const name = (f.runbook || '').replace(/^runbooks\//, '').replace(/\.md$/, '');
      clear(runbookBox).append(h('h2', null, 'Runbook ', h('a', { href: '/api/v1/runbooks/' + name }, name)));
      text('/api/v1/runbooks/' + encodeURIComponent(name)).then((md) => runbookBox.append(markdown(md)))
        .catch(() => runbookBox.append(h('p', { class: 'muted' }, 'Runbook ' + name + ' is not available.')));
    }
    loadPlans(f);
  }

  function proposals(f) {
    return h('ul', { class: 'proposals' }, f.proposals.map((p) => {
      const subject = subjectFor(p.action, f);
      const why = p.action === 'None' || !subject ? null : cannot('operator', namespaceOf(p.action, subject), 'planning ' + p.action);
      return h('li', { 'data-proposal': p.action },
        h('strong', null, p.action), ' — ', p.summary, p.automatic ? '' : ' (manual: never automatic)',
        p.steps.length ? h('ol', null, p.steps.map((s) => h('li', null, s))) : null,
        p.action !== 'None' && subject ? h('div', null,
          h('a', { class: 'button' + (why ? ' disabled' : ''), href: `/plans?action=${p.action}&subject=${encodeURIComponent(subject)}&finding=${encodeURIComponent(f.id)}`, 'data-nav': '', 'aria-disabled': why ? 'true' : null, title: why || 'Open the plan form for ' + subject, 'data-plan': p.action }, 'Plan ' + p.action + ' on ' + subject),
          why ? h('span', { class: 'reason muted' }, ' ' + why) : null) : null);
    }));
  }

  async function loadPlans(f) {
    clear(plansBox);
    if (!auth.me) return;
    const ps = (await api('/api/v1/plans').catch(() => ({ items: [] }))).items.filter((p) => f.proposals.some((x) => x.action === p.action && subjectFor(p.action, f) === p.subject));
    plansBox.append(h('h2', null, 'Plans for this finding'), ps.length ? h('ul', null, ps.map((p) => h('li', null, h('a', { href: '/plans/' + p.id, 'data-nav': '' }, p.id), ' ', p.action, ' ', badge(p.state, 'plan-' + p.state), ' created ', time(p.createdAt)))) : h('p', { class: 'muted' }, 'none yet'));
  }
  load().catch((e) => clear(box).append(h('p', { class: 'error' }, e.status === 404 ? e.message : 'Finding unavailable: ' + e.message)));
  const t = setInterval(() => load().catch(() => {}), 10000);
  app.onAuth.push(() => load().catch(() => {}));
  return { dispose() { clearInterval(t); } };
}

/** Findings whose advice is a pool size, which the what-if simulator can check. */
const SIZING = new Set(['PoolUndersized', 'PoolNeedsSharding']);

/** The plan subject a proposal acts on: the pool, the namespace, or controller-lite. */
export function subjectFor(action, f) {
  const m = /^(\S+)\s+(\S+)$/.exec(f.subject);
  const kind = m ? m[1] : '';
  const ref = m ? m[2] : f.subject;
  if (action === 'DeleteExpiredClaims') return kind === 'Namespace' ? ref : ref.split('/')[0];
  if (action === 'SetRefillPacing') return 'controller-lite';
  if (kind === 'SandboxWarmPool') return ref;
  const pool = f.objects.find((o) => o.startsWith('SandboxWarmPool '));
  return pool ? pool.split(' ')[1] : null;
}

export { absolute };
