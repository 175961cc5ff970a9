// The single-page app: History API routing (real URLs, back button), header, sign-in, live data.
import { h, clear, tickTimes, ago, absolute } from './util.js';
import { auth, whoami, Live } from './api.js';
import * as fleet from './pages/fleet.js';
import * as template from './pages/template.js';
import * as pool from './pages/pool.js';
import * as claims from './pages/claims.js';
import * as findings from './pages/findings.js';
import * as incidents from './pages/incidents.js';
import * as plans from './pages/plans.js';
import * as slos from './pages/slos.js';
import * as audit from './pages/audit.js';
import * as health from './pages/health.js';

const ROUTES = [
  [/^\/$/, fleet.render, 'fleet'],
  [/^\/templates\/([^/]+)\/([^/]+)$/, template.render, 'fleet'],
  [/^\/pools\/([^/]+)\/([^/]+)$/, pool.render, 'fleet'],
  [/^\/claims$/, claims.render, 'claims'],
  [/^\/claims\/([^/]+)$/, claims.render, 'claims'],
  [/^\/findings$/, findings.renderList, 'findings'],
  [/^\/findings\/([^/]+)$/, findings.renderOne, 'findings'],
  [/^\/incidents$/, incidents.render, 'incidents'],
  [/^\/plans$/, plans.renderList, 'plans'],
  [/^\/plans\/([^/]+)$/, plans.renderOne, 'plans'],
  [/^\/slos$/, slos.renderList, 'slos'],
  [/^\/slos\/([^/]+)$/, slos.renderOne, 'slos'],
  [/^\/audit$/, audit.render, 'audit'],
  [/^\/health$/, health.render, 'health'],
];

const view = document.getElementById('view');
let page = null; // {update?, dispose?}
let timers = [];

/** What a page gets: live data, timers that stop on navigation, navigation, re-render. */
export const app = {
  live: null,
  snapshot: null,
  navigate,
  every(ms, fn) {
    const run = () => { Promise.resolve().then(fn).catch((e) => console.warn(e)); };
    run();
    timers.push(setInterval(run, ms));
  },
  rerender: () => route(),
  onAuth: [],
};
window.sloConsole = app; // for tests and the curious

function navigate(url, replace = false) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

function route() {
  for (const t of timers) clearInterval(t);
  timers = [];
  if (page && page.dispose) page.dispose();
  page = null;
  app.onAuth = [];
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(location.search);
  clear(view);
  for (const [re, render, nav] of ROUTES) {
    const m = re.exec(path);
    if (m) {
      markNav(nav);
      const params = m.slice(1).map(decodeURIComponent);
      try {
        page = render(view, params, query, app) || null;
        if (page && page.update && app.snapshot) page.update(app.snapshot);
      } catch (e) {
        view.append(h('p', { class: 'error' }, 'This page failed to render: ' + e.message));
        console.error(e);
      }
      return;
    }
  }
  markNav(null);
  document.title = 'Not found · Sandbox SLO Console';
  view.append(h('h1', null, 'Page not found'), h('p', null, 'No console page lives at ', h('code', null, path), '. ', h('a', { href: '/', 'data-nav': '' }, 'Back to the fleet')));
}

function markNav(name) {
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// links: same-origin <a href="/..."> navigate without reloading (modifier keys open tabs as usual)
document.addEventListener('click', (ev) => {
  const a = ev.target.closest('a[href]');
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || a.target || url.pathname.startsWith('/api/') || url.pathname.startsWith('/webjars/')) return;
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
  view.focus({ preventScroll: true });
  window.scrollTo(0, 0);
});
window.addEventListener('popstate', route);

// legacy deep links (#/templates/ns/name, #/pools/..., #/claims/ns, #/health) become real URLs
if (location.hash.startsWith('#/')) {
  history.replaceState(null, '', location.hash.slice(1));
}

// ---- live data and the stale banner
const banner = document.getElementById('stale-banner');
const freshness = document.getElementById('freshness');
function onState(s) {
  document.body.classList.toggle('is-stale', s !== 'live');
  if (s === 'live') {
    banner.hidden = true;
  } else {
    banner.hidden = false;
    banner.textContent = s === 'stale'
      ? 'Connection to the console lost: values below are stale (last update ' + (app.snapshot ? ago(app.snapshot.at) : 'never') + '). Reconnecting…'
      : 'Cannot reach the console server. Reconnecting…';
  }
}
app.live = new Live((snap) => {
  app.snapshot = snap;
  freshness.textContent = 'data ' + ago(snap.at) + (snap.synced ? '' : ' · informers not synced yet');
  freshness.title = 'snapshot at ' + absolute(snap.at);
  if (page && page.update) page.update(snap);
}, onState);

setInterval(() => {
  tickTimes();
  if (app.snapshot) freshness.textContent = 'data ' + ago(app.snapshot.at) + (app.snapshot.synced ? '' : ' · informers not synced yet');
}, 1000);

// ---- sign-in
const who = document.getElementById('who');
const dialog = document.getElementById('signin');
const tokenInput = document.getElementById('signin-token');
const signinError = document.getElementById('signin-error');

export function renderWho() {
  clear(who);
  if (auth.me) {
    who.append(
      h('span', { class: 'user', title: 'roles: ' + auth.me.roles.join(', ') }, h('strong', { id: 'who-user' }, auth.me.user), ' ',
        h('span', { id: 'who-roles', class: 'muted' }, '(' + auth.me.roles.join(', ') + ')')),
      h('button', { type: 'button', class: 'link', onclick: () => { auth.token = null; auth.me = null; renderWho(); authChanged(); } }, 'Sign out'));
  } else {
    who.append(h('button', { type: 'button', id: 'signin-open', onclick: openSignin }, 'Sign in'));
  }
}

export function openSignin() {
  signinError.textContent = '';
  tokenInput.value = '';
  dialog.showModal();
  tokenInput.focus();
}
app.openSignin = openSignin;

function authChanged() { for (const f of app.onAuth) f(); }

document.getElementById('signin-cancel').addEventListener('click', () => dialog.close());
document.getElementById('signin-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  auth.token = tokenInput.value.trim();
  try {
    await whoami();
    dialog.close();
    renderWho();
    authChanged();
  } catch (e) {
    auth.token = null;
    signinError.textContent = 'Sign-in failed: ' + e.message;
  }
});

(async () => {
  try { await whoami(); } catch { /* not signed in */ }
  renderWho();
  route();
  authChanged();
})();
