#!/usr/bin/env node
// `cg context` bundles of this checkout against another build's (e.g. a packing rule changed), on the
// evaluation's checkouts and indexes, in the same run: for every task and budget, both builds pack a
// bundle from the same index, and each is scored as eval/run.mjs scores bundles (bundle recall of the
// edited source files, acc, files, tokens; a bundle over its budget scores 0). Both builds must read
// the index's schema. A task whose checkout or index is missing is indexed here (as eval/run.mjs does).
//
// Usage: npm run build && node eval/bundle-packing.mjs --other /path/to/other/checkout [--tasks FILE]
//          [--cache DIR] [--mirrors DIR] [--budgets 3500,8000] [--min-confidence X] [--out FILE.json]
//   --min-confidence: the confidence cut of both packings (default: the build's own, BUNDLE_MIN_CONFIDENCE; 0 cuts nothing)
//   --existing-only: skip (and count) tasks without a checkout and a readable index instead of making them (a
//   cache another run is filling)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { option, otherBuild } from './lib/args.mjs';
import { checkout, checkoutDir } from './lib/checkout.mjs';
import { bundleMetrics, mean, median } from './lib/metrics.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => option(args, name, dflt);
const other = otherBuild(args);
const tasksFile = opt('--tasks', path.join(here, '..', '..', 'shared', 'eval', 'dev-tasks.jsonl'));
const cache = opt('--cache', path.join(os.tmpdir(), 'cg-eval'));
const mirrors = opt('--mirrors', '/work/.mirror');
const budgets = opt('--budgets', '3500,8000').split(',').map(Number);
const outFile = opt('--out', '');
const minConfidence = args.includes('--min-confidence') ? Number(opt('--min-confidence')) : undefined;
const existingOnly = args.includes('--existing-only');

const { buildIndex } = await import('../dist/indexer/build.js');
const { openReader } = await import('../dist/store/db.js');
const builds = { this: await import('../dist/retrieve/context.js'), other: await import(path.join(other, 'dist', 'retrieve', 'context.js')) };

const tasks = fs.readFileSync(tasksFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const rows = [];
const skipped = [];
for (const [i, task] of tasks.entries()) {
  if (existingOnly && !fs.existsSync(checkoutDir(task, cache))) {
    skipped.push(task.task_id);
    continue;
  }
  const dir = checkout(task, { mirrors, cache });
  let db;
  try {
    db = openReader(dir);
  } catch {
    if (existingOnly) {
      skipped.push(task.task_id);
      continue;
    }
    await buildIndex(dir);
    db = openReader(dir);
  }
  try {
    for (const budget of budgets) {
      const row = { task: task.task_id, budget };
      for (const [name, build] of Object.entries(builds)) {
        const b = await build.buildContext(db, dir, { text: task.description, budget }, minConfidence === undefined ? {} : { minConfidence });
        row[name] = { files: b.files.map((f) => f.path), ...bundleMetrics(b.files.map((f) => f.path), task.source_files_edited, b.tokens_used, budget, task.files_edited) };
      }
      row.differ = JSON.stringify(row.this.files) !== JSON.stringify(row.other.files);
      rows.push(row);
    }
  } finally {
    db.close();
  }
  if ((i + 1) % 10 === 0) console.error(`${i + 1}/${tasks.length} tasks`);
}

const summary = {};
for (const budget of budgets) {
  const at = rows.filter((r) => r.budget === budget);
  const side = (name) => {
    const rs = at.map((r) => r[name]);
    const r3 = (x) => Math.round(x * 1000) / 1000;
    return { 'bundle-recall': r3(mean(rs, 'bundle-recall')), 'bundle-acc': r3(mean(rs, 'bundle-acc')), 'bundle-files': r3(mean(rs, 'bundle-files')),
      tokensMedian: median(rs.map((r) => r.tokens)) };
  };
  summary[budget] = { tasks: at.length, this: side('this'), other: side('other'), bundlesThatDiffer: at.filter((r) => r.differ).length,
    recallDiffers: at.filter((r) => r.this['bundle-recall'] !== r.other['bundle-recall'])
      .map((r) => ({ task: r.task, this: r.this['bundle-recall'], other: r.other['bundle-recall'] })) };
  console.error(`budget ${budget}: recall ${summary[budget].this['bundle-recall']} (this) vs ${summary[budget].other['bundle-recall']} (other); `
    + `${summary[budget].bundlesThatDiffer} of ${at.length} bundles differ, ${summary[budget].recallDiffers.length} in recall`);
}
const result = { date: new Date().toISOString(), command: `node eval/bundle-packing.mjs ${args.join(' ')}`, tasks: path.basename(tasksFile),
  loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100), skipped, summary };
if (outFile) fs.writeFileSync(outFile, `${JSON.stringify({ ...result, rows }, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
