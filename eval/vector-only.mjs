#!/usr/bin/env node
// Symbol vectors alone as a file ranker, on tasks in the format of ../shared/eval/dev-tasks.jsonl:
// each non-test symbol's embedText is embedded, the task description is embedded, and files are
// ranked by their best symbol's cosine. Gold = source_files_edited. This measures one signal in
// isolation (for choosing a model or recipe), not cg's ranking.
//
// Usage: npm run build && node eval/vector-only.mjs [--models cg/glove-100d,owner/name] [--tasks FILE]
//                                                   [--mirrors DIR] [--cache DIR] [--out FILE]
//   A checkout that already has a .codegraph index (e.g. from eval/run.mjs) is read as it is;
//   otherwise it is indexed first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { checkout } from './lib/checkout.mjs';
import { fileMetrics, mean } from './lib/metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const mirrors = opt('--mirrors', '/work/.mirror');
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const models = opt('--models', 'cg/glove-100d').split(',');
const out = opt('--out', path.join(here, 'results', 'vector-only.json'));

const { buildIndex } = await import('../dist/indexer/build.js');
const { loadEmbedder } = await import('../dist/vectors/embedder.js');
const { embedText } = await import('../dist/vectors/text.js');

function indexDb(dir) {
  const current = path.join(dir, '.codegraph', 'CURRENT');
  const id = fs.readFileSync(current, 'utf8').trim();
  return path.join(dir, '.codegraph', 'builds', id, 'index.db');
}

/** Non-test symbols with the fields embedText reads (columns every schema version so far has). */
async function symbolsOf(dir) {
  if (!fs.existsSync(path.join(dir, '.codegraph', 'CURRENT'))) await buildIndex(dir);
  const db = new Database(indexDb(dir), { readonly: true });
  try {
    return db.prepare(`SELECT s.name, s.qualified_name AS qualifiedName, s.signature, s.doc, s.mutates, f.path
      FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.kind != 'module' AND f.is_test = 0`).all()
      .map((s) => ({ path: s.path, text: embedText({ ...s, mutates: JSON.parse(s.mutates) }) }));
  } finally {
    db.close();
  }
}

const tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const data = [];
for (const [i, t] of tasks.entries()) {
  data.push({ t, syms: await symbolsOf(checkout(t, { mirrors, cache })) });
  process.stderr.write(`\r${i + 1}/${tasks.length} ${t.task_id}          `);
}
process.stderr.write('\n');
const texts = [...new Set(data.flatMap((d) => d.syms.map((s) => s.text)))];

const dot = (a, b) => { let s = 0; for (let k = 0; k < a.length; k++) s += a[k] * b[k]; return s; };
const report = { date: new Date().toISOString(), tasks: tasks.length, distinctTexts: texts.length, models: {} };
for (const id of models) {
  const embedder = await loadEmbedder({ id, pooling: 'mean', normalize: true });
  const t0 = performance.now();
  const byText = new Map((await embedder.embed(texts)).map((v, i) => [texts[i], v]));
  const embedMs = performance.now() - t0;
  const queries = await embedder.embed(data.map((d) => d.t.description));
  const rows = data.map((d, i) => {
    const best = new Map();
    for (const s of d.syms) {
      const c = dot(byText.get(s.text), queries[i]);
      if (!(best.get(s.path) >= c)) best.set(s.path, c);
    }
    const ranked = [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
    return { hard: !d.t.description_mentions_edited_symbol, ...fileMetrics(ranked, d.t.source_files_edited) };
  });
  const hard = rows.filter((r) => r.hard);
  const m = { mrr: mean(rows, 'mrr'), 'r@1': mean(rows, 'r@1'), 'r@5': mean(rows, 'r@5'), 'hit@10': mean(rows, 'hit@10'),
    hardMrr: mean(hard, 'mrr'), textsPerSecond: Math.round(texts.length / (embedMs / 1000)) };
  report.models[id] = m;
  console.log(`${id}: MRR ${m.mrr.toFixed(3)}, r@1 ${m['r@1'].toFixed(3)}, r@5 ${m['r@5'].toFixed(3)}, hit@10 ${m['hit@10'].toFixed(3)}, `
    + `hard-slice MRR ${m.hardMrr.toFixed(3)} (${texts.length} distinct texts, ${m.textsPerSecond} texts/s)`);
  await embedder.dispose();
}
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
