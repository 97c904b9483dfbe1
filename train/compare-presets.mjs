#!/usr/bin/env node
// BM25 (the evaluation's baseline over non-test files) against cg's ranking presets on the training
// corpus's tasks (train/mine-corpus.mjs), by the same counting as the evaluation: whether the first file
// is one the task's commit edited (hit@1), and the reciprocal rank of the first such file among the
// answer's files and then its `more_files` (MRR). One index per repository, at the corpus's index commit
// (the checkouts train/dump-features.mjs leaves; built here when missing). `--validation` limits it to
// the shipped ranker's validation repositories, the ones its fit never saw: the place to compare
// `learned` with anything. No evaluation set is read.
//
// Usage: npm run build && node train/compare-presets.mjs [--corpus $TMPDIR/cg-train] [--presets default,hybrid]
//          [--validation | --repos owner/name,...] [--out FILE]
//   --out writes the figures overall, per language and per repository (no task text).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_QUERY_CHARS, runQuery } from '../dist/retrieve/query.js';
import { loadRanker } from '../dist/retrieve/ranker.js';
import { bm25Rank, pool } from '../eval/lib/bm25.mjs';
import { checkout, indexOf, taskHistories } from './checkouts.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const mirrors = opt('--mirrors', '/work/.mirror');
const presets = opt('--presets', 'default,hybrid').split(',');
const systems = ['bm25', ...presets];
let only = opt('--repos') ? new Set(opt('--repos').split(',')) : null;
if (args.includes('--validation')) {
  const ranker = loadRanker();
  if (!ranker.ok) throw new Error(ranker.warning);
  only = new Set(ranker.model.manifest.validation_repositories);
}
function summary(rows) {
  const out = { tasks: rows.length };
  for (const s of systems) {
    out[s] = { 'hit@1': rows.reduce((a, r) => a + r[s].hit, 0) / (rows.length || 1), mrr: rows.reduce((a, r) => a + r[s].rr, 0) / (rows.length || 1) };
  }
  return out;
}
const line = (label, m) => `${label.padEnd(32)} ${String(m.tasks).padStart(5)}  ${systems.map((s) => `${s} ${m[s]['hit@1'].toFixed(3)} / ${m[s].mrr.toFixed(3)}`).join('   ')}`;

const rows = [];
for (const f of fs.readdirSync(path.join(corpus, 'tasks')).filter((n) => n.endsWith('.jsonl')).sort()) {
  const tasks = fs.readFileSync(path.join(corpus, 'tasks', f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  if (!tasks.length || (only && !only.has(tasks[0].repo))) continue;
  const dir = checkout(path.join(corpus, 'checkouts'), mirrors, tasks[0].repo, tasks[0].index_commit);
  const { db } = await indexOf(dir, tasks[0].index_commit);
  try {
    const bm25Pool = pool(dir, { tests: false });
    const histories = taskHistories(dir, tasks);
    for (const task of tasks) {
      // A description longer than a query may be (a pasted log) is refused by cg: it is left out for every system.
      if (task.description.length > MAX_QUERY_CHARS) continue;
      const gold = new Set(task.source_files_edited);
      const score = (files) => {
        const k = files.findIndex((p) => gold.has(p));
        return { hit: gold.has(files[0]) ? 1 : 0, rr: k < 0 ? 0 : 1 / (k + 1) };
      };
      const row = { repo: task.repo, language: task.language, bm25: score(bm25Rank(dir, bm25Pool, task.description)) };
      for (const p of presets) {
        const a = await runQuery(db, dir, { text: task.description, history: histories.get(task.task_id), budget: 200_000, maxRegions: 30, ...(p === 'default' ? {} : { preset: p }) });
        row[p] = score([...new Set([...a.files.map((e) => e.path), ...(a.more_files ?? [])])]);
      }
      rows.push(row);
    }
  } finally {
    db.close();
  }
  console.error(line(tasks[0].repo, summary(rows.filter((r) => r.repo === tasks[0].repo))));
}
const result = { presets, systems, all: summary(rows), byLanguage: {}, byRepository: {} };
console.log(`hit@1 / MRR (${presets.map((p) => (p === 'default' ? 'default: the configured preset' : p)).join(', ')})`);
console.log(line('all', result.all));
for (const lang of [...new Set(rows.map((r) => r.language))].sort()) {
  result.byLanguage[lang] = summary(rows.filter((r) => r.language === lang));
  console.log(line(lang, result.byLanguage[lang]));
}
for (const repo of [...new Set(rows.map((r) => r.repo))]) result.byRepository[repo] = summary(rows.filter((r) => r.repo === repo));
const out = opt('--out');
if (out) fs.writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
