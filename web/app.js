// cg view: the page. Each view asks the local server (src/view/server.ts) for the same answer the CLI
// gives, draws it with cytoscape and lists it in the side panel. Views are addressed by the URL hash:
// #map, #symbol/<id>, #impact/<id>, #query/<text>. Clicking a symbol node adds its neighbours (expand);
// double-clicking it, or clicking an edge, opens the symbol at the other end (follow).
'use strict';

const $ = (sel) => document.querySelector(sel);
const state = { view: 'map', data: null, cy: null, ready: false };
window.cgView = state; // for people debugging in the console, and for the browser tests

const KIND_COLORS = { calls: '#3b7dd8', imports: '#8a63d2', extends: '#d2691e', implements: '#d2691e', tests: '#2e9d57', contains: '#aaaaaa' };

async function api(pathname, params = {}) {
  const qs = new URLSearchParams(params).toString();
  const res = await fetch(`${pathname}${qs ? `?${qs}` : ''}`);
  const body = res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error(body?.error ? `${body.error.message}${body.error.hint ? ` (${body.error.hint})` : ''}` : String(body));
  return body;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const symbolLink = (id, label, extra = '') => `<a data-open="${id}" title="open">${esc(label)}</a>${extra}`;

function draw(elements, layout) {
  state.ready = false;
  if (state.cy) state.cy.destroy();
  state.cy = cytoscape({
    container: $('#graph'),
    elements,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 9, 'text-wrap': 'ellipsis', 'text-max-width': 160, 'background-color': '#5b8def',
        width: 'mapData(size, 0, 1, 12, 40)', height: 'mapData(size, 0, 1, 12, 40)', color: '#222' } },
      { selector: 'node.center', style: { 'background-color': '#e0533d', 'font-weight': 'bold' } },
      { selector: 'node.test', style: { 'background-color': '#2e9d57' } },
      { selector: 'node.file', style: { shape: 'round-rectangle' } },
      { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8,
        'line-color': (e) => KIND_COLORS[e.data('kind')] || '#999', 'target-arrow-color': (e) => KIND_COLORS[e.data('kind')] || '#999' } },
      { selector: ':selected', style: { 'border-width': 3, 'border-color': '#ffb000', 'line-color': '#ffb000', 'target-arrow-color': '#ffb000' } },
    ],
    layout: { name: layout, animate: false, fit: true, padding: 30 },
  });
  state.cy.on('tap', 'node', (ev) => onNodeTap(ev.target));
  state.cy.on('dbltap', 'node', (ev) => { if (ev.target.data('symbolId')) go(`symbol/${ev.target.data('symbolId')}`); });
  state.cy.on('tap', 'edge', (ev) => onEdgeTap(ev.target));
  state.ready = true;
}

function symbolElements(nodes, edges, centerIds = []) {
  const els = nodes.map((n) => ({ data: { id: `s${n.id}`, symbolId: n.id, label: n.label, kind: n.kind, file: n.file, size: 0.4 },
    classes: [centerIds.includes(n.id) ? 'center' : '', /test/i.test(n.file) ? 'test' : ''].join(' ') }));
  const have = new Set(nodes.map((n) => n.id));
  edges.forEach((e, i) => {
    if (have.has(e.source) && have.has(e.target)) els.push({ data: { id: `e${e.source}-${e.target}-${e.kind}-${i}`, source: `s${e.source}`, target: `s${e.target}`, kind: e.kind } });
  });
  return els;
}

// ---- views ----

async function showMap() {
  const m = await api('/api/map', { budget: 4000 });
  state.data = m;
  const top = m.files[0]?.rank || 1;
  draw([
    ...m.files.map((f) => ({ data: { id: `f:${f.path}`, label: f.path, file: f.path, size: f.rank / top }, classes: 'file' })),
    ...m.links.map((l, i) => ({ data: { id: `l${i}`, source: `f:${l.from}`, target: `f:${l.to}`, kind: 'calls' } })),
  ], 'cose');
  $('#panel').innerHTML = `<h2>Repository map</h2><p class="muted">${m.files.length} of ${m.total_files} files by PageRank, and the calls and imports between them.</p>`
    + `<ul id="files">${m.files.map((f) => `<li data-file="${esc(f.path)}"><b>${esc(f.path)}</b><ul>${f.symbols.slice(0, 6)
      .map((s) => `<li>${esc(s.kind)} ${esc(s.symbol)} <span class="muted">:${s.line}</span></li>`).join('')}</ul></li>`).join('')}</ul>`;
}

