#!/usr/bin/env node
// Retrieval benchmark (issue 4): a full index including embeddings of a ~30k-line repository, and
// warm `cg query` latency with the query's embedding, against the evaluation's whole-file BM25
// measured in the same run on the same files.
//
// Default corpus: rich from Debian's python3-rich (`apt-get install python3-rich`, ~26k lines of
// Python). Queries: the dev-set task descriptions of Textualize/rich (../shared/eval/dev-tasks.jsonl),
// which are real requests against this code base.
//
//   index:  N runs on a fresh copy (git repository, one commit): buildIndex in-process (phases),
//           and `cg index --full` as a child process (Node start-up included); BM25 index build.
//   query:  in-process and warm (model loaded, files open): every query once to warm up, then R
//           rounds; cg's default preset (hybrid: full-text + vectors + graph), the lexical preset
//           (no query embedding), and BM25 over its prebuilt index. Medians and p95.
//   cold:   `cg query` as a child process: Node start-up, model load and query.
//
// Usage: npm run build && node eval/bench-retrieval.mjs [--corpus DIR] [--runs 3] [--rounds 5] [--repo owner/name]
//                                                        [--tasks FILE] [--out FILE]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bm25Index, bm25Query, pool } from './lib/bm25.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cg = path.join(here, '..', 'bin', 'cg.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', '/usr/lib/python3/dist-packages/rich');
const runs = Number(opt('--runs', '3'));
const rounds = Number(opt('--rounds', '5'));
const repo = opt('--repo', 'Textualize/rich');
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const out = opt('--out', path.join(here, 'results', 'bench-retrieval.json'));
if (!fs.existsSync(corpus)) {
  console.error(`Corpus not found: ${corpus}\nInstall it with: apt-get install python3-rich   (or pass --corpus DIR)`);
  process.exit(2);
}

const { buildIndex } = await import('../dist/indexer/build.js');
const { openReader } = await import('../dist/store/db.js');
const { runQuery } = await import('../dist/retrieve/query.js');
const { DEFAULT_RANKER_FILE, parseModel } = await import('../dist/retrieve/ranker.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const ms = (x) => `${x.toFixed(1)} ms`;

const FALLBACK_QUERIES = ['render a table with a title and borders', 'progress bar with elapsed time column', 'highlight python syntax in the console',
  'wrap long text to the console width', 'markdown heading style', 'traceback with local variables', 'pretty print nested data structures',
  'live display refresh rate', 'export console output as html', 'emoji codes in text'];
let queries = FALLBACK_QUERIES;
if (fs.existsSync(tasksFile)) {
  const mine = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((t) => t.repo === repo);
  if (mine.length) queries = mine.map((t) => t.description);
}

/** A fresh git repository holding a copy of the corpus (the directory itself, so package imports resolve). */
function freshCopy() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-bench-retrieval-'));
  fs.cpSync(corpus, path.join(dir, path.basename(corpus)), { recursive: true });
  const git = (...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'corpus');
  return dir;
}

const root = freshCopy();
const files = pool(root, { tests: true });
const loc = files.reduce((n, f) => n + fs.readFileSync(path.join(root, f), 'utf8').split('\n').length, 0);
console.log(`Corpus ${corpus}: ${files.length} files, ${loc.toLocaleString('en-US')} lines; ${queries.length} queries; `
  + `${os.cpus()[0].model}, ${os.availableParallelism()} cores`);

