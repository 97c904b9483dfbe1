#!/usr/bin/env node
// Is cg's confidence a probability an agent can trust? On a task set: a reliability diagram and the
// expected calibration error of the confidence of the files `cg query` returns (label: the task's
// commit edited the file, tests included), and how much recall@1 the "nothing matched well" flag costs
// (the flagged tasks' recall@1, as if the agent threw their answer away). On the queries of
// eval/no-answer.jsonl written for the same repositories: how many come back empty_results or flagged.
//
// Usage: node eval/confidence.mjs --tasks FILE --set dev|heldout [--mirrors DIR] [--cache DIR] [--out PREFIX]
//   The no-answer queries of a repository run against its checkout of the set's latest task.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexedCheckout } from './lib/indexed.mjs';
import { runQuery } from '../dist/retrieve/query.js';
import { loadConfidence } from '../dist/retrieve/confidence.js';
import { reliabilityTable } from '../train/gbdt.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const set = opt('--set', 'dev');
const mirrors = opt('--mirrors', '/work/.mirror');
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const out = opt('--out', path.join(here, 'results', `confidence-${set}`));

const model = loadConfidence();
if (!model.ok) throw new Error(model.warning);
const tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const noAnswer = fs.readFileSync(path.join(here, 'no-answer.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  .filter((q) => q.set === set);

const indexed = (task) => indexedCheckout(task, { mirrors, cache });

const flaggedLevel = (res) => res.status === 'empty_results' || res.confidence_level === 'low';
const pairs = [];
const taskRows = [];
for (const [i, task] of tasks.entries()) {
  process.stderr.write(`\r${i + 1}/${tasks.length} ${task.task_id}          `);
  const { dir, db } = await indexed(task);
  try {
    const res = await runQuery(db, dir, { text: task.description });
    const places = res.status === 'empty_results' ? res.weak_candidates ?? [] : res.files;
    const byFile = new Map();
    for (const e of places) byFile.set(e.path, Math.max(byFile.get(e.path) ?? 0, e.confidence));
    const touched = new Set(task.files_edited);
    for (const [p, c] of byFile) pairs.push({ p: c, y: touched.has(p) ? 1 : 0 });
    const first = places[0]?.path;
    const r1 = first && task.source_files_edited.includes(first) ? 1 / task.source_files_edited.length : 0;
    taskRows.push({ task: task.task_id, language: task.language, level: res.confidence_level ?? null, status: res.status, best: Math.max(0, ...byFile.values()), r1, flagged: flaggedLevel(res) });
  } finally {
    db.close();
  }
}
process.stderr.write('\n');
const latest = new Map();
for (const t of tasks) if (!latest.has(t.repo) || latest.get(t.repo).date < t.date) latest.set(t.repo, t);
const noRows = [];
for (const q of noAnswer) {
  const { dir, db } = await indexed(latest.get(q.repo));
  try {
    const res = await runQuery(db, dir, { text: q.query });
    const places = res.status === 'empty_results' ? res.weak_candidates ?? [] : res.files;
    noRows.push({ repo: q.repo, kind: q.kind, query: q.query, status: res.status, level: res.confidence_level ?? null, best: Math.max(0, ...places.map((e) => e.confidence)), flagged: flaggedLevel(res) });
  } finally {
    db.close();
  }
}

const rel = reliabilityTable(pairs);
const n = taskRows.length;
const summary = {
  tasks: n, files: pairs.length, ece: rel.ece, bins: rel.bins,
  recallAt1: taskRows.reduce((a, r) => a + r.r1, 0) / n,
  recallAt1Lost: taskRows.filter((r) => r.flagged).reduce((a, r) => a + r.r1, 0) / n,
  tasksFlagged: taskRows.filter((r) => r.flagged).length / n,
  noAnswer: noRows.length, noAnswerFlagged: noRows.filter((r) => r.flagged).length / Math.max(1, noRows.length),
  noAnswerEmpty: noRows.filter((r) => r.status === 'empty_results').length,
  byKind: Object.fromEntries([...new Set(noRows.map((r) => r.kind))].map((k) => {
    const rs = noRows.filter((r) => r.kind === k);
    return [k, { n: rs.length, flagged: rs.filter((r) => r.flagged).length }];
  })),
  thresholds: model.model.thresholds,
};
const bar = (x) => '#'.repeat(Math.round(x * 40));
const md = [
  `# Confidence: ${path.basename(tasksFile)} (${n} tasks) and ${noRows.length} no-answer queries (${set})`,
  '',
  `Run ${new Date().toISOString()} on ${os.cpus()[0].model}, ${os.availableParallelism()} cores; cg's default preset and budget. `
    + `Confidence: the probability that the task edits a returned place's file (src/retrieve/confidence.ts, fitted on training repositories only); `
    + `thresholds low ${model.model.thresholds.low}, none ${model.model.thresholds.none}.`,
  '',
  `- Expected calibration error over the ${pairs.length} files the answers returned: **${rel.ece.toFixed(3)}**`,
  `- Real tasks flagged (low confidence or empty): ${(100 * summary.tasksFlagged).toFixed(1)} %; recall@1 ${summary.recallAt1.toFixed(3)}, of it held by flagged tasks (the drop if an agent discards them): **${summary.recallAt1Lost.toFixed(3)}**`,
  `- No-answer queries flagged: **${noRows.filter((r) => r.flagged).length} of ${noRows.length}** (${(100 * summary.noAnswerFlagged).toFixed(0)} %; ${summary.noAnswerEmpty} of them empty_results); `
    + Object.entries(summary.byKind).map(([k, v]) => `${k} ${v.flagged}/${v.n}`).join(', '),
  '',
  '## Reliability diagram (returned files)',
  '',
  '| confidence | files | mean confidence | share edited | |',
  '|---|---|---|---|---|',
  ...rel.bins.map((b) => `| ${b.lo.toFixed(1)}-${b.hi.toFixed(1)} | ${b.n} | ${b.meanP.toFixed(3)} | ${b.rate.toFixed(3)} | \`${bar(b.rate).padEnd(40)}\` |`),
  '',
  '## No-answer queries',
  '',
  '| repository | kind | answer | best confidence | query |',
  '|---|---|---|---|---|',
  ...noRows.map((r) => `| ${r.repo} | ${r.kind} | ${r.status === 'empty_results' ? 'empty_results' : r.level === 'low' ? 'flagged low' : 'ok (not flagged)'} | ${r.best.toFixed(3)} | ${r.query} |`),
  '',
  '## Real tasks flagged',
  '',
  '| task | answer | best confidence | recall@1 |',
  '|---|---|---|---|',
  ...taskRows.filter((r) => r.flagged).map((r) => `| ${r.task} | ${r.status === 'empty_results' ? 'empty_results' : 'flagged low'} | ${r.best.toFixed(3)} | ${r.r1.toFixed(2)} |`),
];
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(`${out}.md`, `${md.join('\n')}\n`);
fs.writeFileSync(`${out}.json`, `${JSON.stringify({ summary, tasks: taskRows, noAnswer: noRows }, null, 1)}\n`);
console.log(md.slice(0, 9).join('\n'));
