#!/usr/bin/env node
// Fits cg's learned ranker on the dumped features of the training corpus (train/dump-features.mjs):
// LambdaMART trees over cg's own candidates (the fused ranking's first files are the negatives), with
// one in five training repositories held out of the fit for validation (early stopping, the comparison
// with the fusion and with a linear pairwise ranker, and the probability calibration). No evaluation
// repository is ever read here: the corpus excludes them (train/mine-corpus.mjs).
//
// Writes train/model/ranker.json (trees, calibration, manifest, recorded examples) and prints the
// validation figures, which the manifest keeps.
//
// Usage: node train/fit-ranker.mjs [--corpus $TMPDIR/cg-train] [--out train/model/ranker.json] [--trees 300] [--depth 5]
//                                  [--rate 0.1] [--min-leaf 50] [--compare-linear] [--features N]
//   --features N: fit on the first N features only (29, without the past commits' four: the model for an
//   index with too little history, train/model/ranker-no-history.json; see train/README.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitCalibration, fitLambdaMart, fitPairwiseLinear, reliabilityTable, scoreModel } from './gbdt.mjs';

export const SCRIPT_VERSION = 1;
/** Salt of the repository split: a repository is held out when FNV-1a(`${SEED}:${repo}`) % 5 == 0. */
export const SEED = 23;

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const corpus = opt('--corpus', path.join(os.tmpdir(), 'cg-train'));
const out = opt('--out', path.join(here, 'model', 'ranker.json'));

