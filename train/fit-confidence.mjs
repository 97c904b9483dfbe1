#!/usr/bin/env node
// Fits the confidence model (src/retrieve/confidence.ts) on train/dump-confidence.mjs's output: a
// logistic regression of "the task's commit edits this file" on the inputs of confidenceInputs, over
// the first TOP_K ranked files of every training task and of every swapped-in description (no answer
// there: every label 0); the probability of places outside the ranker's candidates (their touched
// rate); and the two answer thresholds:
//   low:  LOW_PROBABILITY, a meaning rather than a fit: the answer is flagged when no place has one
//         chance in three of being where the task's change goes. A flagged answer keeps its places (an
//         agent is told to check them, not denied them), so its cost is a warning on a real task;
//   none: the largest threshold at which the training tasks whose best confidence falls below it hold
//         at most 0.001 of recall@1 (tasks whose first file was right): an empty answer hides the
//         guesses, so it must be rare on real tasks.
// Checked by 3-fold cross-validation over repositories (fitted on two thirds, measured on the rest):
// expected calibration error of the tasks' first TOP_K files, and the share of swapped descriptions
// flagged. No evaluation set is read.
//
// Usage: node train/fit-confidence.mjs [--data $TMPDIR/cg-train/confidence.jsonl] [--out train/model/confidence.json]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIDENCE_FORMAT, CONFIDENCE_INPUTS, confidenceInputs } from '../dist/retrieve/confidence.js';
import { reliabilityTable } from './gbdt.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const dataFile = opt('--data', path.join(os.tmpdir(), 'cg-train', 'confidence.jsonl'));
const out = opt('--out', path.join(here, 'model', 'confidence.json'));
export const TOP_K = 12;
const L2 = 1e-3;
/** Below this best confidence an answer is flagged (`confidence_level: "low"`, every place weak). */
export const LOW_PROBABILITY = 1 / 3;

const text = fs.readFileSync(dataFile);
const queries = text.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** (inputs, label) of a query's first TOP_K ranked files the ranker scored. */
function rows(q) {
  const touched = new Set(q.touched);
  return q.ranked.filter((r) => r.p !== null).slice(0, TOP_K).map((r) => ({ x: confidenceInputs(r.p, r.k, q.evidence), y: touched.has(r.path) ? 1 : 0 }));
}

/** Logistic regression by Newton's method with a small L2 penalty (on the weights, not the bias). */
export function fitLogistic(data) {
  const d = data[0].x.length;
  const w = new Float64Array(d + 1);
  for (let it = 0; it < 100; it++) {
    const g = new Float64Array(d + 1);
    const H = Array.from({ length: d + 1 }, () => new Float64Array(d + 1));
    for (const { x, y } of data) {
      const z = [...x, 1];
      const p = 1 / (1 + Math.exp(-z.reduce((a, v, j) => a + v * w[j], 0)));
      for (let j = 0; j <= d; j++) {
        g[j] += (p - y) * z[j];
        for (let k = 0; k <= d; k++) H[j][k] += p * (1 - p) * z[j] * z[k];
      }
    }
    for (let j = 0; j < d; j++) {
      g[j] += L2 * data.length * w[j];
      H[j][j] += L2 * data.length;
    }
    const step = solve(H, g);
    let change = 0;
    for (let j = 0; j <= d; j++) {
      w[j] -= step[j];
      change += Math.abs(step[j]);
    }
    if (change < 1e-9) break;
  }
  return { weights: [...w.slice(0, d)], bias: w[d] };
}

function solve(A, b) {
  const n = b.length;
  const M = A.map((r, i) => [...r, b[i]]);
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(M[r][i]) > Math.abs(M[p][i])) p = r;
    [M[i], M[p]] = [M[p], M[i]];
    for (let r = 0; r < n; r++) {
      if (r === i) continue;
      const f = M[r][i] / M[i][i];
      for (let c = i; c <= n; c++) M[r][c] -= f * M[i][c];
    }
  }
  return M.map((r, i) => r[n] / r[i]);
}

const prob = (m, x) => 1 / (1 + Math.exp(-(m.bias + x.reduce((a, v, j) => a + m.weights[j] * v, 0))));

/** A query's best confidence and what its first file was worth to recall@1. */
function best(m, q) {
  const r = rows(q);
  const first = q.ranked[0];
  return { p: Math.max(0, ...r.map(({ x }) => prob(m, x))), r1: q.kind === 'task' && first && q.gold.includes(first.path) ? 1 / q.gold.length : 0 };
}

