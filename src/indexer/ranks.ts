import type Database from 'better-sqlite3';
import { powerIteration, type Csr } from '../graph/pagerank.js';
import type { IndexWriter } from '../store/writer.js';
import { GenerationCache } from './generation-cache.js';

/**
 * PageRank over the call graph (symbols) and the call+import graph (files), written to
 * symbols.pagerank and files.pagerank.
 *
 * The rows the graphs come from are kept per file in a RankRows, so a long-running applier (cg watch,
 * a server, the benchmark) reloads only the files an update rewrote instead of reading and rebuilding
 * both graphs from SQLite, and writes only the ranks that changed. The graphs are built from the rows
 * in id order, so the ranks are the same bits whether the rows came from a cold load or from a cached
 * copy patched file by file (test/ranks.test.ts), and the iteration starts from the uniform vector
 * either way, as a full build's does.
 */

/** The graph rows of one file: its symbols, and the call and import edges written in it. */
export interface FileRows {
  symbols: number[];
  /** Its module symbols: nodes of the file graph (through their edges) but not of the call graph. */
  modules: Set<number>;
  /** Flat [src, dst, weight, isCall(1|0)] quadruples. */
  edges: number[];
}

/** Everything the rank graphs are made of, and the ranks last written, as they stand in one generation. */
export interface RankRows {
  files: Map<number, FileRows>;
  symbolRanks: Map<number, number>;
  fileRanks: Map<number, number>;
}

export interface RankRefresh {
  /** cold: every row read; patched: only the files this update rewrote. */
  mode: 'cold' | 'patched';
  /** Symbol and file rows whose rank was written. */
  written: number;
  rows: RankRows;
}

/**
 * Recomputes both PageRanks. With `previous` (the rows as they stood before this update, from
 * rankRowsCache.put) only the files the writer touched are read again; without it everything is.
 */
export function refreshRanks(db: Database.Database, writer: IndexWriter, previous: RankRows | null = null): RankRefresh {
  const touched = writer.touchedFiles();
  const patch = previous && touched.edges !== 'all' ? new Set([...touched.rows, ...touched.edges]) : null;
  const files = patch ? patchRows(db, previous!.files, patch) : loadRows(db, null);
  const { symbolRanks, fileRanks } = computeRanks(files);
  const rows = { files, symbolRanks, fileRanks };
  if (!patch) {
    writer.setPageranks(symbolRanks, fileRanks, { reset: true });
    return { mode: 'cold', written: symbolRanks.size + fileRanks.size, rows };
  }
  const changed = changedRanks(rows, previous!, touched.rows);
  writer.setPageranks(changed.symbols, changed.files, { reset: false });
  return { mode: 'patched', written: changed.symbols.length + changed.files.length, rows };
}

/**
 * The ranks that differ from what the rows hold now: what was written last, or the column's default
 * (0) in rows the writer re-inserted. Module symbols rank 0 (they are no node of the call graph).
 */
function changedRanks(now: RankRows, previous: RankRows, reinserted: Set<number>): { symbols: [number, number][]; files: [number, number][] } {
  const symbols: [number, number][] = [];
  const files: [number, number][] = [];
  for (const [fileId, rows] of now.files) {
    const fresh = reinserted.has(fileId);
    const r = now.fileRanks.get(fileId) ?? 0;
    if (r !== (fresh ? 0 : previous.fileRanks.get(fileId) ?? 0)) files.push([fileId, r]);
    for (const id of rows.symbols) {
      const v = now.symbolRanks.get(id) ?? 0;
      if (v !== (fresh ? 0 : previous.symbolRanks.get(id) ?? 0)) symbols.push([id, v]);
    }
  }
  return { symbols, files };
}

/** Every rank row, read afresh: what a full build ranks from. */
export function loadRankRows(db: Database.Database): Map<number, FileRows> {
  return loadRows(db, null);
}

/** Reads the rank rows of the given files (all when null). */
function loadRows(db: Database.Database, only: Set<number> | null): Map<number, FileRows> {
  const where = (col: string) => (only ? `${col} IN (SELECT value FROM json_each(?))` : '1');
  const params = only ? [JSON.stringify([...only])] : [];
  const out = new Map<number, FileRows>();
  for (const id of db.prepare(`SELECT id FROM files WHERE ${where('id')}`).pluck().all(...params) as number[]) {
    out.set(id, { symbols: [], modules: new Set(), edges: [] });
  }
  for (const [id, fileId, isModule] of db.prepare(`SELECT id, file_id, kind = 'module' FROM symbols WHERE ${where('file_id')}`)
    .raw().all(...params) as [number, number, number][]) {
    const f = out.get(fileId);
    if (!f) continue;
    f.symbols.push(id);
    if (isModule) f.modules.add(id);
  }
  for (const [fileId, src, dst, weight, isCall] of db.prepare(`SELECT file_id, src_id, dst_id, confidence, kind = 'calls' FROM edges
      WHERE kind IN ('calls', 'imports') AND dst_id IS NOT NULL AND ${where('file_id')}`).raw().all(...params) as
      [number, number, number, number, number][]) {
    out.get(fileId)?.edges.push(src, dst, weight, isCall);
  }
  return out;
}

