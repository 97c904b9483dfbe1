#!/usr/bin/env node
// CodeMem benchmark (issue 16): many projects in one registry, on real repositories.
//
//   federation     p50/p95 of a federated search (and symbols) over every registered project, in-process and warm
//                  (as `cg agent` answers), and of the registry-mode tool call around it (session check, scope, audit)
//   sessions       the cost of one session lookup (validateSession), mean over many
//   incremental    a job re-indexing one project after 10 of its files were modified (what the agent runs per change)
//   pdf            a full index of a folder holding one PDF (extraction, units, embeddings)
//   documents      hand-written queries whose answers live only in Markdown/YAML/JSON/PDF: rank of the first right file
//                  in the search tool's answer (each project's code and documents ranked apart, all lists merged by RRF),
//                  with filter_type documents, and in `cg query --type all`'s (code and documents merged by RRF, then packed)
//   cross refs     every cross-project edge and every use left unlinked, per collection, for checking by hand
//
// Usage:
//   node eval/bench-codemem.mjs --wp PLUGIN,ADDON,... --api SERVER,CLIENT,... --docs DIR --pdf FILE [--runs 30] [--out FILE]
// (the directories are git work trees; clone the mirrors with `git clone --shared`). Nothing is written into them but
// their own .codegraph/; the registry is a temporary CG_HOME.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = (p) => path.join(here, '..', 'dist', p);
const { openRegistry } = await import(dist('registry/db.js'));
const { addProject, requireProject } = await import(dist('registry/projects.js'));
const { indexNow, runJob } = await import(dist('registry/indexing.js'));
const { enqueueJob, claimJob } = await import(dist('registry/jobs.js'));
const { IndexPool, federatedSearch, federatedSymbols } = await import(dist('registry/federate.js'));
const { createScope, validateSession } = await import(dist('registry/sessions.js'));
const { createRegistryServer } = await import(dist('registry/server.js'));
const { buildIndex } = await import(dist('indexer/build.js'));
const { recordSaves } = await import(dist('indexer/update.js'));
const { openReader } = await import(dist('store/db.js'));
const { runQuery } = await import(dist('retrieve/query.js'));

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const list = (name) => (opt(name, '') || '').split(',').filter(Boolean).map((p) => path.resolve(p));
const wp = list('--wp');
const api = list('--api');
const docs = opt('--docs', null);
const pdf = opt('--pdf', null);
const runs = Number(opt('--runs', '30'));
const out = opt('--out', path.join(here, 'results', 'bench-codemem.json'));
const note = opt('--note', 'no note on how busy the machine was');
// --only federation,sessions,incremental,pdf,documents: the parts to run (projects are registered and indexed always).
const only = new Set((opt('--only', 'federation,sessions,incremental,pdf,documents') || '').split(','));

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r2 = (x) => Math.round(x * 100) / 100;
const log = (s) => process.stderr.write(`${s}\n`);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-codemem-'));
const db = openRegistry(home);
const result = { date: new Date().toISOString(), machine: `${os.cpus()[0].model}, ${os.cpus().length} cores`, node: process.version, note,
  loadavg: os.loadavg().map(r2) };

// Register and index ---------------------------------------------------------------------------------------
const projects = [];
const register = async (dir, collection) => {
  const name = path.basename(dir);
  const p = addProject(db, { path: dir, name, collection });
  const started = performance.now();
  const [o] = await indexNow(db, p, 'incremental');
  if (o.error) throw new Error(`${name}: ${o.error}`);
  const commit = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  projects.push({ name, collection, commit: commit.slice(0, 12), files: o.result.files, symbols: o.result.symbols, indexMs: Math.round(performance.now() - started) });
  log(`indexed ${name}: ${o.result.files} files, ${o.result.symbols} symbols`);
  return requireProject(db, name);
};
for (const d of wp) await register(d, 'wordpress');
for (const d of api) await register(d, 'api');
if (docs) await register(docs, 'docs');
result.projects = projects;

// Cross-project references ------------------------------------------------------------------------------------
const edges = db.prepare(`SELECT fp.name AS from_project, us.file AS file, us.line AS line, us.call AS call, us.method AS method, us.name AS used,
    tp.name AS to_project, ps.file AS to_file, ps.line AS to_line, ps.name AS provided, e.type AS type, e.weight AS confidence
  FROM cross_project_edges e JOIN projects fp ON fp.id = e.from_project_id JOIN projects tp ON tp.id = e.to_project_id
  JOIN string_sites us ON us.id = e.from_site JOIN string_sites ps ON ps.id = e.to_site ORDER BY from_project, file, line`).all();
