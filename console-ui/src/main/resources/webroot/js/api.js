// JSON API access, the bearer token (sessionStorage, never the URL), roles and the live SSE stream.
const TOKEN_KEY = 'sloconsole.token';

export const auth = {
  get token() { return sessionStorage.getItem(TOKEN_KEY); },
  set token(t) { if (t) sessionStorage.setItem(TOKEN_KEY, t); else sessionStorage.removeItem(TOKEN_KEY); },
  me: null, // {user, roles, twoPerson, approverRoles} or null
};

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.reason || body.error)) || 'HTTP ' + status);
    this.status = status;
    this.body = body;
  }
}

export async function api(path, opts = {}) {
  const headers = { Accept: 'application/json' };
  if (auth.token) headers.Authorization = 'Bearer ' + auth.token;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  // every write carries an Idempotency-Key, so a retried click is answered with the first response
  const method = opts.method || 'GET';
  if (method !== 'GET' && method !== 'HEAD' && window.crypto && crypto.randomUUID) {
    headers['Idempotency-Key'] = crypto.randomUUID();
  }
  if (opts.headers) Object.assign(headers, opts.headers);
  const res = await fetch(path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = { reason: text }; }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

export async function text(path) {
  // reads carry the token too: with sloconsole.auth.anonymous-read=false they need it
  const res = await fetch(path, auth.token ? { headers: { Authorization: 'Bearer ' + auth.token } } : {});
  if (!res.ok) throw new ApiError(res.status, null);
  return res.text();
}

export async function whoami() {
  if (!auth.token) { auth.me = null; return null; }
  try {
    auth.me = await api('/api/v1/whoami');
  } catch (e) {
    auth.me = null;
    if (e.status === 401) auth.token = null;
    throw e;
  }
  return auth.me;
}

/** Same rule as the server's Caller.has: admin holds all; operator/approver imply viewer. */
export function has(role, namespace) {
  const me = auth.me;
  if (!me) return false;
  return me.roles.some((r) => {
    const i = r.indexOf(':');
    const name = i < 0 ? r : r.slice(0, i);
    const ns = i < 0 ? null : r.slice(i + 1);
    const ok = name === role || name === 'admin' || (role === 'viewer' && (name === 'operator' || name === 'approver'));
    return ok && (ns === null || ns === namespace);
  });
}

/** Why the signed-in user cannot take an action, or null when they can. */
export function cannot(role, namespace, what) {
  if (!auth.me) return 'Sign in to ' + what + '.';
  if (!has(role, namespace)) {
    return `${auth.me.user} lacks role ${role}${namespace ? ' for namespace ' + namespace : ' (cluster-wide)'}, which ${what} requires.`;
  }
  return null;
}

/** The namespace whose roles govern a plan (as the server's RemediationPlans.namespaceOf). */
export function namespaceOf(action, subject) {
  if (action === 'DeleteExpiredClaims') return subject;
  if (action === 'SetRefillPacing' && subject === 'controller-lite') return null;
  const i = subject.indexOf('/');
  return i > 0 ? subject.slice(0, i) : null;
}

/**
 * The live stream: snapshots over SSE; "stale" within 2 s when the server goes away (an error, or
 * no event for max(2 s, 2 × the stream interval)), and "live" again on the next snapshot.
 */
export class Live {
  constructor(onSnapshot, onState) {
    this.onSnapshot = onSnapshot;
    this.onState = onState;
    this.state = 'connecting';
    this.last = 0;
    this.interval = 1000;
    this.latest = null;
    this.connect();
    setInterval(() => this.watch(), 250);
  }

  connect() {
    if (this.es) this.es.close();
    this.es = new EventSource('/api/v1/stream');
    this.es.addEventListener('snapshot', (ev) => {
      this.last = performance.now();
      let data;
      try { data = JSON.parse(ev.data); } catch { return; }
      this.latest = data;
      this.set('live');
      this.onSnapshot(data);
    });
    this.es.onerror = () => {
      this.set(this.latest ? 'stale' : 'down');
      if (this.es.readyState === EventSource.CLOSED) setTimeout(() => this.connect(), 1000);
    };
  }

  watch() {
    if (this.state === 'live' && performance.now() - this.last > Math.max(2000, 2 * this.interval)) {
      this.set('stale');
    }
  }

  set(s) {
    if (this.state !== s) {
      this.state = s;
      this.onState(s);
    }
  }
}
