// Time-series charts on uPlot (served from the WebJar): axes with units, SLO target lines and
// alert / finding / plan annotations.
import uPlot from '/webjars/uplot/1.6.30/dist/uPlot.esm.js';
import { h, fmtUnit, absolute, NO_DATA } from './util.js';

const COLORS = ['#1f6feb', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#495057'];
const ANNOTATION = { alert: '#c92a2a', finding: '#e67700', plan: '#1971c2', exclusion: '#868e96' };

function tick(unit) {
  return (u, vals) => vals.map((v) => (v === null ? '' : unit === 'ratio' ? Math.round(v * 1000) / 10 + ' %' : unit === 'seconds' ? (v < 1 ? Math.round(v * 1000) + ' ms' : +v.toFixed(2) + ' s') : String(v)));
}

/**
 * @param spec {title, unit: ratio|seconds|count, from, to (ms), series: [{label, points: [{at, value}]}],
 *   targets: [{value, label}], annotations: [{at, end?, label, kind: alert|finding|plan|exclusion}]}
 * @return a <figure> holding the chart, a caption and the annotation list
 */
export function chart(spec) {
  const fig = h('figure', { class: 'chart', 'data-chart': spec.id || spec.title });
  const caption = h('figcaption', null, h('strong', null, spec.title), spec.unitLabel ? h('span', { class: 'muted' }, ' (' + spec.unitLabel + ')') : null);
  fig.append(caption);
  const xs = new Set();
  for (const s of spec.series) for (const p of s.points) xs.add(Date.parse(p.at) / 1000);
  const x = [...xs].sort((a, b) => a - b);
  const index = new Map(x.map((v, i) => [v, i]));
  const data = [x];
  for (const s of spec.series) {
    const ys = new Array(x.length).fill(null);
    for (const p of s.points) ys[index.get(Date.parse(p.at) / 1000)] = p.value;
    data.push(ys);
  }
  const hasData = data.slice(1).some((ys) => ys.some((v) => v !== null));
  const holder = h('div', { class: 'plot', role: 'img', 'aria-label': summary(spec) });
  fig.append(holder);
  if (!hasData) {
    holder.append(h('p', { class: 'nodata plot-empty' }, NO_DATA + ' in this range'));
  }
  const targets = (spec.targets || []).filter((t) => t.value !== null && t.value !== undefined);
  const annotations = spec.annotations || [];
  const opts = {
    width: spec.width || 620,
    height: spec.height || 200,
    scales: {
      x: { time: true, range: () => [spec.from / 1000, spec.to / 1000] },
      y: {
        range: (u, min, max) => {
          const vals = [min, max, ...targets.map((t) => t.value)].filter((v) => v !== null && Number.isFinite(v));
          let lo = Math.min(...vals, spec.unit === 'ratio' ? 1 : 0);
          let hi = Math.max(...vals, spec.unit === 'ratio' ? 0 : 0);
          if (spec.unit === 'ratio') { lo = Math.max(0, Math.min(lo, 0.9)); hi = Math.min(1, Math.max(hi, 1)); }
          if (!Number.isFinite(lo)) lo = 0;
          if (!Number.isFinite(hi) || hi <= lo) hi = lo + 1;
          return [lo, hi + (hi - lo) * 0.05];
        },
      },
    },
    axes: [{}, { values: tick(spec.unit), size: 60 }],
    legend: { live: true },
    series: [{ value: (u, v) => (v === null ? '' : absolute(new Date(v * 1000).toISOString())) },
      ...spec.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false, value: (u, v) => fmtUnit(v, spec.unit) }))],
    hooks: {
      draw: [(u) => {
        const ctx = u.ctx;
        ctx.save();
        for (const t of targets) {
          const y = u.valToPos(t.value, 'y', true);
          ctx.strokeStyle = '#2f9e44'; ctx.setLineDash([6, 4]); ctx.lineWidth = 1.5 * devicePixelRatio;
          ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
          ctx.setLineDash([]); ctx.fillStyle = '#2b8a3e'; ctx.font = `${11 * devicePixelRatio}px sans-serif`;
          ctx.fillText(t.label, u.bbox.left + 4, y - 4);
        }
        for (const a of annotations) {
          const x0 = u.valToPos(Date.parse(a.at) / 1000, 'x', true);
          const color = ANNOTATION[a.kind] || '#495057';
          if (a.end !== undefined) {
            const x1 = u.valToPos((a.end ? Date.parse(a.end) : spec.to) / 1000, 'x', true);
            ctx.fillStyle = color + '22';
            ctx.fillRect(Math.max(x0, u.bbox.left), u.bbox.top, Math.max(2, Math.min(x1, u.bbox.left + u.bbox.width) - Math.max(x0, u.bbox.left)), u.bbox.height);
          }
          if (x0 >= u.bbox.left && x0 <= u.bbox.left + u.bbox.width) {
            ctx.strokeStyle = color; ctx.lineWidth = 1.5 * devicePixelRatio;
            ctx.beginPath(); ctx.moveTo(x0, u.bbox.top); ctx.lineTo(x0, u.bbox.top + u.bbox.height); ctx.stroke();
          }
        }
        ctx.restore();
      }],
    },
  };
  // uPlot needs the element in the document to measure; render on the next frame
  requestAnimationFrame(() => {
    const w = holder.clientWidth || opts.width;
    opts.width = Math.max(280, w);
    fig.plot = new uPlot(opts, data, holder);
  });
  if (annotations.length) {
    fig.append(h('ul', { class: 'annotations' }, annotations.map((a) => h('li', { class: 'ann-' + a.kind },
      h('span', { class: 'swatch', style: `background:${ANNOTATION[a.kind]}` }), a.kind + ' ', a.href ? h('a', { href: a.href, 'data-nav': '' }, a.label) : a.label, ' · ', h('time', { datetime: a.at, title: absolute(a.at) }, absolute(a.at))))));
  }
  return fig;
}

function summary(spec) {
  const parts = [spec.title];
  for (const s of spec.series) {
    const last = [...s.points].reverse().find((p) => p.value !== null);
    parts.push(s.label + ': ' + (last ? fmtUnit(last.value, spec.unit) : NO_DATA));
  }
  for (const t of spec.targets || []) if (t.value !== null && t.value !== undefined) parts.push('target ' + t.label);
  return parts.join('; ');
}