// Uses in one project of a name another project provides, left without an edge (candidates for missed links).
const unlinked = db.prepare(`SELECT p.name AS project, s.file, s.line, s.call, s.method, s.name FROM string_sites s JOIN projects p ON p.id = s.project_id
  WHERE s.role = 'uses' AND NOT EXISTS (SELECT 1 FROM cross_project_edges e WHERE e.from_site = s.id)
    AND (s.kind = 'route' OR EXISTS (SELECT 1 FROM string_sites o WHERE o.project_id != s.project_id AND o.role = 'provides' AND o.kind = 'hook'
      AND substr(o.name, 1, 4) = substr(s.name, 1, 4)))
  ORDER BY project, file, line`).all();
result.crossRefs = { edges: edges.length, byType: Object.fromEntries(['hooks_into', 'depends_on'].map((t) => [t, edges.filter((e) => e.type === t).length])),
  list: edges, unlinked };
log(`cross-project edges: ${edges.length}; unlinked uses worth a look: ${unlinked.length}`);

const pool = new IndexPool();
if (only.has('federation')) {
// Federation latency ---------------------------------------------------------------------------------------------
const all = projects.map((p) => requireProject(db, p.name));
const queries = ['register a custom field type and render it', 'sanitize the value of a field before saving', 'attach posts to a post with drag and drop',
  'search posts from a text field', 'map group fields to a custom post type', 'list articles with pagination', 'add a comment to an article',
  'follow another user profile', 'login with email and password', 'favorite an article', 'reset the state of a store', 'options for a meta box',
  'delete a comment', 'update the current user settings', 'tags of an article', 'how to use a store outside a component', 'hot module replacement',
  'render the field value in the admin', 'jwt token in the request header', 'error handling when the request fails'];
await federatedSearch(pool, all, { query: 'warm up', limit: 10 });
const searchMs = [];
const searchCpuMs = [];
const symbolsMs = [];
for (let i = 0; i < runs; i++) {
  for (const q of queries) {
    let t = performance.now();
    // CPU time as well as wall time: on a shared machine the wall time is mostly waiting for a core; the
    // work is single-threaded, so its CPU time is what it takes on an idle core.
    const cpu = process.cpuUsage();
    await federatedSearch(pool, all, { query: q, limit: 10 });
    searchMs.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    searchCpuMs.push((used.user + used.system) / 1000);
    t = performance.now();
    await federatedSymbols(pool, all, { query: q.split(' ')[0], limit: 20 });
    symbolsMs.push(performance.now() - t);
  }
}
const session = createScope(db, { agentId: 'bench', level: 'global' }).session_id;
const server = createRegistryServer({ db, pool, envSession: null, kick: async () => {} });
const toolMs = [];
for (let i = 0; i < runs; i++) {
  for (const q of queries) {
    const t = performance.now();
    const r = await server.call('search', { query: q, session_id: session });
    toolMs.push(performance.now() - t);
    if (r.isError) throw new Error(JSON.stringify(r.structuredContent));
  }
}
result.federation = {
  projects: all.length, queries: queries.length, runs,
  searchMs: { p50: r2(pct(searchMs, 50)), p95: r2(pct(searchMs, 95)), max: r2(Math.max(...searchMs)) },
  searchCpuMs: { p50: r2(pct(searchCpuMs, 50)), p95: r2(pct(searchCpuMs, 95)) },
  symbolsMs: { p50: r2(pct(symbolsMs, 50)), p95: r2(pct(symbolsMs, 95)) },
  searchToolMs: { p50: r2(pct(toolMs, 50)), p95: r2(pct(toolMs, 95)) },
};
log(`federated search over ${all.length} projects: p50 ${result.federation.searchMs.p50} ms, p95 ${result.federation.searchMs.p95} ms wall; `
  + `CPU p50 ${result.federation.searchCpuMs.p50} ms, p95 ${result.federation.searchCpuMs.p95} ms`);
}

// Session lookup ------------------------------------------------------------------------------------------------------
if (only.has('sessions')) {
  const session = createScope(db, { agentId: 'bench-lookup', level: 'global' }).session_id;
  const N = 100_000;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) validateSession(db, session);
  result.sessionLookupUs = r2(((performance.now() - t0) / N) * 1000);
  log(`session lookup: ${result.sessionLookupUs} µs`);
}

