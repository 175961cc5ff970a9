// A small, safe Markdown renderer for runbooks: headings, paragraphs, lists, tables, fenced code,
// inline code, bold, italics and links. Everything is built as DOM nodes: no HTML is injected.
import { h } from './util.js';

function inline(text) {
  const out = [];
  const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\[[^\]]+\]\([^)]+\))|(\*[^*\s][^*]*\*)/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (m[1]) out.push(h('code', null, t.slice(1, -1)));
    else if (m[2]) out.push(h('strong', null, t.slice(2, -2)));
    else if (m[3]) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(t);
      const safe = /^(https?:|\/|#|\.\.?\/)/.test(href) ? href : '#';
      const local = /^\.?\/?([A-Za-z0-9-]+)\.md$/.exec(href);
      out.push(h('a', { href: local ? '/api/v1/runbooks/' + local[1] : safe, rel: 'noopener' }, label));
    } else out.push(h('em', null, t.slice(1, -1)));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function markdown(src) {
  const root = h('div', { class: 'markdown' });
  const lines = src.replace(/\r/g, '').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i++;
      root.append(h('pre', null, h('code', null, code.join('\n'))));
    } else if (/^#{1,6}\s/.test(line)) {
      const level = Math.min(6, line.match(/^#+/)[0].length + 1); // the page owns h1
      root.append(h('h' + level, null, inline(line.replace(/^#+\s*/, ''))));
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows = [];
      while (i < lines.length && /^\s*\|/.test(lines[i])) rows.push(lines[i++]);
      const cells = (r) => r.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
      const body = rows.filter((r) => !/^\s*\|[\s|:-]+\|\s*$/.test(r)).map(cells);
      const head = body.shift() || [];
      const hasHead = head.some((c) => c);
      root.append(h('table', { class: 'grid compact' }, hasHead ? h('thead', null, h('tr', null, head.map((c) => h('th', { scope: 'col' }, inline(c))))) : null,
        h('tbody', null, body.map((r) => h('tr', null, r.map((c) => h('td', null, inline(c))))))));
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const list = h(ordered ? 'ol' : 'ul');
      while (i < lines.length && /^\s*([-*]|\d+\.)\s/.test(lines[i])) {
        let item = lines[i++].replace(/^\s*([-*]|\d+\.)\s/, '');
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !/^\s*([-*]|\d+\.)\s/.test(lines[i])) item += ' ' + lines[i++].trim();
        list.append(h('li', null, inline(item)));
      }
      root.append(list);
    } else if (!line.trim()) {
      i++;
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !/^(#|```|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i])) para.push(lines[i++]);
      root.append(h('p', null, inline(para.join(' '))));
    }
  }
  return root;
}
