#!/usr/bin/env node
// Repository-level cross-validation of the learned ranker against the hybrid fusion it re-orders, on the
// dumped features of the whole training corpus (train/dump-features.mjs). Every repository falls in one of
// --folds folds (FNV-1a of `<seed>:<repo>`, as fit-ranker.mjs splits); each fold's tasks are ranked by a
// model fitted on the other folds only, so every task of the corpus gets an out-of-fold ranking and the
// comparison covers every language the corpus holds (fit-ranker.mjs's one validation fold has no Go,
// Java or PHP repository). The tree count is fixed (--trees, default 50; 100 or 200 did no better), never
// chosen on the folds it is measured on.
//
// Prints recall@1 and MRR (as eval/run.mjs counts them) of the fusion and of the out-of-fold model,
// overall, per language and per repository where they differ most, and the paired wins and losses at
// the first place; with --out, the same as JSON (per repository too; per task with --rows). It reads no evaluation repository: the
// corpus excludes them (train/mine-corpus.mjs).
//
// Usage: node train/cv-ranker.mjs [--corpus $TMPDIR/cg-train] [--folds 5] [--seed 23] [--trees 50] [--depth 5]
//                                 [--rate 0.1] [--min-leaf 50] [--out FILE] [--rows]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fitLambdaMart, scoreModel } from './gbdt.mjs';
import { evaluate, loadFeatures, matrix, repoHash } from './fit-ranker.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const folds = Number(opt('--folds', '5'));
const seed = opt('--seed', '23');
const fitOpts = { trees: Number(opt('--trees', '50')), depth: Number(opt('--depth', '5')), rate: Number(opt('--rate', '0.1')),
  minLeaf: Number(opt('--min-leaf', '50')) };

const foldOf = (repo) => repoHash(seed, repo) % folds;

/** recall@1 and reciprocal rank of one task under a scoring, counted as fit-ranker.mjs counts them. */
function taskScore(t, score) {
  const m = evaluate([t], score);
  return { r1: m['r@1'], rr: m.mrr, hit: m['r@1'] > 0 ? 1 : 0 };
}

function main() {
  const { tasks } = loadFeatures(corpus);
  const rows = [];
  for (let k = 0; k < folds; k++) {
    const test = tasks.filter((t) => foldOf(t.repo) === k);
    const train = tasks.filter((t) => foldOf(t.repo) !== k);
    const t0 = performance.now();
    const model = fitLambdaMart(matrix(train), fitOpts, () => true);
    for (const t of test) {
      rows.push({ task: t.task_id, repo: t.repo, language: t.language, fold: k, fusion: taskScore(t, (x, i) => -i),
        learned: taskScore(t, (x) => scoreModel(model, x)) });
    }
    console.error(`fold ${k}: fitted on ${train.length} tasks, ${test.length} out of fold (${[...new Set(test.map((t) => t.repo))].length} repositories), ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const summary = (rs) => {
    const n = rs.length || 1;
    const s = (sys, k) => rs.reduce((a, r) => a + r[sys][k], 0) / n;
    return { n: rs.length, fusion: { 'r@1': s('fusion', 'r1'), mrr: s('fusion', 'rr') }, learned: { 'r@1': s('learned', 'r1'), mrr: s('learned', 'rr') },
      wins: rs.filter((r) => r.learned.hit > r.fusion.hit).length, losses: rs.filter((r) => r.learned.hit < r.fusion.hit).length };
  };
  const line = (label, m) => `${label.padEnd(34)} ${String(m.n).padStart(5)}  fusion ${m.fusion['r@1'].toFixed(3)} / ${m.fusion.mrr.toFixed(3)}`
    + `  learned ${m.learned['r@1'].toFixed(3)} / ${m.learned.mrr.toFixed(3)}  first place: +${m.wins} −${m.losses}`;
  const all = summary(rows);
  console.log(`${folds}-fold out-of-fold, ${fitOpts.trees} trees (R@1 / MRR)`);
  console.log(line('all', all));
  const byLanguage = {};
  for (const lang of [...new Set(rows.map((r) => r.language))].sort()) {
    byLanguage[lang] = summary(rows.filter((r) => r.language === lang));
    console.log(line(lang, byLanguage[lang]));
  }
  const byRepo = [...new Set(rows.map((r) => r.repo))].map((repo) => [repo, summary(rows.filter((r) => r.repo === repo))]);
  byRepo.sort((a, b) => (a[1].learned.mrr - a[1].fusion.mrr) - (b[1].learned.mrr - b[1].fusion.mrr));
  console.log('repositories where the model does worst, then best (MRR difference):');
  for (const [repo, m] of [...byRepo.slice(0, 5), ...byRepo.slice(-5)]) console.log(line(`  ${repo}`, m));
  const out = opt('--out');
  const repositories = Object.fromEntries(byRepo.map(([repo, m]) => [repo, m]));
  if (out) fs.writeFileSync(out, `${JSON.stringify({ folds, seed, fit: fitOpts, tasks: rows.length, all, byLanguage, repositories,
    ...(args.includes('--rows') ? { rows } : {}) }, null, 1)}\n`);
}

main();
