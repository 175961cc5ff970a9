// Sandbox SLO Console web page: renders /api/v1/templates as a table, live via the SSE stream
// (/api/v1/stream) with a fetch fallback every 5 s; rows expand to show stored history.
"use strict";

const THRESHOLDS = {
  warmHitBad: 0.95, warmHitWarn: 0.99,   // warm-hit ratio
  readyBad: 0.2, readyWarn: 0.5,          // pool ready fraction ("drain" below 0.2)
};
const FALLBACK_MS = 5000;
const HISTORY_SLIS = [
  ["warm_hit_ratio", "Warm-hit ratio", "ratio"],
  ["claim_to_ready_p95_seconds", "Claim-to-ready p95", "seconds"],
  ["cold_start_p95_seconds", "Cold-start p95", "seconds"],
];

const state = { data: null, raw: null, lastMessage: 0, open: new Set(), history: new Map(), sse: false };

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function noData() { return el("span", { class: "nodata" }, "no data"); }

function fmtRatio(v) { return v === null || v === undefined ? null : (v * 100).toFixed(1) + " %"; }
function fmtSeconds(v) {
  if (v === null || v === undefined) return null;
  return v < 1 ? (v * 1000).toFixed(0) + " ms" : v.toFixed(2) + " s";
}
function fmtValue(v, unit) {
  if (unit === "ratio") return fmtRatio(v);
  if (unit === "seconds") return fmtSeconds(v);
  return v === null || v === undefined ? null : String(v);
}

function cell(col, text, cls) {
  return el("td", { "data-col": col, class: cls }, text === null ? noData() : text);
}
function warmHitClass(v) {
  if (v === null || v === undefined) return undefined;
  return v < THRESHOLDS.warmHitBad ? "bad" : v < THRESHOLDS.warmHitWarn ? "warn" : undefined;
}
function readyClass(v) {
  if (v === null || v === undefined) return undefined;
  return v < THRESHOLDS.readyBad ? "bad" : v < THRESHOLDS.readyWarn ? "warn" : undefined;
}
function q(summary, key) { return summary ? summary[key] : null; }

function windowKeys(data) {
  for (const item of data.items) return Object.keys(item.windows);
  return ["5m", "1h"];
}

function renderHeader(windows) {
  const first = windows[0] || "5m";
  const cols = [["Template", "name"], ["Pools", "name"], ["Ready (upstream)"], ["Ready (current template)"], ["Stale"]];
  for (const w of windows.slice(0, 2)) cols.push(["Warm-hit " + w]);
  cols.push(["p50"], ["p95"], ["p99"], ["warm p95"], ["cold p95"]);
  cols.push(["Cold-start p95 (" + first + ")"], ["Resume errors (" + first + ")"]);
  const row = document.getElementById("header-row");
  row.replaceChildren(...cols.map(([t, c]) => el("th", { class: c }, t)));
  document.getElementById("warm-hit-group").colSpan = Math.min(2, windows.length);
  document.getElementById("latency-group").textContent = "Claim-to-ready (" + first + ")";
  return cols.length;
}

