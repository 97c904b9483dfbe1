#!/usr/bin/env node
// Which files a `cg context` bundle should hold: a sweep of confidence cuts over a task set.
//
// For every task (the evaluation's checkouts and indexes; an index is built where none is usable), the
// bundle as `cg context` packs it with no cut, each of its files with its best place's calibrated
// confidence (src/retrieve/confidence.ts: the probability that the task edits that file) and its
// tokens. Then, for each rule, the bundle that rule keeps: the first file always (the one the ranking
// trusts most), the others while their confidence clears the rule. Reported per rule: bundle recall of
// the edited source files, the share of bundle files the commit never touched (the PRD's precision
// criterion), files and tokens. This simulates the cut on the uncut bundle's files: a cut bundle can
// spend what it saved on fuller sources, not on other files, so the file lists are exact.
//
// Tune on the dev set only; the held-out set measures the chosen rule once.
//
// Usage: npm run build && node eval/bundle-cut.mjs [--tasks FILE] [--cache DIR] [--mirrors DIR] [--budget 3500] [--out FILE.json]
//   The bundles are packed with the cut switched off (minConfidence 0); the rule `confidence >= 0.02` is
//   what the default packing (BUNDLE_MIN_CONFIDENCE) keeps.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkout } from './lib/checkout.mjs';
import { bundleMetrics, mean, median } from './lib/metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const mirrors = opt('--mirrors', '/work/.mirror');
const budget = Number(opt('--budget', '3500'));
const outFile = opt('--out', '');

const { buildIndex } = await import('../dist/indexer/build.js');
const { openReader } = await import('../dist/store/db.js');
const { buildContext } = await import('../dist/retrieve/context.js');
const { runQuery } = await import('../dist/retrieve/query.js');
const { tokenCounter } = await import('../dist/retrieve/tokens.js');
const count = await tokenCounter();

const tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const bundles = [];
for (const [i, task] of tasks.entries()) {
  const dir = checkout(task, { mirrors, cache });
  let db;
  try {
    db = openReader(dir);
  } catch {
    fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
    await buildIndex(dir);
    db = openReader(dir);
  }
  try {
    const b = await buildContext(db, dir, { text: task.description, budget }, { minConfidence: 0 });
    // The bundle's places come from the same ranking; each file's best place confidence.
    const answer = await runQuery(db, dir, { text: task.description, budget: 200_000, snippets: false, maxRegions: 24 });
    const conf = new Map();
    for (const e of answer.files) conf.set(e.path, Math.max(conf.get(e.path) ?? 0, e.confidence));
    bundles.push({ task: task.task_id, language: task.language, gold: task.source_files_edited, touched: task.files_edited,
      status: b.status, files: b.files.map((f) => ({ path: f.path, confidence: conf.get(f.path) ?? 0, tokens: count(f.text) + count(f.path) + 8 })),
      tokens: b.tokens_used });
  } finally {
    db.close();
  }
  process.stderr.write(`\r${i + 1}/${tasks.length} ${task.task_id}          `);
}
process.stderr.write('\n');

/** The files a rule keeps, in the bundle's order: the first always, then those it accepts. */
function cut(b, accepts) {
  const best = b.files[0]?.confidence ?? 0;
  return b.files.filter((f, i) => i === 0 || accepts(f.confidence, best));
}

const rules = [['none', () => true]];
for (const t of [0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3]) rules.push([`confidence >= ${t}`, (c) => c >= t]);
for (const r of [0.05, 0.1, 0.2, 0.3, 0.5]) rules.push([`confidence >= ${r} x best`, (c, best) => c >= r * best]);

const fmt = (x) => (x === null || x === undefined ? '-' : x.toFixed(3));
const report = rules.map(([name, accepts]) => {
  const rows = bundles.map((b) => {
    const kept = cut(b, accepts);
    const tokens = b.tokens - b.files.filter((f) => !kept.includes(f)).reduce((s, f) => s + f.tokens, 0);
    return bundleMetrics(kept.map((f) => f.path), b.gold, tokens, budget, b.touched);
  });
  return { rule: name, recall: mean(rows, 'bundle-recall'), acc: mean(rows, 'bundle-acc'), untouched: mean(rows, 'bundle-untouched'),
    files: mean(rows, 'bundle-files'), tokensMedian: median(rows.map((r) => r.tokens)) };
});
console.log(`# Bundle cuts: ${path.basename(tasksFile)} (${bundles.length} tasks), budget ${budget}\n`);
console.log('| rule | bundle recall | bundle acc | never touched | files | median tokens |');
console.log('|---|---|---|---|---|---|');
for (const r of report) console.log(`| ${r.rule} | ${fmt(r.recall)} | ${fmt(r.acc)} | ${fmt(r.untouched)} | ${r.files.toFixed(1)} | ${Math.round(r.tokensMedian)} |`);
if (outFile) fs.writeFileSync(outFile, `${JSON.stringify({ tasks: path.basename(tasksFile), budget, report, bundles }, null, 1)}\n`);
