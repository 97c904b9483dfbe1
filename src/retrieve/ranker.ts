import path from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';
import { readModelFile } from './model-file.js';
import { FEATURES, type Candidate } from './features.js';
import type { RankedFile } from './rank.js';
import { maxOf } from '../arrays.js';

/**
 * The learned ranker: a model fitted by train/fit-ranker.mjs on tasks mined from public repositories'
 * history (train/README.md), over the features of src/retrieve/features.ts. It re-orders the fused
 * ranking's first RERANK_DEPTH files and gives each a calibrated probability that the task edits it.
 *
 * score(x) = bias + Σ linear[j]·x[j] + Σ trees (regression trees: at node i go left when x[f[i]] <= t[i];
 * a node with f = -1 is a leaf worth v[i]). Probability: p = 1 / (1 + exp(-(a·s + b·(s - best s of the
 * query) + c))), fitted on training repositories held out of the fit (never on an evaluation set).
 *
 * A missing or damaged model file never costs a query: the fusion's order stands and the answer's
 * warnings say why (see loadRanker).
 */
export const RANKER_FORMAT = 'cg-ranker/1';
/** The shipped model; CG_RANKER_FILE points elsewhere (tests, experiments). */
export const DEFAULT_RANKER_FILE = path.join(PACKAGE_ROOT, 'train', 'model', 'ranker.json');
/**
 * The model fitted without the past commits' features (the first 29), for an index that keeps fewer
 * than MIN_PAST_COMMITS commits (no git, a shallow clone, a young repository): the other model never saw
 * so short a history, and reads its absence as evidence against every file. CG_RANKER_PLAIN_FILE points
 * elsewhere.
 */
export const DEFAULT_PLAIN_RANKER_FILE = path.join(PACKAGE_ROOT, 'train', 'model', 'ranker-no-history.json');
/** The fewest past commits any training task had (106), rounded down (train/README.md). */
export const MIN_PAST_COMMITS = 100;

export interface Tree {
  f: number[];
  t: number[];
  l: number[];
  r: number[];
  v: number[];
}

export interface RankerModel {
  format: typeof RANKER_FORMAT;
  features: string[];
  bias: number;
  linear: number[];
  trees: Tree[];
  calibration: { a: number; b: number; c: number };
  /** Data hash, seed, script version, fit and validation figures (train/README.md). */
  manifest: Record<string, unknown>;
  /** Recorded feature vectors and the scores the trainer gave them: the round-trip check. */
  examples: { x: number[]; score: number }[];
}

export type LoadedRanker = { ok: true; model: RankerModel; file: string } | { ok: false; file: string; warning: string };

/** The model for an index with enough history (`withHistory`), or the one fitted without it. */
export function rankerFile(withHistory = true): string {
  return withHistory ? process.env.CG_RANKER_FILE || DEFAULT_RANKER_FILE : process.env.CG_RANKER_PLAIN_FILE || DEFAULT_PLAIN_RANKER_FILE;
}

/** The model at `file`, read once per process (again when the file changes), or why it cannot be used. */
export function loadRanker(file = rankerFile()): LoadedRanker {
  const r = readModelFile(file, parseModel);
  if (r.ok) return { ok: true, file, model: r.model };
  return { ok: false, file, warning: r.missing
    ? `The learned ranker's model is missing (${path.basename(file)}): files are ranked by the hybrid fusion. Reinstall cg to restore it.`
    : `The learned ranker's model (${path.basename(file)}) cannot be used: ${r.error}. Files are ranked by the hybrid fusion; reinstall cg to restore the model.` };
}