/** The previous rows with the touched files read again (or dropped, when they are gone). */
function patchRows(db: Database.Database, previous: Map<number, FileRows>, touched: Set<number>): Map<number, FileRows> {
  const out = new Map(previous);
  for (const id of touched) out.delete(id);
  for (const [id, rows] of loadRows(db, touched)) out.set(id, rows);
  return out;
}

/**
 * The two graphs as SQL defined them before (src/store/graph-data.ts): the call graph has every
 * symbol but modules as a node and call edges between existing nodes; the file graph has every file,
 * and the calls and imports between symbols of two different files, summed per pair. Self-loops and
 * non-positive weights are dropped, parallel edges summed, as RankGraph does.
 */
export function computeRanks(files: Map<number, FileRows>): { symbolRanks: Map<number, number>; fileRanks: Map<number, number> } {
  const fileIds = [...files.keys()].sort((a, b) => a - b);
  const fileOf = new Map<number, number>();
  const callNodes: number[] = [];
  for (const f of fileIds) {
    const rows = files.get(f)!;
    for (const s of rows.symbols) {
      fileOf.set(s, f);
      if (!rows.modules.has(s)) callNodes.push(s);
    }
  }
  callNodes.sort((a, b) => a - b);
  const callPos = new Map(callNodes.map((id, i) => [id, i]));
  const filePos = new Map(fileIds.map((id, i) => [id, i]));
  const callEdges: number[] = [];
  const fileEdges: number[] = [];
  for (const f of fileIds) {
    const e = files.get(f)!.edges;
    for (let k = 0; k < e.length; k += 4) {
      const [src, dst, w, isCall] = [e[k], e[k + 1], e[k + 2], e[k + 3]];
      if (isCall) {
        const s = callPos.get(src);
        const d = callPos.get(dst);
        if (s !== undefined && d !== undefined && s !== d && w > 0) callEdges.push(s, d, w);
      }
      const sf = fileOf.get(src);
      const df = fileOf.get(dst);
      if (sf !== undefined && df !== undefined && sf !== df) fileEdges.push(filePos.get(sf)!, filePos.get(df)!, w);
    }
  }
  const callRank = powerIteration(toCsr(callNodes.length, callEdges, false), null);
  const fileRank = powerIteration(toCsr(fileIds.length, fileEdges, true), null);
  return {
    symbolRanks: new Map(callNodes.map((id, i) => [id, callRank[i]])),
    fileRanks: new Map(fileIds.map((id, i) => [id, fileRank[i]])),
  };
}

/**
 * CSR of flat [src, dst, weight] triples over node positions 0..n-1, parallel edges summed. Sorted by
 * (src, dst, weight) first, so the sums, and so the ranks, do not depend on the order rows came in.
 * `dropAfterSum`: drop pairs whose summed weight is not positive (the file graph's SUM then filter).
 */
function toCsr(n: number, triples: number[], dropAfterSum: boolean): Csr {
  const m = triples.length / 3;
  const order = Array.from({ length: m }, (_, i) => i)
    .sort((a, b) => triples[3 * a] - triples[3 * b] || triples[3 * a + 1] - triples[3 * b + 1] || triples[3 * a + 2] - triples[3 * b + 2]);
  const starts = new Uint32Array(n + 1);
  const neighborhood: number[] = [];
  const weights: number[] = [];
  const outDegrees = new Float64Array(n);
  let src = -1;
  let k = 0;
  const close = (upTo: number) => {
    for (let i = src + 1; i <= upTo; i++) starts[i] = neighborhood.length;
  };
  while (k < m) {
    const s = triples[3 * order[k]];
    const d = triples[3 * order[k] + 1];
    let w = 0;
    while (k < m && triples[3 * order[k]] === s && triples[3 * order[k] + 1] === d) w += triples[3 * order[k++] + 2];
    if (dropAfterSum && (s === d || w <= 0)) continue;
    if (s !== src) {
      close(s);
      src = s;
    }
    neighborhood.push(d);
    weights.push(w);
    outDegrees[s] += w;
  }
  close(n);
  return { starts, neighborhood, weights, outDegrees };
}

/** The rank rows of the last generation this process wrote, per index file (see GenerationCache). */
export const rankRowsCache = new GenerationCache<RankRows>();
