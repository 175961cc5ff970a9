// DOM building, formatting with units, relative times. "no data" is never shown as 0.
export const NO_DATA = 'no data';

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(el.dataset, v);
      // through the CSSOM: the page's Content-Security-Policy (style-src 'self') blocks style attributes
      else if (k === 'style') el.style.cssText = v;
      else el.setAttribute(k, v === true ? '' : v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) { el.replaceChildren(); return el; }

/** Sets text (and class/title) only when changed, so selection and focus survive updates. */
export function setText(el, text, cls, title) {
  if (el.textContent !== text) el.textContent = text;
  if (cls !== undefined && el.className !== cls) el.className = cls;
  if (title !== undefined && el.title !== title) el.title = title || '';
}

export const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

export function pct(v, digits = 1) {
  return isNum(v) ? (v * 100).toFixed(digits) + ' %' : NO_DATA;
}

export function secs(v) {
  if (!isNum(v)) return NO_DATA;
  if (v < 1) return Math.round(v * 1000) + ' ms';
  if (v < 60) return v.toFixed(2) + ' s';
  if (v < 3600) return (v / 60).toFixed(1) + ' min';
  return (v / 3600).toFixed(1) + ' h';
}

export function duration(s) {
  if (!isNum(s)) return NO_DATA;
  s = Math.max(0, Math.round(s));
  if (s < 60) return s + ' s';
  if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60 ? (s % 60) + ' s' : '');
  if (s < 86400) return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  return Math.floor(s / 86400) + ' d ' + Math.floor((s % 86400) / 3600) + ' h';
}

export function count(v) { return isNum(v) ? String(v) : NO_DATA; }

export function fmtUnit(v, unit) {
  if (unit === 'ratio') return pct(v);
  if (unit === 'seconds') return secs(v);
  return count(v);
}

export function ago(iso, now = Date.now()) {
  if (!iso) return NO_DATA;
  const d = (now - Date.parse(iso)) / 1000;
  if (d < 0) return 'in ' + duration(-d).trim();
  if (d < 5) return 'just now';
  if (d < 60) return Math.round(d) + ' s ago';
  if (d < 3600) return Math.round(d / 60) + ' min ago';
  if (d < 86400) return Math.round(d / 3600) + ' h ago';
  return Math.round(d / 86400) + ' d ago';
}

export function absolute(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace('Z', ' UTC');
}

/** A relative time with the absolute one on hover; refreshed by tickTimes(). */
export function time(iso) {
  if (!iso) return h('span', { class: 'nodata' }, NO_DATA);
  return h('time', { datetime: iso, title: absolute(iso), 'data-rel': '' }, ago(iso));
}

export function tickTimes(root = document) {
  for (const t of root.querySelectorAll('time[data-rel]')) {
    const s = ago(t.getAttribute('datetime'));
    if (t.textContent !== s) t.textContent = s;
  }
}

export function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || text) }, text);
}

/** Object reference "Kind ns/name" → a link to its page (or plain text). */
export function objectLink(obj) {
  const m = /^(SandboxWarmPool|SandboxTemplate|SandboxClaim|Sandbox|Namespace)\s+([^/\s]+)(?:\/(\S+))?/.exec(obj || '');
  if (!m) return document.createTextNode(obj || '');
  const [, kind, ns, name] = m;
  let href = null;
  if (kind === 'SandboxWarmPool' && name) href = `/pools/${ns}/${name}`;
  else if (kind === 'SandboxTemplate' && name) href = `/templates/${ns}/${name}`;
  else if (kind === 'SandboxClaim') href = `/claims?namespace=${encodeURIComponent(ns)}`;
  else if (kind === 'Namespace') href = `/?namespace=${encodeURIComponent(ns)}`;
  return href ? h('a', { href, 'data-nav': '' }, obj) : document.createTextNode(obj);
}

/** Severity → urgency class: page/critical = page, high/ticket = ticket, info = info. */
export function urgency(sev) {
  return sev === 'page' || sev === 'critical' ? 'page' : sev === 'info' ? 'info' : 'ticket';
}

export function table(columns, rows, opts = {}) {
  const thead = h('thead', null, h('tr', null, columns.map((c) => h('th', { scope: 'col', class: c.cls }, c.label))));
  const tbody = h('tbody');
  if (!rows.length) {
    tbody.append(h('tr', { class: 'empty' }, h('td', { colspan: columns.length }, opts.empty || 'Nothing to show.')));
  }
  for (const r of rows) {
    tbody.append(h('tr', opts.rowAttrs ? opts.rowAttrs(r) : null, columns.map((c) => h('td', { class: c.cls, 'data-col': c.key }, c.render(r)))));
  }
  return h('table', { class: 'grid ' + (opts.cls || '') }, opts.caption ? h('caption', null, opts.caption) : null, thead, tbody);
}

export function kv(pairs) {
  return h('dl', { class: 'kv' }, pairs.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]));
}
