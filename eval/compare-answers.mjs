#!/usr/bin/env node
// Same answers from two builds of cg: runs the same queries through two checkouts' dist/ on two indexes of
// the same repository (each built by its own checkout), and compares, at full precision, the lexical
// scores (whole-file and unit BM25, by document, and the order in which documents come) and the whole
// query answer. Also times both, alternating, per query.
//
//   node eval/compare-answers.mjs --base <checkout> --head <checkout> --base-repo <repo indexed by base>
//     --head-repo <repo indexed by head> [--queries 40] [--label django] [--out eval/results/footprint-answers.json]
//
// The queries are the first lines of docstrings in the repository (evenly spaced over the symbols that
// have one) plus a few of their names, so any corpus brings its own. Exit status 1 when anything differs.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { saveResult } from './lib/results.mjs';
import { median } from './lib/metrics.mjs';

const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' }, head: { type: 'string' }, 'base-repo': { type: 'string' }, 'head-repo': { type: 'string' },
    queries: { type: 'string', default: '40' }, label: { type: 'string', default: 'corpus' },
    out: { type: 'string', default: 'eval/results/footprint-answers.json' },
  },
});
for (const k of ['base', 'head', 'base-repo', 'head-repo']) if (!opt[k]) throw new Error(`--${k} is required`);

async function side(checkout, repo) {
  const mod = (p) => import(pathToFileURL(path.join(path.resolve(checkout), 'dist', p)).href);
  const [{ openReader }, lexical, { runQuery }, { queryTerms }] = await Promise.all([mod('store/db.js'), mod('retrieve/lexical.js'),
    mod('retrieve/query.js'), mod('retrieve/rank.js')]);
  return { db: openReader(path.resolve(repo)), root: path.resolve(repo), lexical, runQuery, queryTerms };
}

const base = await side(opt.base, opt['base-repo']);
const head = await side(opt.head, opt['head-repo']);

function pickQueries(db, n) {
  const docs = db.prepare(`SELECT name, doc FROM symbols WHERE doc IS NOT NULL AND length(doc) > 20 AND kind IN ('function', 'method', 'class')
    ORDER BY id`).raw().all();
  const out = [];
  for (let i = 0; i < n && docs.length; i++) {
    const [name, doc] = docs[Math.floor((i * docs.length) / n)];
    const line = doc.split('\n').map((l) => l.trim()).find((l) => l.length > 10) ?? name;
    out.push(i % 4 === 3 ? `${line} ${name}` : line);
  }
  return out;
}

const queries = pickQueries(head.db, Number(opt.queries));
const full = (m) => [...m].map(([k, v]) => [k, v]); // insertion order kept, every bit of the score
const lexicalOf = (s, q) => {
  const terms = s.queryTerms(q);
  return { files: full(s.lexical.bm25(s.db, 'files', terms, s.lexical.FILE_BM25)), units: full(s.lexical.bm25(s.db, 'units', terms, s.lexical.UNIT_BM25)) };
};
const answerOf = async (s, q) => {
  const r = await s.runQuery(s.db, s.root, { text: q });
  return JSON.stringify(r);
};

const differences = [];
const orderOnly = [];
const ms = { base: [], head: [] };
for (const [i, q] of queries.entries()) {
  const a = lexicalOf(base, q);
  const b = lexicalOf(head, q);
  for (const c of ['files', 'units']) {
    const sortedA = JSON.stringify([...a[c]].sort((x, y) => x[0] - y[0]));
    const sortedB = JSON.stringify([...b[c]].sort((x, y) => x[0] - y[0]));
    if (sortedA !== sortedB) differences.push({ query: q, what: `bm25 ${c}` });
    else if (JSON.stringify(a[c]) !== JSON.stringify(b[c])) orderOnly.push({ query: q, what: `bm25 ${c} order` });
  }
  // Alternating, the first one each time swapped.
  const order = i % 2 ? [['head', head], ['base', base]] : [['base', base], ['head', head]];
  const answers = {};
  for (const [name, s] of order) {
    const t0 = performance.now();
    answers[name] = await answerOf(s, q);
    ms[name].push(performance.now() - t0);
  }
  if (answers.base !== answers.head) differences.push({ query: q, what: 'answer' });
}
// A second round of timings, now that both sides are warm.
for (const [i, q] of queries.entries()) {
  const order = i % 2 ? [['head', head], ['base', base]] : [['base', base], ['head', head]];
  for (const [name, s] of order) {
    const t0 = performance.now();
    await answerOf(s, q);
    ms[name].push(performance.now() - t0);
  }
}
const result = {
  date: new Date().toISOString(),
  queries: queries.length,
  identical: differences.length === 0,
  differences,
  bm25OrderOnly: orderOnly.length,
  queryMsMedian: { base: Math.round(median(ms.base) * 10) / 10, head: Math.round(median(ms.head) * 10) / 10 },
};
console.log(JSON.stringify(result, null, 2));
saveResult(opt.out, opt.label, result);
process.exit(differences.length ? 1 : 0);