// Incremental re-index of 10 modified files ---------------------------------------------------------------------------------
if (wp.length && only.has('incremental')) {
  const big = requireProject(db, path.basename(wp[0]));
  const idx = openReader(big.path);
  const files = idx.prepare("SELECT path FROM files WHERE language = 'php' AND is_test = 0 ORDER BY loc DESC LIMIT 10").pluck().all();
  idx.close();
  const times = [];
  for (let r = 0; r < 3; r++) {
    for (const [i, f] of files.entries()) fs.appendFileSync(path.join(big.path, f), `\nfunction cg_bench_${r}_${i}() { return apply_filters( 'cg_bench_${r}', ${i} ); }\n`);
    const t = performance.now();
    recordSaves(big.path, files);
    enqueueJob(db, big.id, 'incremental');
    const o = await runJob(db, claimJob(db));
    times.push(performance.now() - t);
    if (o.error || o.result.mode !== 'incremental') throw new Error(`incremental job: ${o.error ?? o.result.mode}`);
  }
  execFileSync('git', ['-C', big.path, 'checkout', '--', '.']);
  result.incremental = { project: big.name, files: files.length, ms: times.map(Math.round), medianMs: Math.round(pct(times, 50)) };
  log(`incremental job, 10 files: ${result.incremental.medianMs} ms`);
}

// PDF ----------------------------------------------------------------------------------------------------------------------
if (pdf && only.has('pdf')) {
  const times = [];
  let units = 0;
  for (let r = 0; r < 3; r++) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-pdf-'));
    fs.copyFileSync(pdf, path.join(dir, path.basename(pdf)));
    const t = performance.now();
    const s = await buildIndex(dir);
    times.push(performance.now() - t);
    units = s.symbols - 1;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  result.pdf = { file: path.basename(pdf), bytes: fs.statSync(pdf).size, pages: units, ms: times.map(Math.round), medianMs: Math.round(pct(times, 50)) };
  log(`pdf ${result.pdf.file}: ${units} pages in ${result.pdf.medianMs} ms`);
}

// Document queries ------------------------------------------------------------------------------------------------------------
// Answers that live only in the docs project's Markdown, YAML and JSON files, and in the PDFs copied into it.
const DOC_QUERIES = [
  ['how to use a store outside of a component, for example in a router navigation guard', ['packages/docs/core-concepts/outside-component-usage.md']],
  ['how do I enable hot module replacement for my stores with Vite', ['packages/docs/cookbook/hot-module-replacement.md']],
  ['how to unit test components that use a store', ['packages/docs/cookbook/testing.md']],
  ['reset the state of a store back to its initial value', ['packages/docs/core-concepts/state.md']],
  ['add a new property to every store with a plugin', ['packages/docs/core-concepts/plugins.md']],
  ['which Node.js version does the CI workflow install', ['.github/workflows/ci.yml']],
  ['what is the codecov coverage threshold', ['codecov.yml']],
  ['which package manager and version does the repository use', ['package.json']],
  ['compute the Hilbert basis of a cone', ['4ti2_manual.pdf']],
  ['set the DEBEMAIL and DEBFULLNAME environment variables for the maintainer name and email', ['debmake-doc.en.pdf']],
];
if (docs && only.has('documents')) {
  const d = openReader(docs);
  const rows = [];
  for (const [q, gold] of DOC_QUERIES) {
    const res = await runQuery(d, docs, { text: q, filterType: 'all' });
    const files = [...new Set(res.files.map((f) => f.path))];
    const rank = files.findIndex((f) => gold.includes(f)) + 1;
    const docOnly = await runQuery(d, docs, { text: q, filterType: 'documents' });
    const dfiles = [...new Set(docOnly.files.map((f) => f.path))];
    // The search tool: code and documents ranked apart and merged by RRF.
    const searched = await federatedSearch(pool, [requireProject(db, path.basename(docs))], { query: q, limit: 10 });
    const sfiles = [...new Set(searched.results.map((h) => h.file_path))];
    rows.push({ query: q, gold, rankSearch: sfiles.findIndex((f) => gold.includes(f)) + 1 || null, top3Search: sfiles.slice(0, 3),
      rankDocumentsOnly: dfiles.findIndex((f) => gold.includes(f)) + 1 || null, rankQuery: rank || null, top3Query: files.slice(0, 3) });
  }
  d.close();
  const within3 = (k) => rows.filter((r) => r[k] && r[k] <= 3).length;
  result.documents = { queries: rows.length, top3Search: within3('rankSearch'), top3DocumentsOnly: within3('rankDocumentsOnly'),
    top3Query: within3('rankQuery'), rows };
  log(`document queries in the top 3: search ${result.documents.top3Search}/${rows.length}, documents only ${result.documents.top3DocumentsOnly}, `
    + `cg query --type all ${result.documents.top3Query}`);
}

pool.close();
db.close();
fs.rmSync(home, { recursive: true, force: true });
fs.mkdirSync(path.dirname(out), { recursive: true });
// A partial run (--only) updates only its parts of the results file.
const previous = fs.existsSync(out) && only.size < 5 ? JSON.parse(fs.readFileSync(out, 'utf8')) : {};
fs.writeFileSync(out, `${JSON.stringify({ ...previous, ...result }, null, 2)}\n`);
log(`wrote ${out}`);
