#!/usr/bin/env node
// Retrieval evaluation over tasks in the format of ../shared/eval/dev-tasks.jsonl: for each task, a
// checkout of the repository at commit_before, the task's description as the query, and the files the
// commit changed as gold. Runs the BM25 baselines and cg in the same run and writes a markdown and a
// JSON report.
//
// Usage: node eval/run.mjs [--tasks FILE] [--mirrors DIR] [--cache DIR] [--systems bm25-nontest,bm25-all,cg,cg:lexical,...]
//                          [--limit N] [--repo owner/name] [--out PREFIX] [--budget 3500]
//   --mirrors: where `fetch` put the repositories (default /work/.mirror, <owner>+<name>/repo)
//   --cache:   where checkouts are made (default $TMPDIR/cg-eval)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkout } from './lib/checkout.mjs';
import { bm25Rank, pool } from './lib/bm25.mjs';
import { bundleMetrics, distinctFiles, fileMetrics, functionMetrics, mean, median } from './lib/metrics.mjs';
import { cgSystem } from './lib/cg-system.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const mirrors = opt('--mirrors', '/work/.mirror');
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const systems = opt('--systems', 'bm25-nontest,bm25-all,cg').split(',');
const limit = Number(opt('--limit', '0'));
const onlyRepo = opt('--repo', '');
const out = opt('--out', path.join(here, 'results', 'dev'));
const budget = Number(opt('--budget', '3500'));

let tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
if (onlyRepo) tasks = tasks.filter((t) => t.repo === onlyRepo);
if (limit) tasks = tasks.slice(0, limit);

const runners = {
  'bm25-nontest': async (dir, task) => ({ files: bm25Rank(dir, pool(dir, { tests: false }), task.description) }),
  'bm25-all': async (dir, task) => ({ files: bm25Rank(dir, pool(dir, { tests: true }), task.description) }),
  cg: cgSystem({ budget, reuseIndex: args.includes('--reuse-index') }),
};
// cg:<preset> (cg:lexical, cg:hybrid, cg:prd, cg:spec004, cg:rrf), and cg:hybrid@<weight> for vector-weight sweeps.
for (const s of systems.filter((x) => x.startsWith('cg:'))) {
  const [preset, weight] = s.slice(3).split('@');
  runners[s] = cgSystem({ budget, reuseIndex: args.includes('--reuse-index'), preset, vectorWeight: weight ? Number(weight) : undefined });
}

const rows = [];
for (const [i, task] of tasks.entries()) {
  const dir = checkout(task, { mirrors, cache });
  for (const system of systems) {
    const row = { system, task: task.task_id, repo: task.repo, language: task.language,
      hard: !task.description_mentions_edited_symbol };
    try {
      const t = performance.now();
      const res = await runners[system](dir, task);
      row.ms = performance.now() - t;
      const files = distinctFiles(res.files);
      Object.assign(row, fileMetrics(files, task.source_files_edited));
      const all = fileMetrics(files, task.files_edited);
      row['all:r@1'] = all['r@1'];
      row['all:mrr'] = all.mrr;
      if (res.symbolsByFile) {
        const fn = functionMetrics(res.symbolsByFile, files, task.functions_edited);
        if (fn) Object.assign(row, fn);
      }
      if (res.bundle) Object.assign(row, bundleMetrics(res.bundle.files, task.source_files_edited, res.bundle.tokens, budget, task.files_edited));
      if (res.bundle8k) {
        const b8 = bundleMetrics(res.bundle8k.files, task.source_files_edited, res.bundle8k.tokens, 8000, task.files_edited);
        row['bundle8k-recall'] = b8['bundle-recall'];
        row['bundle8k-acc'] = b8['bundle-acc'];
        row['bundle8k-untouched'] = b8['bundle-untouched'];
      }
      if (res.indexMs !== undefined) row.indexMs = res.indexMs;
      if (res.queryMs !== undefined) row.queryMs = res.queryMs;
    } catch (err) {
      row.error = String(err?.stack ?? err);
      for (const k of ['r@1', 'r@3', 'r@5', 'r@10', 'acc@5', 'acc@10', 'hit@1', 'hit@5', 'hit@10', 'mrr', 'p@1', 'p@5']) row[k] = 0;
    }
    rows.push(row);
  }
  process.stderr.write(`\r${i + 1}/${tasks.length} ${task.task_id}          `);
}
process.stderr.write('\n');