function renderRow(item, windows) {
  const key = item.namespace + "/" + item.name;
  const first = item.windows[windows[0]] || null;
  const p = item.pool;
  const c2r = first ? first.claimToReadySeconds : { all: null, warm: null, cold: null };
  const nameCell = el("td", { class: "name" + (item.exists ? "" : " missing"), "data-col": "name" }, key);
  if (!item.exists) nameCell.title = "SandboxTemplate not found; referenced by a pool";
  const tr = el("tr", { class: "item" + (state.open.has(key) ? " open" : ""), "data-template": key },
    nameCell,
    el("td", { class: "pools", "data-col": "pools" }, item.pools.length ? item.pools.join(", ") : "–"),
    cell("ready-upstream", fmtRatio(p.readyFraction), readyClass(p.readyFraction)),
    cell("ready-current", fmtRatio(p.readyFractionCurrentTemplate), readyClass(p.readyFractionCurrentTemplate)),
    cell("stale", String(p.staleMembers), p.staleMembers > 0 ? "warn" : undefined));
  for (const w of windows.slice(0, 2)) {
    const ws = item.windows[w];
    const v = ws ? ws.warmHitRatio : null;
    tr.append(cell("warm-hit-" + w, fmtRatio(v), warmHitClass(v)));
  }
  tr.append(
    cell("c2r-p50", fmtSeconds(q(c2r.all, "p50"))),
    cell("c2r-p95", fmtSeconds(q(c2r.all, "p95"))),
    cell("c2r-p99", fmtSeconds(q(c2r.all, "p99"))),
    cell("c2r-warm-p95", fmtSeconds(q(c2r.warm, "p95"))),
    cell("c2r-cold-p95", fmtSeconds(q(c2r.cold, "p95"))),
    cell("cold-start-p95", fmtSeconds(first ? q(first.coldStartSeconds, "p95") : null)));
  const r = first ? first.resume : null;
  tr.append(r && r.attempts > 0
    ? cell("resume-errors", r.errors + " / " + r.attempts, r.errors > 0 ? "bad" : undefined)
    : cell("resume-errors", null));
  tr.addEventListener("click", () => toggle(key));
  return tr;
}

function renderDetail(item, colspan) {
  const key = item.namespace + "/" + item.name;
  const p = item.pool;
  const pool = el("section", {}, el("h3", {}, "Pool members (now)"), el("dl", {},
    el("dt", {}, "replicas"), el("dd", {}, p.replicas),
    el("dt", {}, "members"), el("dd", {}, p.members),
    el("dt", {}, "ready"), el("dd", {}, p.readyMembers),
    el("dt", {}, "ready, current template"), el("dd", {}, p.readyCurrentMembers),
    el("dt", {}, "stale"), el("dd", {}, p.staleMembers),
    el("dt", {}, "not ready"), el("dd", {}, p.notReadyMembers),
    el("dt", {}, "status ready / replicas"),
    el("dd", {}, p.statusReadyReplicas === null ? noData() : p.statusReadyReplicas + " / " + p.statusReplicas)));
  const totals = el("section", {}, el("h3", {}, "Since start"), el("dl", {},
    el("dt", {}, "warm launches"), el("dd", {}, item.totals.warmLaunches),
    el("dt", {}, "cold launches"), el("dd", {}, item.totals.coldLaunches),
    el("dt", {}, "resumes ok / error / timeout"),
    el("dd", {}, item.totals.resumeSuccess + " / " + item.totals.resumeError + " / " + item.totals.resumeTimeout)));
  const grid = el("div", { class: "detail-grid" }, pool, totals);
  for (const [sli, label, unit] of HISTORY_SLIS) grid.append(historySection(key, sli, label, unit));
  return el("tr", { class: "detail", "data-detail": key }, el("td", { colspan: String(colspan) }, grid));
}

function historySection(key, sli, label, unit) {
  const h = state.history.get(key + "|" + sli);
  const s = el("section", { "data-history": sli }, el("h3", {}, label + " (last hour)"));
  if (!h) { s.append(el("span", { class: "muted" }, "loading…")); return s; }
  if (h.error) { s.append(el("span", { class: "nodata" }, h.error)); return s; }
  const pts = h.points.filter((x) => x.value !== null);
  if (pts.length === 0) { s.append(noData()); return s; }
  const t0 = Date.parse(h.points[0].at), t1 = Date.parse(h.points[h.points.length - 1].at) || t0 + 1;
  const vals = pts.map((x) => x.value);
  const lo = Math.min(...vals), hi = Math.max(...vals), span = hi - lo || 1;
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("class", "spark"); svg.setAttribute("viewBox", "0 0 100 30"); svg.setAttribute("preserveAspectRatio", "none");
  const line = document.createElementNS(svgNs, "polyline");
  line.setAttribute("points", pts.map((x) => {
    const px = t1 === t0 ? 50 : ((Date.parse(x.at) - t0) / (t1 - t0)) * 100;
    const py = hi === lo ? 15 : 28 - ((x.value - lo) / span) * 26;   // a constant series sits mid-height
    return px.toFixed(2) + "," + py.toFixed(2);
  }).join(" "));
  svg.append(line);
  s.append(svg, el("span", { class: "muted" },
    "latest " + fmtValue(pts[pts.length - 1].value, unit) + ", min " + fmtValue(lo, unit) + ", max " + fmtValue(hi, unit)
    + " (" + h.points.length + " points, " + (h.points.length - pts.length) + " without data)"));
  return s;
}