/** A model checked for the shape scoring relies on; throws with what is wrong. */
export function parseModel(raw: unknown): RankerModel {
  const m = raw as RankerModel;
  if (!m || typeof m !== 'object') throw new Error('not a JSON object');
  if (m.format !== RANKER_FORMAT) throw new Error(`format ${JSON.stringify(m.format)}, expected ${RANKER_FORMAT}`);
  // The first n of the features this cg computes, in order (a model fitted on fewer reads a prefix).
  if (!Array.isArray(m.features) || !m.features.length || m.features.join(',') !== FEATURES.slice(0, m.features.length).join(',')) {
    throw new Error('its features are not the ones this cg computes (refit it with train/fit-ranker.mjs)');
  }
  const n = m.features.length;
  const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  if (!finite(m.bias) || !Array.isArray(m.linear) || m.linear.length !== n || !m.linear.every(finite)) throw new Error('bad linear part');
  if (!m.calibration || !['a', 'b', 'c'].every((k) => finite((m.calibration as Record<string, unknown>)[k]))) throw new Error('bad calibration');
  if (!Array.isArray(m.trees)) throw new Error('no trees');
  for (const [k, t] of m.trees.entries()) {
    const size = t?.f?.length;
    if (!size || ![t.t, t.l, t.r, t.v].every((a) => Array.isArray(a) && a.length === size)) throw new Error(`tree ${k} is malformed`);
    for (let i = 0; i < size; i++) {
      if (t.f[i] === -1) {
        if (!finite(t.v[i])) throw new Error(`tree ${k} has a bad leaf`);
        continue;
      }
      // Children after their parent: a walk always ends, whatever the file says.
      if (!(t.f[i] >= 0 && t.f[i] < n && finite(t.t[i]) && t.l[i] > i && t.l[i] < size && t.r[i] > i && t.r[i] < size)) {
        throw new Error(`tree ${k} has a bad node ${i}`);
      }
    }
  }
  if (!Array.isArray(m.examples)) throw new Error('no recorded examples');
  return m;
}

export function scoreOf(m: RankerModel, x: ArrayLike<number>): number {
  let s = m.bias;
  for (let j = 0; j < m.linear.length; j++) s += m.linear[j] * x[j];
  for (const t of m.trees) {
    let i = 0;
    while (t.f[i] !== -1) i = x[t.f[i]] <= t.t[i] ? t.l[i] : t.r[i];
    s += t.v[i];
  }
  return s;
}

/** The calibrated probability that the task edits each file, from the scores of one query's candidates. */
export function probabilities(m: RankerModel, scores: number[]): number[] {
  const best = maxOf(scores);
  const { a, b, c } = m.calibration;
  return scores.map((s) => 1 / (1 + Math.exp(-(a * s + b * (s - best) + c))));
}

/**
 * The candidates in the model's order, each with its probability; files below the candidates follow in
 * the fusion's order. Scores keep the fusion's scale (the k-th file gets the fused ranking's k-th
 * score), because places, expansion and packing weigh regions by a file's score relative to the best.
 */
export function rerank(m: RankerModel, candidates: Candidate[], fused: RankedFile[]): RankedFile[] {
  if (!candidates.length) return fused;
  const scores = candidates.map((c) => scoreOf(m, c.features));
  const probs = probabilities(m, scores);
  const order = candidates.map((c, i) => ({ c, s: scores[i], p: probs[i] }))
    .sort((x, y) => y.s - x.s || (x.c.file.path < y.c.file.path ? -1 : 1));
  const head = order.map(({ c, p }, k) => ({ ...c.file, score: fused[k].score, probability: p }));
  return [...head, ...fused.slice(candidates.length)];
}

/**
 * The fusion's order kept, each candidate given the model's probability: under the other presets the
 * probability still feeds the answer's calibrated confidence (src/retrieve/confidence.ts).
 */
export function withProbabilities(m: RankerModel, candidates: Candidate[], fused: RankedFile[]): RankedFile[] {
  if (!candidates.length) return fused;
  const probs = probabilities(m, candidates.map((c) => scoreOf(m, c.features)));
  const byId = new Map(candidates.map((c, i) => [c.file.fileId, probs[i]]));
  return fused.map((r) => (byId.has(r.fileId) ? { ...r, probability: byId.get(r.fileId)! } : r));
}
