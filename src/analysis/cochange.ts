import type Database from 'better-sqlite3';
import { commitFileSets } from '../repo/history-sets.js';
import { edgeKinds, fileEdges, indexedFiles, STRUCTURAL_KINDS } from '../store/analysis-data.js';

/**
 * Files that change together (logical coupling) over the newest commits: for each pair, how many
 * commits touched both (support) and the share of the rarer file's commits that also touched the other
 * (confidence). Large commits (mass renames, formatting) are left out: they couple everything with
 * everything. A pair with no edge between its files in the index is marked `hidden`: coupled in
 * history, invisible in the code's structure (a template and its view, a schema and its parser).
 */
export interface CoChangePair {
  a: string;
  b: string;
  support: number;
  confidence: number;
  /** No call, import or other edge between the two files in either direction. */
  hidden: boolean;
}

export interface CoChangeReport {
  pairs: CoChangePair[];
  commits: number;
  /** Commits left out for touching more than maxFiles files. */
  skippedLarge: number;
  minSupport: number;
}

export const COCHANGE_DEFAULTS = { commits: 1000, maxFiles: 30, minSupport: 3, minConfidence: 0.3 };

export function coChange(db: Database.Database, root: string, opts: { commits?: number; maxFiles?: number; minSupport?: number; minConfidence?: number;
  file?: string; indexedOnly?: boolean; limit?: number } = {}): CoChangeReport {
  const o = { ...COCHANGE_DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  const sets = commitFileSets(root, { max: o.commits });
  const indexed = new Set(indexedFiles(db).map((f) => f.path));
  const keep = (p: string) => !opts.indexedOnly || indexed.has(p);
  const single = new Map<string, number>();
  const pair = new Map<string, number>();
  let skipped = 0;
  for (const raw of sets) {
    if (raw.length > o.maxFiles) {
      skipped++;
      continue;
    }
    const files = [...new Set(raw.filter(keep))].sort();
    for (const f of files) single.set(f, (single.get(f) ?? 0) + 1);
    for (let i = 0; i < files.length; i++) for (let j = i + 1; j < files.length; j++) {
      const k = `${files[i]}\0${files[j]}`;
      pair.set(k, (pair.get(k) ?? 0) + 1);
    }
  }
  const linked = new Set<string>();
  for (const e of fileEdges(db, edgeKinds(db).filter((k) => !STRUCTURAL_KINDS.includes(k)))) linked.add([e.src, e.dst].sort().join('\0'));
  let pairs: CoChangePair[] = [];
  for (const [k, n] of pair) {
    if (n < o.minSupport) continue;
    const [a, b] = k.split('\0');
    const confidence = n / Math.min(single.get(a)!, single.get(b)!);
    if (confidence < o.minConfidence) continue;
    if (opts.file && a !== opts.file && b !== opts.file) continue;
    pairs.push({ a, b, support: n, confidence: Math.round(confidence * 1000) / 1000, hidden: indexed.has(a) && indexed.has(b) && !linked.has(k) });
  }
  pairs.sort((x, y) => y.support - x.support || y.confidence - x.confidence || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  if (opts.limit) pairs = pairs.slice(0, opts.limit);
  return { pairs, commits: sets.length, skippedLarge: skipped, minSupport: o.minSupport };
}