// Reads carry the signed-in token when there is one (sloconsole.auth.anonymous-read=false).
function readOptions() {
  const token = sessionStorage.getItem("sloconsole.token");
  return token ? { headers: { "Authorization": "Bearer " + token } } : {};
}

async function loadHistory(key) {
  const [ns, name] = key.split("/");
  await Promise.all(HISTORY_SLIS.map(async ([sli]) => {
    try {
      const res = await fetch("/api/v1/templates/" + encodeURIComponent(ns) + "/" + encodeURIComponent(name)
        + "/history?sli=" + sli, readOptions());
      const body = await res.json();
      state.history.set(key + "|" + sli, res.ok ? body : { error: "history unavailable: " + body.reason });
    } catch (e) {
      state.history.set(key + "|" + sli, { error: "history unavailable: " + e.message });
    }
  }));
  render();
}

function toggle(key) {
  if (state.open.has(key)) state.open.delete(key); else { state.open.add(key); loadHistory(key); }
  render();
}

function render() {
  const data = state.data;
  if (!data) return;
  const windows = windowKeys(data);
  const colspan = renderHeader(windows);
  const rows = [];
  for (const item of data.items) {
    rows.push(renderRow(item, windows));
    if (state.open.has(item.namespace + "/" + item.name)) rows.push(renderDetail(item, colspan));
  }
  if (rows.length === 0) rows.push(el("tr", { class: "empty" }, el("td", { colspan: String(colspan) }, "No SandboxTemplate found.")));
  document.getElementById("rows").replaceChildren(...rows);
  document.getElementById("updated").textContent = "snapshot at " + data.at;
  const banner = document.getElementById("sync-banner");
  banner.className = "banner " + (data.synced ? "ok" : "pending");
  banner.textContent = data.synced
    ? "All informers synced."
    : "Informers not synced yet: numbers may be incomplete.";
}

function accept(data) {
  const raw = JSON.stringify(data);
  state.lastMessage = Date.now();
  if (raw === state.raw) return;   // the stream repeats unchanged snapshots; keep the DOM still
  state.raw = raw;
  state.data = data;
  render();
}

function notReady(reason) {
  const banner = document.getElementById("sync-banner");
  banner.className = "banner pending";
  banner.textContent = "Console not ready: " + reason;
}

async function poll() {
  try {
    const res = await fetch("/api/v1/templates", readOptions());
    const body = await res.json();
    if (res.ok) accept(body); else notReady(body.reason || body.error);
  } catch (e) {
    const banner = document.getElementById("sync-banner");
    banner.className = "banner error";
    banner.textContent = "Console unreachable: " + e.message;
  }
}

function connect() {
  if (!window.EventSource) return;
  const es = new EventSource("/api/v1/stream");
  es.addEventListener("snapshot", (ev) => {
    state.sse = true;
    document.getElementById("mode").textContent = "live";
    accept(JSON.parse(ev.data));
  });
  es.onerror = () => { state.sse = false; document.getElementById("mode").textContent = "polling"; };
}

connect();
poll();
setInterval(() => { if (Date.now() - state.lastMessage >= FALLBACK_MS) poll(); }, FALLBACK_MS);
setInterval(() => { for (const key of state.open) loadHistory(key); }, 30000);
