import type Database from 'better-sqlite3';
import { poolCondition, type Pool } from '../extract/documents/formats.js';
import { bm25, FILE_BM25, symbolSearch, UNIT_BM25, type TermStats } from './lexical.js';
import { tokenize } from './tokenize.js';
import { fileOfSymbol } from '../store/symbol-ids.js';

/** Per-signal weights of the lexical ranking; each signal is scaled to [0, 1] by its best candidate. */
export interface LexicalWeights {
  /** Whole-file BM25 (path + text). */
  file: number;
  /** FTS5 over the file's symbols (names, qualified names, signatures, docs, path): its best symbol's BM25. */
  defs: number;
  /** The best-matching function or method of the file. */
  unit: number;
  /** The file defines an identifier the description names as code (`MiddlewareRunner::add`). */
  mention: number;
}

/** Chosen on the development set (eval/README.md, eval/results/dev.md): each signal helps; heavier defs or units did not. */
export const DEFAULT_LEXICAL: LexicalWeights = { file: 1, defs: 0.5, unit: 1, mention: 0.4 };

/**
 * Files around the product code rather than in it: examples, benchmarks, scripts, docs sites, build
 * configuration. They often share every word with a task (an example calls exactly the API the task
 * is about) yet are rarely what a change is made in, so their score is scaled down, not removed.
 */
const PERIPHERAL_DIR = /(^|\/)(_?examples?|samples?|demos?|bench(es|marks?)?|perf[\w-]*|scripts?|docs?|tools?|website|playground|build|dist)\//i;
const PERIPHERAL_FILE = /(^|\/)([\w.-]+\.config\.[cm]?[jt]s|gruntfile\.js|gulpfile\.js|noxfile\.py|fabfile\.py|tasks\.py)$/i;
export const PERIPHERAL_FACTOR = 0.6;

export function isPeripheral(path: string): boolean {
  return PERIPHERAL_DIR.test(path) || PERIPHERAL_FILE.test(path);
}

export interface RankedFile {
  fileId: number;
  path: string;
  score: number;
  /** Each signal scaled to [0, 1] before weighting, for fusion presets and rationales (vector, graph, recency: src/retrieve/fusion.ts). */
  signals: { file: number; defs: number; unit: number; mention: number; pagerank: number; vector: number; graph: number; recency: number };
  /** The file's functions and methods by their own match, best first. */
  units: { symbolId: number; score: number }[];
  /** The file's symbols nearest the task in meaning (vector search), best first, cosine relative to the best of all files. */
  near?: { symbolId: number; score: number }[];
  /**
   * The learned ranker's probability that the task edits this file (src/retrieve/ranker.ts), relative to
   * the query's other candidates; set for the fusion's best files under every preset (it feeds
   * `confidence`), absent for the files below them. Only the learned preset re-orders by it.
   */
  probability?: number;
  /** The calibrated, absolute probability that the task edits this file (src/retrieve/confidence.ts); set for the files the ranker scored. */
  confidence?: number;
}

export function emptySignals(): RankedFile['signals'] {
  return { file: 0, defs: 0, unit: 0, mention: 0, pagerank: 0, vector: 0, graph: 0, recency: 0 };
}

export function queryTerms(text: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of tokenize(text)) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}

function scaled(m: Map<number, number>): Map<number, number> {
  let max = 0;
  for (const v of m.values()) max = Math.max(max, v);
  if (max <= 0) return new Map();
  return new Map([...m].map(([k, v]) => [k, v / max]));
}

/**
 * Identifiers a description names as code: backticked words, snake_case, camelCase, PascalCase with an
 * inner capital, dotted or `::` paths. Plain English words are left to the lexical scores.
 */