async function showSymbol(id) {
  if (!id) {
    $('#panel').innerHTML = '<h2>Symbol</h2><p>Find a symbol with the search box, or open one from another view.</p>';
    draw([], 'grid');
    return;
  }
  const n = await api('/api/symbol', { id });
  state.data = n;
  draw(symbolElements(n.nodes, n.edges, [n.center.id]), 'concentric');
  const byKind = {};
  for (const e of n.edges) {
    const other = e.source === n.center.id ? e.target : e.source;
    const dir = e.source === n.center.id ? 'out' : 'in';
    (byKind[`${e.kind} ${dir}`] ||= new Set()).add(other);
  }
  const label = new Map(n.nodes.map((x) => [x.id, x]));
  const list = (key, title, ulId) => {
    const ids = [...(byKind[key] || [])];
    return `<h3>${title} (${ids.length})</h3><ul id="${ulId}">${ids.map((x) => `<li>${symbolLink(x, label.get(x).label, ` <span class="muted">${esc(label.get(x).file)}:${label.get(x).line}</span>`)}</li>`).join('')}</ul>`;
  };
  $('#panel').innerHTML = `<h2>${esc(n.center.kind)} ${esc(n.center.label)}</h2><p class="muted">${esc(n.center.file)}:${n.center.line} · `
    + `<a href="#impact/${n.center.id}">impact of a change</a></p>`
    + list('calls in', 'Callers', 'callers') + list('calls out', 'Callees', 'callees') + list('imports in', 'Imported by', 'importers')
    + list('tests in', 'Tested by', 'testers') + list('extends in', 'Subtypes', 'subtypes') + list('extends out', 'Extends', 'supertypes')
    + list('contains out', 'Members', 'members') + list('contains in', 'Inside', 'container')
    + '<p class="muted">Click a node to add its neighbours; double-click it, or click an edge, to open the symbol at its end.</p>';
}

async function showImpact(id) {
  if (!id) {
    $('#panel').innerHTML = '<h2>Impact</h2><p>Open a symbol and choose "impact of a change", or search for one.</p>';
    draw([], 'grid');
    return;
  }
  const r = await api('/api/impact', { id });
  state.data = r;
  const g = r.graph;
  const changed = g.nodes.filter((x) => x.changed).map((x) => x.id);
  draw(symbolElements(g.nodes.map((x) => ({ id: x.id, label: x.symbol, file: x.file })),
    g.edges.map((e) => ({ source: e.from, target: e.to, kind: e.relation })), changed), 'breadthfirst');
  $('#panel').innerHTML = `<h2>Impact of changing ${esc(r.targets.map((t) => t.symbol).join(', '))}</h2>`
    + `<p>Risk: <b>${esc(r.risk.level)}</b> <span class="muted">${esc(r.risk.reasons.join('; '))}</span></p>`
    + `<h3>Dependents (${r.dependents.length})</h3><ul id="dependents">${r.dependents.map((d) => `<li>${symbolLink(d.id, d.symbol, ` <span class="muted">${esc(d.relation)}, depth ${d.depth}</span>`)}</li>`).join('')}</ul>`
    + `<h3>Tests (${r.tests.length})</h3><ul id="tests">${r.tests.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>`;
}

async function showQuery(text) {
  $('#query').value = text || '';
  if (!text) {
    $('#panel').innerHTML = '<h2>Query</h2><p>Describe a task above: the places cg ranks for it are drawn with the edges between them.</p>';
    draw([], 'grid');
    return;
  }
  const r = await api('/api/query', { q: text });
  state.data = r;
  draw(symbolElements(r.nodes, r.edges, r.nodes.slice(0, 1).map((x) => x.id)), 'cose');
  $('#panel').innerHTML = `<h2>“${esc(text)}”</h2><ol id="places">${r.places.map((p) => `<li data-path="${esc(p.path)}">`
    + `${p.id ? symbolLink(p.id, p.symbol || p.path) : esc(p.path)} <span class="muted">${esc(p.path)}:${p.lines[0]}-${p.lines[1]}</span><br><span class="muted">${esc(p.rationale)}</span></li>`).join('')}</ol>`;
}

