// Sandbox SLO Console: the "Findings" and "Plans" sections. Findings come from /api/v1/findings;
// a proposal with a typed action can be turned into a plan (POST /api/v1/plans), which is then
// approved, executed or cancelled with the bearer token typed in the token field (kept in
// sessionStorage only). Every value is inserted as text, never as HTML.
"use strict";

const REM = { token: sessionStorage.getItem("sloconsole.token") || "", open: new Set(), message: "" };
const REFRESH_MS = 3000;

function rel(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.substring(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function remFetch(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (REM.token) headers["Authorization"] = "Bearer " + REM.token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(res.status + " " + (json.error || "") + (json.field ? " (" + json.field + ")" : "") + ": " + (json.reason || ""));
  return json;
}

function say(text) {
  REM.message = text;
  const m = document.getElementById("rem-message");
  if (m) m.textContent = text;
}

// "SandboxWarmPool demo/p" -> "demo/p"; "Namespace demo" -> "demo"; templates have no pool subject
function planSubject(finding, action) {
  const [kind, ref] = finding.subject.split(" ");
  if (kind === "SandboxWarmPool" && action !== "DeleteExpiredClaims") return ref;
  if (kind === "Namespace" && action === "DeleteExpiredClaims") return ref;
  return null;
}

async function planFrom(finding, proposal) {
  try {
    const p = await remFetch("POST", "/api/v1/plans", {
      action: proposal.action, subject: planSubject(finding, proposal.action), params: {}, reason: finding.explanation });
    REM.open.add(p.id);
    say("planned " + p.id + " (" + p.action + " " + p.subject + ")");
  } catch (e) { say(e.message); }
  refreshRemediation();
}

async function act(id, verb) {
  try {
    const p = await remFetch("POST", "/api/v1/plans/" + encodeURIComponent(id) + "/" + verb);
    say(verb + " " + id + ": " + p.state);
  } catch (e) { say(e.message); }
  refreshRemediation();
}

function renderFindings(items) {
  const box = document.getElementById("findings-list");
  box.replaceChildren();
  if (!items.length) { box.append(rel("p", { class: "muted" }, "No open findings.")); return; }
  for (const f of items) {
    const proposals = rel("ul", { class: "proposals" });
    for (const p of f.proposals) {
      const subject = p.action !== "None" ? planSubject(f, p.action) : null;
      proposals.append(rel("li", null, rel("b", null, p.action), " — ", p.summary,
        subject ? rel("button", { type: "button", "data-plan": p.action, onclick: () => planFrom(f, p) }, "Plan") : null));
    }
    box.append(rel("div", { class: "finding", "data-kind": f.kind },
      rel("div", null, rel("span", { class: "sev sev-" + f.severity }, f.severity), " ", rel("b", null, f.kind), " ",
        f.subject),
      rel("div", { class: "muted" }, f.explanation), proposals));
  }
}

function renderPlan(p, detail) {
  const buttons = [];
  if (p.state === "planned") buttons.push(rel("button", { type: "button", onclick: () => act(p.id, "approve") }, "Approve"));
  if (p.state === "approved") buttons.push(rel("button", { type: "button", onclick: () => act(p.id, "execute") }, "Execute"));
  if (["planned", "approved", "executing"].includes(p.state))
    buttons.push(rel("button", { type: "button", onclick: () => act(p.id, "cancel") }, "Cancel"));
  const open = REM.open.has(p.id);
  const head = rel("div", { class: "plan-head" },
    rel("button", { type: "button", class: "link", onclick: () => { open ? REM.open.delete(p.id) : REM.open.add(p.id); refreshRemediation(); } },
      open ? "▾" : "▸"),
    " ", rel("b", null, p.action), " ", p.subject, " ", rel("span", { class: "state state-" + p.state }, p.state),
    " ", rel("span", { class: "muted" }, "planned by " + p.plannedBy + (p.approvedBy ? ", approved by " + p.approvedBy : "")),
    " ", ...buttons);
  const div = rel("div", { class: "plan", "data-plan-id": p.id }, head);
  if (!open) return div;
  const steps = rel("ol", null);
  for (const s of p.plan.steps || []) steps.append(rel("li", null, s.description));
  div.append(steps);
  if (p.plan.predicted) div.append(rel("pre", null, JSON.stringify(p.plan.predicted, null, 1)));
  if (p.progress && p.progress.waiting) div.append(rel("div", { class: "muted" }, "now: " + p.progress.waiting));
  if (p.result) div.append(rel("div", null, "result: " + p.result));
  if (detail && detail.audit) {
    const t = rel("table", { class: "audit" }, rel("tr", null, ...["at", "actor", "what", "step", "object", "result"].map(h => rel("th", null, h))));
    for (const a of detail.audit)
      t.append(rel("tr", null, ...[a.at, a.actor, a.what, a.step ?? "", a.object ?? "", a.result].map(v => rel("td", null, v))));
    div.append(t);
  }
  return div;
}

async function refreshRemediation() {
  try {
    const f = await (await fetch("/api/v1/findings?state=open", readOptions())).json();
    renderFindings(f.items || []);
  } catch (e) { /* the main table shows connectivity */ }
  const box = document.getElementById("plans-list");
  if (!REM.token) { box.replaceChildren(rel("p", { class: "muted" }, "Enter a bearer token to see and act on plans.")); return; }
  try {
    const plans = (await remFetch("GET", "/api/v1/plans")).items;
    const nodes = [];
    for (const p of plans) {
      const detail = REM.open.has(p.id) ? await remFetch("GET", "/api/v1/plans/" + encodeURIComponent(p.id)) : null;
      nodes.push(renderPlan(detail || p, detail));
    }
    box.replaceChildren(...(nodes.length ? nodes : [rel("p", { class: "muted" }, "No plans yet.")]));
  } catch (e) { box.replaceChildren(rel("p", { class: "bad" }, e.message)); }
}

document.getElementById("token").value = REM.token;
document.getElementById("token").addEventListener("change", (ev) => {
  REM.token = ev.target.value.trim();
  sessionStorage.setItem("sloconsole.token", REM.token);
  refreshRemediation();
});
refreshRemediation();
setInterval(refreshRemediation, REFRESH_MS);