/** FNV-1a of `<seed>:<repo>`: which part of a split a repository falls in (here and in cv-ranker.mjs). */
export function repoHash(seed, repo) {
  let h = 0x811c9dc5;
  for (const c of `${seed}:${repo}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return h >>> 0;
}

export function heldOut(repo) {
  return repoHash(SEED, repo) % 5 === 0;
}

/** Every dumped task of a corpus, and the sha256 of the dumped files (in name order). */
export function loadFeatures(corpus) {
  const dir = path.join(corpus, 'features');
  const features = JSON.parse(fs.readFileSync(path.join(dir, 'features.json'), 'utf8'));
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  const hash = crypto.createHash('sha256');
  const tasks = [];
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f));
    hash.update(text);
    for (const line of text.toString('utf8').split('\n')) if (line) tasks.push(JSON.parse(line));
  }
  return { features, tasks, sha256: hash.digest('hex'), repositories: files.length };
}

/** Rows of the tasks with at least one gold file among their candidates (the others teach nothing). */
export function matrix(tasks) {
  const X = [];
  const y = [];
  const groups = [];
  for (const t of tasks) {
    if (!t.cands.some((c) => c.label)) continue;
    const start = X.length;
    for (const c of t.cands) {
      X.push(Float64Array.from(c.x));
      y.push(c.label);
    }
    groups.push([start, X.length]);
  }
  return { X, y: Uint8Array.from(y), groups };
}

/**
 * recall@1 and MRR of a scoring over tasks, as eval/run.mjs counts them: the candidates in the
 * scoring's order, then the files below them in the fusion's order (gold_ranks).
 */
export function evaluate(tasks, score) {
  let r1 = 0;
  let mrr = 0;
  for (const t of tasks) {
    const order = t.cands.map((c, i) => ({ c, s: score(c.x, i) })).sort((a, b) => b.s - a.s || (a.c.path < b.c.path ? -1 : 1));
    const first = order.findIndex((o) => o.c.label);
    if (order.length && order[0].c.label) r1 += 1 / t.gold.length;
    if (first >= 0) mrr += 1 / (first + 1);
    else {
      const below = t.gold_ranks.filter((r) => r >= t.cands.length);
      if (below.length) mrr += 1 / (Math.min(...below) + 1);
    }
  }
  return { n: tasks.length, 'r@1': r1 / tasks.length, mrr: mrr / tasks.length };
}

const fmt = (m) => `R@1 ${m['r@1'].toFixed(3)}, MRR ${m.mrr.toFixed(3)} (${m.n} tasks)`;

function main() {
  const data = loadFeatures(corpus);
  if (args.includes('--features')) {
    const n = Number(opt('--features', ''));
    if (!(n > 0 && n <= data.features.length)) throw new Error(`--features takes 1 to ${data.features.length}`);
    data.features = data.features.slice(0, n);
    for (const t of data.tasks) for (const c of t.cands) c.x = c.x.slice(0, n);
  }
  const train = data.tasks.filter((t) => !heldOut(t.repo));
  const valid = data.tasks.filter((t) => heldOut(t.repo));
  const validRepos = [...new Set(valid.map((t) => t.repo))];
  console.error(`${data.tasks.length} tasks from ${data.repositories} repositories; fit on ${train.length}, validate on ${valid.length} (${validRepos.length} repositories)`);
  const fusedOrder = (x, i) => -i;
  const baseline = evaluate(valid, fusedOrder);
  console.error(`fusion (hybrid), validation: ${fmt(baseline)}`);
  const tr = matrix(train);
  const opts = {
    trees: Number(opt('--trees', '300')), depth: Number(opt('--depth', '5')), rate: Number(opt('--rate', '0.1')),
    minLeaf: Number(opt('--min-leaf', '50')),
  };
  let best = { mrr: -1, trees: 0 };
  const curve = [];
  const model = fitLambdaMart(tr, opts, (m, k) => {
    if (k % 10 && k !== opts.trees) return true;
    const v = evaluate(valid, (x) => scoreModel(m, x));
    curve.push({ trees: k, ...v });
    console.error(`  ${k} trees: validation ${fmt(v)}`);
    if (v.mrr > best.mrr) best = { ...v, trees: k };
    // Stop after 60 trees without a better validation MRR.
    return k - best.trees < 60;
  });
  model.trees = model.trees.slice(0, best.trees);
  const learned = evaluate(valid, (x) => scoreModel(model, x));
  console.error(`LambdaMART, ${best.trees} trees, validation: ${fmt(learned)}`);
  let linear = null;
  if (args.includes('--compare-linear')) {
    const lin = fitPairwiseLinear(tr);
    linear = evaluate(valid, (x) => scoreModel(lin, x));
    console.error(`pairwise linear, validation: ${fmt(linear)}`);
  }
  const byLanguage = {};
  for (const lang of [...new Set(valid.map((t) => t.language))].sort()) {
    const ts = valid.filter((t) => t.language === lang);
    byLanguage[lang] = { fusion: evaluate(ts, fusedOrder), learned: evaluate(ts, (x) => scoreModel(model, x)) };
    console.error(`  ${lang}: fusion ${fmt(byLanguage[lang].fusion)}; learned ${fmt(byLanguage[lang].learned)}`);
  }

  // Calibration on the validation repositories: fitted on one half of them, measured on the other, then refitted on all.
  const va = matrix(valid);
  const vScores = va.X.map((x) => scoreModel(model, x));
  const halves = [0, 1].map((h) => va.groups.filter((_, k) => k % 2 === h));
  const check = [];
  for (const h of [0, 1]) {
    const fitG = halves[h];
    const testG = halves[1 - h];
    const pick = (gs) => {
      const s = [];
      const y = [];
      const g = [];
      for (const [a, b] of gs) {
        const st = s.length;
        for (let i = a; i < b; i++) {
          s.push(vScores[i]);
          y.push(va.y[i]);
        }
        g.push([st, s.length]);
      }
      return { s, y, g };
    };
    const f = pick(fitG);
    const c = fitCalibration(f.s, f.y, f.g);
    const t = pick(testG);
    const tc = fitCalibration(t.s, t.y, t.g, 0);
    check.push(...t.s.map((s, i) => ({ p: 1 / (1 + Math.exp(-(c.a * s + c.b * tc.rel[i] + c.c))), y: t.y[i] })));
  }
  const calibration = fitCalibration(vScores, va.y, va.groups);
  const reliability = reliabilityTable(check);
  console.error(`calibration p = σ(${calibration.a.toFixed(3)}·s + ${calibration.b.toFixed(3)}·(s − best) + ${calibration.c.toFixed(3)}); `
    + `held-out half: Brier ${reliability.brier.toFixed(4)}, ECE ${reliability.ece.toFixed(4)}`);
  for (const b of reliability.bins) console.error(`  p in [${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}): ${b.n} candidates, mean p ${b.meanP.toFixed(3)}, gold share ${b.rate.toFixed(3)}`);

  const examples = [];
  for (let k = 0; k < va.X.length && examples.length < 40; k += Math.max(1, Math.floor(va.X.length / 40))) {
    examples.push({ x: [...va.X[k]], score: scoreModel(model, va.X[k]) });
  }
  const file = {
    format: 'cg-ranker/1',
    features: data.features,
    bias: model.bias,
    linear: model.linear,
    trees: model.trees.map((t) => ({ f: t.f, t: t.t, l: t.l, r: t.r, v: t.v.map((x) => Number(x.toPrecision(10))) })),
    calibration: { a: calibration.a, b: calibration.b, c: calibration.c },
    manifest: {
      script: 'train/fit-ranker.mjs', script_version: SCRIPT_VERSION, seed: SEED, split: 'repository held out when FNV-1a(`23:<repo>`) % 5 == 0',
      corpus_sha256: readCorpusHash(), features_sha256: data.sha256, repositories: data.repositories,
      tasks: { fit: train.length, validation: valid.length }, validation_repositories: validRepos,
      options: opts, trees: model.trees.length,
      validation: { fusion: baseline, learned, linear, by_language: byLanguage, curve },
      calibration_check: { brier: reliability.brier, ece: reliability.ece, bins: reliability.bins },
    },
    examples: [],
  };
  // Examples are scored from the file's own (rounded) trees, so the round trip compares like with like.
  file.examples = examples.map((e) => ({ x: e.x, score: scoreModel(file, e.x) }));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(file)}\n`);
  console.error(`wrote ${out} (${(fs.statSync(out).size / 1024).toFixed(0)} KiB)`);
}

function readCorpusHash() {
  try {
    return JSON.parse(fs.readFileSync(path.join(corpus, 'corpus.json'), 'utf8')).sha256;
  } catch {
    return null;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