// ---- report ----------------------------------------------------------------------------------
// Precision sits next to recall: p@k over the ranked files; for bundles, the PRD's share of bundle files
// the commit never touched (lower is better), with the median number of files a bundle holds.
const METRICS = ['r@1', 'r@3', 'r@5', 'r@10', 'p@1', 'p@5', 'acc@5', 'acc@10', 'hit@10', 'mrr'];
const EXTRA = ['fn-hit@10', 'fn-recall@10', 'bundle-recall', 'bundle-acc', 'bundle-untouched', 'bundle-files', 'bundle8k-recall', 'bundle8k-acc', 'bundle8k-untouched'];
const fmt = (x) => (x === null || x === undefined ? '-' : x.toFixed(3));
const table = (title, groupKey) => {
  const lines = [`### ${title}`, '', `| group | system | n | ${[...METRICS, ...EXTRA].join(' | ')} |`,
    `|---|---|---|${[...METRICS, ...EXTRA].map(() => '---').join('|')}|`];
  const groups = [...new Set(rows.map(groupKey))].sort();
  for (const g of groups) {
    for (const s of systems) {
      const rs = rows.filter((r) => groupKey(r) === g && r.system === s);
      if (!rs.length) continue;
      lines.push(`| ${g} | ${s} | ${rs.length} | ${[...METRICS, ...EXTRA].map((k) => fmt(mean(rs, k))).join(' | ')} |`);
    }
  }
  return lines.join('\n');
};
const summary = {};
for (const s of systems) {
  const rs = rows.filter((r) => r.system === s);
  summary[s] = Object.fromEntries([...METRICS, ...EXTRA, 'all:r@1', 'all:mrr'].map((k) => [k, mean(rs, k)]));
  summary[s].failures = rs.filter((r) => r.error).length;
  const idx = rs.map((r) => r.indexMs).filter((x) => x !== undefined);
  const q = rs.map((r) => r.queryMs).filter((x) => x !== undefined);
  if (idx.length) summary[s].indexMs = { median: median(idx), max: Math.max(...idx) };
  if (q.length) summary[s].queryMs = { median: median(q), p95: [...q].sort((a, b) => a - b)[Math.floor(q.length * 0.95)] };
  const tokens = rs.map((r) => r.tokens).filter((x) => x !== undefined);
  if (tokens.length) summary[s].bundleTokensMedian = median(tokens);
}
const md = [
  `# Retrieval evaluation: ${path.basename(tasksFile)} (${tasks.length} tasks)`,
  '',
  `Run ${new Date().toISOString()} on ${os.cpus()[0].model}, ${os.availableParallelism()} cores, no GPU; cg ${process.env.npm_package_version ?? ''}.`,
  `Gold = source_files_edited (default); "all:" columns use files_edited. Budget ${budget} tokens (cl100k_base). `
    + 'p@k: share of the first k ranked files that are gold. bundle-untouched: share of the bundle\'s files the commit never touched '
    + '(tests count as touched; the PRD\'s precision criterion, lower is better); bundle-files: mean files a bundle holds.',
  '',
  '## Overall',
  '',
  `| system | ${[...METRICS, ...EXTRA].join(' | ')} | all:r@1 | all:mrr | failures |`,
  `|---|${[...METRICS, ...EXTRA].map(() => '---').join('|')}|---|---|---|`,
  ...systems.map((s) => `| ${s} | ${[...METRICS, ...EXTRA].map((k) => fmt(summary[s][k])).join(' | ')} | ${fmt(summary[s]['all:r@1'])} | ${fmt(summary[s]['all:mrr'])} | ${summary[s].failures} |`),
  '',
  table('By language', (r) => r.language),
  '',
  table('By repository', (r) => r.repo),
  '',
  table('Hard slice (description does not name an edited symbol)', (r) => (r.hard ? 'hard' : 'easy')),
  '',
  '## Timing',
  '',
  ...systems.filter((s) => summary[s].indexMs || summary[s].queryMs).map((s) =>
    `- ${s}: ${summary[s].indexMs?.max ? `index median ${Math.round(summary[s].indexMs.median)} ms, max ${Math.round(summary[s].indexMs.max)} ms` : 'index shared with the system before it (one index per checkout)'}; `
    + `query median ${Math.round(summary[s].queryMs?.median ?? 0)} ms, p95 ${Math.round(summary[s].queryMs?.p95 ?? 0)} ms`
    + `${summary[s].bundleTokensMedian ? `; median bundle ${summary[s].bundleTokensMedian} tokens` : ''}`),
  '',
  ...rows.filter((r) => r.error).map((r) => `- failure: ${r.system} ${r.task}: ${r.error.split('\n')[0]}`),
];
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(`${out}.md`, `${md.join('\n')}\n`);
fs.writeFileSync(`${out}.json`, `${JSON.stringify({ summary, rows }, null, 1)}\n`);
console.log(md.slice(0, 12).join('\n'));