/** The largest threshold whose flagged tasks hold at most `cap` of recall@1 (a share of all tasks). */
function threshold(scored, cap) {
  const tasks = scored.filter((s) => s.kind === 'task');
  let tau = 0;
  for (let t = 0.005; t < 1; t += 0.005) {
    const lost = tasks.filter((s) => s.p < t).reduce((a, s) => a + s.r1, 0) / tasks.length;
    if (lost <= cap + 1e-12) tau = t;
    else break;
  }
  return Math.round(tau * 1000) / 1000;
}

function fitAll(qs) {
  const m = fitLogistic(qs.flatMap(rows));
  const scored = qs.map((q) => ({ kind: q.kind, ...best(m, q) }));
  const low = Math.round(LOW_PROBABILITY * 1000) / 1000;
  const none = Math.min(low, threshold(scored, 0.001));
  const tasks = qs.filter((q) => q.kind === 'task');
  const otherN = tasks.reduce((a, q) => a + q.other.length, 0);
  const otherHit = tasks.reduce((a, q) => a + q.other.filter((p) => q.touched.includes(p)).length, 0);
  return { ...m, other: otherN ? otherHit / otherN : 0.1, thresholds: { low, none } };
}

// Cross-validation over repositories.
const repos = [...new Set(queries.map((q) => q.repo))].sort();
const pairs = [];
const flagged = { task: [0, 0], swap: [0, 0] };
const empty = { task: 0, swap: 0 };
let lost = 0;
let hidden = 0;
for (let fold = 0; fold < 3; fold++) {
  const held = (q) => repos.indexOf(q.repo) % 3 === fold;
  const m = fitAll(queries.filter((q) => !held(q)));
  for (const q of queries.filter(held)) {
    if (q.kind === 'task') for (const { x, y } of rows(q)) pairs.push({ p: prob(m, x), y });
    const b = best(m, q);
    flagged[q.kind][0] += b.p < m.thresholds.low ? 1 : 0;
    flagged[q.kind][1]++;
    empty[q.kind] += b.p < m.thresholds.none ? 1 : 0;
    if (q.kind === 'task' && b.p < m.thresholds.low) lost += b.r1;
    if (q.kind === 'task' && b.p < m.thresholds.none) hidden += b.r1;
  }
}
const cv = reliabilityTable(pairs);
const nTasks = flagged.task[1];
const check = {
  ece: cv.ece, bins: cv.bins, tasks_flagged: flagged.task[0] / nTasks, recall_at_1_lost: lost / nTasks, swaps_flagged: flagged.swap[0] / flagged.swap[1],
  tasks_empty: empty.task / nTasks, recall_at_1_hidden: hidden / nTasks, swaps_empty: empty.swap / flagged.swap[1],
};
console.error(`3-fold by repository: ECE ${check.ece.toFixed(4)} over the tasks' first ${TOP_K} files; at the low threshold `
  + `${(100 * check.tasks_flagged).toFixed(1)} % of tasks flagged (recall@1 lost ${check.recall_at_1_lost.toFixed(4)}), `
  + `${(100 * check.swaps_flagged).toFixed(1)} % of swapped descriptions flagged; at the none threshold ${(100 * check.tasks_empty).toFixed(1)} % of tasks empty `
  + `(recall@1 hidden ${check.recall_at_1_hidden.toFixed(4)}), ${(100 * check.swaps_empty).toFixed(1)} % of swapped descriptions`);
for (const b of cv.bins) console.error(`  p in [${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}): ${b.n} files, mean p ${b.meanP.toFixed(3)}, edited ${b.rate.toFixed(3)}`);

const model = fitAll(queries);
const file = {
  format: CONFIDENCE_FORMAT, inputs: [...CONFIDENCE_INPUTS], weights: model.weights.map((w) => Number(w.toPrecision(8))), bias: Number(model.bias.toPrecision(8)),
  other: Number(model.other.toPrecision(4)), thresholds: model.thresholds,
  manifest: {
    script: 'train/fit-confidence.mjs', data: path.basename(dataFile), data_sha256: crypto.createHash('sha256').update(text).digest('hex'),
    repositories: repos, tasks: queries.filter((q) => q.kind === 'task').length, swapped: queries.filter((q) => q.kind === 'swap').length, top_k: TOP_K,
    cross_validation: check,
  },
};
console.error(`weights ${file.weights.join(', ')}, bias ${file.bias}; other ${file.other}; thresholds low ${file.thresholds.low}, none ${file.thresholds.none}`);
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(file, null, 1)}\n`);
console.error(`wrote ${out}`);