export function codeMentions(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/`([^`]+)`/g)) for (const w of m[1].split(/[^A-Za-z0-9_$]+/)) if (w.length > 2) out.add(w);
  for (const w of text.match(/[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*/g) ?? []) {
    const parts = w.split(/\.|::|->/);
    for (const part of parts) {
      if (part.length > 2 && (parts.length > 1 || /_|[a-z][A-Z]|^[A-Z][a-z0-9]+[A-Z]/.test(part))) out.add(part);
    }
  }
  return out;
}

/**
 * Non-test files ranked for a task description by whole-file BM25, FTS5 over their symbols, best-unit BM25
 * and code mentions, among the files of `pool` (code or documents). `stats` receives what the whole-file
 * pass saw of the query's terms (idf, coverage).
 */
export function rankFiles(db: Database.Database, text: string, weights: LexicalWeights = DEFAULT_LEXICAL, stats?: TermStats,
  pool: Pool = 'all'): RankedFile[] {
  const q = queryTerms(text);
  const file = scaled(bm25(db, 'files', q, FILE_BM25, pool, stats));
  const defs = scaled(symbolSearch(db, q, pool));
  const unitScores = bm25(db, 'units', q, UNIT_BM25, pool);
  const unitsByFile = new Map<number, { symbolId: number; score: number }[]>();
  let maxUnit = 0;
  for (const [id, s] of unitScores) {
    // A symbol's id holds its file's (src/store/symbol-ids.ts): no lookup of thousands of ids a query.
    const f = fileOfSymbol(id);
    const list = unitsByFile.get(f) ?? [];
    list.push({ symbolId: id, score: s });
    unitsByFile.set(f, list);
    maxUnit = Math.max(maxUnit, s);
  }
  // Files that define an identifier the description names, shared among the files that define it.
  const mentioned = new Map<number, number>();
  const mentions = [...codeMentions(text)];
  if (weights.mention && mentions.length) {
    const defsOf = new Map<string, Set<number>>();
    const exact = new Set(mentions);
    // Looked up through the case-insensitive name index (a plain IN scanned every file's symbols: ~20 ms
    // on Go's standard library), kept when the case matches too, in the order that scan gave (by file,
    // then symbol), which the sums below follow.
    const rows = db.prepare(`SELECT s.name, s.file_id, s.id FROM symbols s JOIN files f ON f.id = s.file_id
        WHERE f.is_test = 0 AND s.kind != 'module'${poolCondition('f.language', pool)} AND s.name COLLATE NOCASE IN (SELECT value FROM json_each(?))`).raw()
      .all(JSON.stringify(mentions)) as [string, number, number][];
    rows.sort((a, b) => a[1] - b[1] || a[2] - b[2]);
    for (const [name, f] of rows) if (exact.has(name)) (defsOf.get(name) ?? defsOf.set(name, new Set()).get(name)!).add(f);
    for (const files of defsOf.values()) for (const f of files) mentioned.set(f, (mentioned.get(f) ?? 0) + 1 / files.size);
  }
  const maxMention = Math.max(1e-9, ...mentioned.values());
  const candidates = new Set([...file.keys(), ...defs.keys(), ...unitsByFile.keys(), ...mentioned.keys()]);
  const rows = db.prepare('SELECT id, path, pagerank FROM files WHERE id IN (SELECT value FROM json_each(?))').raw()
    .all(JSON.stringify([...candidates])) as [number, string, number][];
  const paths = new Map(rows.map(([id, p]) => [id, p]));
  const ranks = new Map(rows.map(([id, , pr]) => [id, pr]));
  const maxRank = Math.max(1e-12, ...ranks.values());
  const out: RankedFile[] = [];
  for (const id of candidates) {
    const units = (unitsByFile.get(id) ?? []).sort((a, b) => b.score - a.score);
    const signals = {
      file: file.get(id) ?? 0, defs: defs.get(id) ?? 0, unit: maxUnit > 0 && units.length ? units[0].score / maxUnit : 0,
      mention: (mentioned.get(id) ?? 0) / maxMention, pagerank: (ranks.get(id) ?? 0) / maxRank, vector: 0, graph: 0, recency: 0,
    };
    const path = paths.get(id)!;
    const prior = isPeripheral(path) ? PERIPHERAL_FACTOR : 1;
    const score = prior * (weights.file * signals.file + weights.defs * signals.defs + weights.unit * signals.unit
      + weights.mention * signals.mention);
    if (score > 0) out.push({ fileId: id, path, score, signals, units });
  }
  return out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
}