// ---- interaction ----

async function onNodeTap(n) {
  const id = n.data('symbolId');
  if (!id) {
    // A file of the map: its entry in the panel.
    document.querySelector(`#files li[data-file="${CSS.escape(n.data('file'))}"]`)?.scrollIntoView({ block: 'center' });
    return;
  }
  if (state.view !== 'symbol') return;
  // Expand: the tapped symbol's neighbours join the picture.
  const nb = await api('/api/symbol', { id });
  const add = symbolElements(nb.nodes, nb.edges).filter((el) => !state.cy.getElementById(el.data.id).length);
  state.cy.add(add.filter((el) => !el.data.source));
  state.cy.add(add.filter((el) => el.data.source && state.cy.getElementById(el.data.source).length && state.cy.getElementById(el.data.target).length));
  state.cy.layout({ name: 'concentric', animate: false, fit: true, padding: 30 }).run();
  state.expanded = (state.expanded || 0) + 1;
}

function onEdgeTap(e) {
  const target = e.target();
  const id = target.data('symbolId');
  // Follow: open what the edge points at (for a map link, the file it points at).
  if (id) go(`symbol/${id}`);
  else onNodeTap(target);
}

function go(hash) {
  state.loaded = false;
  if (location.hash === `#${hash}`) route();
  else location.hash = hash;
}

async function route() {
  const [view, ...rest] = decodeURIComponent(location.hash.slice(1) || 'map').split('/');
  state.view = ['map', 'symbol', 'impact', 'query'].includes(view) ? view : 'map';
  state.expanded = 0;
  document.querySelectorAll('header nav a').forEach((a) => a.classList.toggle('active', a.dataset.view === state.view));
  $('#query-form').hidden = state.view !== 'query';
  const arg = rest.join('/');
  state.loaded = false;
  try {
    if (state.view === 'map') await showMap();
    else if (state.view === 'symbol') await showSymbol(arg);
    else if (state.view === 'impact') await showImpact(arg);
    else await showQuery(arg);
  } catch (err) {
    $('#panel').innerHTML = `<p class="error">${esc(err.message)}</p>`;
  }
  state.loaded = true;
  state.route = location.hash;
}

let searchTimer = null;
$('#search').addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(async () => {
    const q = $('#search').value.trim();
    const ul = $('#results');
    if (!q) {
      ul.hidden = true;
      return;
    }
    const r = await api('/api/search', { q });
    ul.innerHTML = r.symbols.map((s) => `<li data-id="${s.id}">${esc(s.kind)} <b>${esc(s.label)}</b> <span class="muted">${esc(s.file)}:${s.line}</span></li>`).join('')
      || '<li class="muted">no symbol matches</li>';
    ul.hidden = false;
  }, 150);
});
$('#results').addEventListener('click', (ev) => {
  const li = ev.target.closest('li[data-id]');
  if (!li) return;
  $('#results').hidden = true;
  go(`symbol/${li.dataset.id}`);
});
$('#panel').addEventListener('click', (ev) => {
  const a = ev.target.closest('a[data-open]');
  if (a) go(`symbol/${a.dataset.open}`);
});
$('#query-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  go(`query/${encodeURIComponent($('#query').value.trim())}`);
});
window.addEventListener('hashchange', route);

api('/api/status').then((s) => {
  $('#repo').textContent = `cg view · ${s.repository}`;
  $('#status').textContent = `${s.files} files, ${s.symbols} symbols · index ${s.freshness.indexedCommit ? s.freshness.indexedCommit.slice(0, 10) : 'no commit'}, generation ${s.freshness.generation}`
    + (s.freshness.behindHead || s.freshness.pendingChanges ? ' · behind: run cg update' : '');
}).catch((err) => { $('#status').textContent = err.message; });
route();