// ---- index ----------------------------------------------------------------------------------
const index = { inProcess: [], cli: [], bm25: [], embed: [], vectors: 0 };
for (let i = 0; i < runs; i++) {
  fs.rmSync(path.join(root, '.codegraph'), { recursive: true, force: true });
  let t = performance.now();
  const s = await buildIndex(root);
  index.inProcess.push(performance.now() - t);
  index.embed.push(s.phasesMs.embed);
  index.vectors = s.vectors.count;
  fs.rmSync(path.join(root, '.codegraph'), { recursive: true, force: true });
  t = performance.now();
  const res = spawnSync(process.execPath, [cg, 'index', '--full', '--json'], { cwd: root, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`cg index failed: ${res.stderr}`);
  index.cli.push(performance.now() - t);
  t = performance.now();
  bm25Index(root, pool(root, { tests: false }));
  index.bm25.push(performance.now() - t);
}
const ix = { inProcessMs: median(index.inProcess), cliMs: median(index.cli), embedMs: median(index.embed), bm25Ms: median(index.bm25),
  vectors: index.vectors };
console.log(`index (median of ${runs}): in-process ${ms(ix.inProcessMs)} (embedding ${ms(ix.embedMs)}, ${ix.vectors} vectors), `
  + `cg index --full ${ms(ix.cliMs)}; BM25 index ${ms(ix.bm25Ms)} (x${(ix.inProcessMs / ix.bm25Ms).toFixed(1)})`);

// ---- warm queries -----------------------------------------------------------------------------
const db = openReader(root);
const bm = bm25Index(root, pool(root, { tests: false }));
const timings = { learned: [], hybrid: [], lexical: [], bm25: [] };
for (const q of queries) {
  await runQuery(db, root, { text: q, preset: 'learned' });
  await runQuery(db, root, { text: q, preset: 'hybrid' });
  await runQuery(db, root, { text: q, preset: 'lexical' });
}
for (let r = 0; r < rounds; r++) {
  for (const q of queries) {
    let t = performance.now();
    await runQuery(db, root, { text: q, preset: 'learned' });
    timings.learned.push(performance.now() - t);
    t = performance.now();
    await runQuery(db, root, { text: q, preset: 'hybrid' });
    timings.hybrid.push(performance.now() - t);
    t = performance.now();
    await runQuery(db, root, { text: q, preset: 'lexical' });
    timings.lexical.push(performance.now() - t);
    t = performance.now();
    bm25Query(bm, q);
    timings.bm25.push(performance.now() - t);
  }
}
db.close();
const qs = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, { medianMs: median(v), p95Ms: p95(v), n: v.length }]));
for (const [k, v] of Object.entries(qs)) console.log(`query ${k.padEnd(8)} median ${ms(v.medianMs)}, p95 ${ms(v.p95Ms)} (n=${v.n})`);
console.log(`hybrid / BM25: median x${(qs.hybrid.medianMs / qs.bm25.medianMs).toFixed(1)}, p95 x${(qs.hybrid.p95Ms / qs.bm25.p95Ms).toFixed(1)}`);

// ---- the learned ranker's model load: read, parse and check the shipped file, as the first query of a process does
const modelLoad = [];
for (let r = 0; r < 7; r++) {
  const t = performance.now();
  parseModel(JSON.parse(fs.readFileSync(DEFAULT_RANKER_FILE, 'utf8')));
  modelLoad.push(performance.now() - t);
}
console.log(`ranker model load: median ${ms(median(modelLoad))}, max ${ms(Math.max(...modelLoad))} (${(fs.statSync(DEFAULT_RANKER_FILE).size / 1024).toFixed(0)} KiB)`);

// ---- cold CLI queries ---------------------------------------------------------------------------
const cold = [];
for (const q of queries.slice(0, 5)) {
  const t = performance.now();
  const res = spawnSync(process.execPath, [cg, 'query', q, '--json'], { cwd: root, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`cg query failed: ${res.stderr}`);
  cold.push(performance.now() - t);
}
const coldLexical = [];
for (const q of queries.slice(0, 5)) {
  const t = performance.now();
  spawnSync(process.execPath, [cg, 'query', q, '--json', '--preset', 'lexical'], { cwd: root, encoding: 'utf8' });
  coldLexical.push(performance.now() - t);
}
console.log(`cold \`cg query\` (process start, model load, query): median ${ms(median(cold))}; with --preset lexical ${ms(median(coldLexical))}`);

const report = {
  date: new Date().toISOString(), machine: `${os.cpus()[0].model}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  node: process.version, corpus, files: files.length, loc, queries: queries.length, runs, rounds,
  index: ix, query: qs, rankerLoad: { medianMs: median(modelLoad), maxMs: Math.max(...modelLoad) }, cold: { hybridMedianMs: median(cold), lexicalMedianMs: median(coldLexical) },
};
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
fs.rmSync(root, { recursive: true, force: true });
