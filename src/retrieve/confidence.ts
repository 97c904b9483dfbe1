import path from 'node:path';
import type Database from 'better-sqlite3';
import { PACKAGE_ROOT } from '../paths.js';
import { readModelFile } from './model-file.js';
import type { TermStats } from './lexical.js';
import type { VectorMatches } from './vectors.js';

/**
 * Absolute, calibrated confidence: the probability that the task edits a place's file, whatever the
 * other candidates look like. The learned ranker's probability (src/retrieve/ranker.ts) is relative:
 * it was calibrated on tasks whose answer was among the candidates, and its best file of any query
 * scores like the best file of a real task ("kubernetes pod scheduling with gpu affinity" against a
 * terminal library got 0.95). Here that probability is one input of a logistic model beside evidence
 * that does not depend on the other candidates (how much of the task's vocabulary the repository
 * holds at all, how close in meaning its nearest code is), fitted by train/fit-confidence.mjs on
 * training tasks and on descriptions swapped in from other training repositories (tasks with no answer
 * there), never on an evaluation set. The answer is flagged when no place clears `thresholds.low`, and
 * is empty below `thresholds.none`; both thresholds were chosen on the training tasks (train/README.md).
 */
export const CONFIDENCE_FORMAT = 'cg-confidence/1';
export const DEFAULT_CONFIDENCE_FILE = path.join(PACKAGE_ROOT, 'train', 'model', 'confidence.json');
/** The model over the ranker fitted without past commits (src/retrieve/ranker.ts DEFAULT_PLAIN_RANKER_FILE). */
export const DEFAULT_PLAIN_CONFIDENCE_FILE = path.join(PACKAGE_ROOT, 'train', 'model', 'confidence-no-history.json');
/** The model's inputs, in order (a model naming others is refused). */
export const CONFIDENCE_INPUTS = ['ranker_logit', 'log_rank', 'vocab', 'cosine'] as const;

export interface ConfidenceModel {
  format: typeof CONFIDENCE_FORMAT;
  inputs: string[];
  weights: number[];
  bias: number;
  /** The probability of a place whose file the ranker did not score (reached through calls or tests, or ranked below its candidates). */
  other: number;
  thresholds: { low: number; none: number };
  manifest: Record<string, unknown>;
}

export type LoadedConfidence = { ok: true; model: ConfidenceModel } | { ok: false; warning: string };

/** The model over the ranker that reads past commits (`withHistory`), or over the one fitted without them. */
export function confidenceFile(withHistory = true): string {
  return withHistory ? process.env.CG_CONFIDENCE_FILE || DEFAULT_CONFIDENCE_FILE
    : process.env.CG_CONFIDENCE_PLAIN_FILE || DEFAULT_PLAIN_CONFIDENCE_FILE;
}

/** The model at `file`, read once per process (again when the file changes), or why it cannot be used. */
export function loadConfidence(file = confidenceFile()): LoadedConfidence {
  const r = readModelFile(file, parseConfidence);
  if (r.ok) return r;
  return { ok: false, warning: r.missing
    ? `The confidence model is missing (${path.basename(file)}): confidences are relative to the best place, not calibrated. Reinstall cg to restore it.`
    : `The confidence model (${path.basename(file)}) cannot be used: ${r.error}. Confidences are relative to the best place, not calibrated; reinstall cg to restore the model.` };
}

/** A model checked for the shape scoring relies on; throws with what is wrong. */
export function parseConfidence(raw: unknown): ConfidenceModel {
  const m = raw as ConfidenceModel;
  const finite = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  const unit = (x: unknown) => finite(x) && (x as number) >= 0 && (x as number) <= 1;
  if (!m || typeof m !== 'object') throw new Error('not a JSON object');
  if (m.format !== CONFIDENCE_FORMAT) throw new Error(`format ${JSON.stringify(m.format)}, expected ${CONFIDENCE_FORMAT}`);
  if (!Array.isArray(m.inputs) || m.inputs.join(',') !== CONFIDENCE_INPUTS.join(',')) throw new Error('its inputs are not the ones this cg computes (refit it with train/fit-confidence.mjs)');
  if (!Array.isArray(m.weights) || m.weights.length !== CONFIDENCE_INPUTS.length || !m.weights.every(finite) || !finite(m.bias)) throw new Error('bad weights');
  if (!unit(m.other) || !m.thresholds || !unit(m.thresholds.low) || !unit(m.thresholds.none) || m.thresholds.none > m.thresholds.low) throw new Error('bad thresholds');
  return m;
}

/** What the query itself says about how well this repository can answer it, whatever file is asked about. */
export interface QueryEvidence {
  /** The idf-weighted share of the query's terms that some non-test file holds (a term no file holds weighs as a term of one file). */
  vocab: number;
  /** The best cosine between the query and any symbol (0 without vectors). */
  cosine: number;
}

export function queryEvidence(db: Database.Database, query: Map<string, number>, stats: TermStats, vectors: VectorMatches): QueryEvidence {
  const n = db.prepare('SELECT COUNT(*) FROM files WHERE is_test = 0').pluck().get() as number;
  const absent = Math.log(1 + (n - 1 + 0.5) / (1 + 0.5));
  let held = 0;
  let all = 0;
  for (const t of query.keys()) {
    const idf = stats.idf.get(t);
    all += idf ?? absent;
    held += idf ?? 0;
  }
  let cosine = 0;
  for (const c of vectors.files.values()) cosine = Math.max(cosine, c);
  return { vocab: all > 0 ? held / all : 0, cosine };
}

/** The model's inputs for one file: the ranker's probability, the file's place in the final order (0 = first), the query's evidence. */
export function confidenceInputs(probability: number, rank: number, q: QueryEvidence): number[] {
  const p = Math.min(1 - 1e-4, Math.max(1e-4, probability));
  return [Math.log(p / (1 - p)), Math.log1p(rank), q.vocab, q.cosine];
}

export function calibrated(m: ConfidenceModel, x: number[]): number {
  let z = m.bias;
  for (let j = 0; j < x.length; j++) z += m.weights[j] * x[j];
  return 1 / (1 + Math.exp(-z));
}

/** How much to trust an answer as a whole, from its best place's confidence. */
export type AnswerLevel = 'ok' | 'low' | 'none';

export function answerLevel(m: ConfidenceModel, best: number): AnswerLevel {
  return best < m.thresholds.none ? 'none' : best < m.thresholds.low ? 'low' : 'ok';
}
