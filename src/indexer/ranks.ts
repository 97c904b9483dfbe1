import type Database from 'better-sqlite3';
import { powerIteration, type Csr } from '../graph/power-iteration.js';
import type { IndexWriter } from '../store/writer.js';
import { GenerationCache, type RowCodec } from './generation-cache.js';

/**
 * PageRank over the call graph (symbols) and the call+import graph (files), written to
 * symbols.pagerank and files.pagerank.
 *
 * The rows the graphs come from are kept per file in a RankRows, so a long-running applier (cg watch,
 * the benchmark) reloads only the files an update rewrote instead of reading and rebuilding
 * both graphs from SQLite, and writes only the ranks that changed (an update: that moved by more than
 * RANK_TOLERANCE). The graphs are built from the rows in id order, so the computed ranks are the same
 * bits whether the rows came from a cold load or from a cached copy patched file by file
 * (test/warm-update.test.ts), and the iteration starts from the uniform vector either way, as a full
 * build's does.
 */

/** The graph rows of one file: its symbols, and the call and import edges written in it. */
export interface FileRows {
  symbols: number[];
  /** Its module symbols: nodes of the file graph (through their edges) but not of the call graph. */
  modules: Set<number>;
  /** Flat [src, dst, weight, isCall(1|0)] quadruples. */
  edges: number[];
}

/** Everything the rank graphs are made of, and the ranks the tables hold, as they stand in one generation. */
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
 * How far a stored rank may be from the computed one before an update rewrites it: 0.1 % of the
 * larger. Every symbol's rank moves a little whenever the graph gains or loses a node (the teleport
 * share is 1/n), so exact writes rewrote every symbol row, and put the whole table into the
 * write-ahead log, on every update. The power iteration itself stops at an L1 step below n × 1e-6,
 * a coarser error than this. Builds and snapshots (tolerance 0) write exact ranks.
 */
export const RANK_TOLERANCE = 1e-3;

/** Whether a stored rank may stay: equal, or within `tolerance` of the computed one, relative to the larger. */
export function rankWithin(computed: number, stored: number, tolerance: number): boolean {
  return computed === stored || Math.abs(computed - stored) <= tolerance * Math.max(Math.abs(computed), Math.abs(stored));
}

/**
 * Recomputes both PageRanks. With `previous` (the rows as they stood before this update, from
 * rankRowsCache) only the files the writer touched are read again; without it everything is. A rank
 * within `tolerance` of the stored one (see RANK_TOLERANCE) is left as stored, and the returned rows
 * hold what the tables hold.
 */
export function refreshRanks(db: Database.Database, writer: IndexWriter, previous: RankRows | null = null,
  { tolerance = 0 }: { tolerance?: number } = {}): RankRefresh {
  const touched = writer.touchedFiles();
  const patch = previous ? new Set([...touched.rows, ...touched.edges]) : null;
  const files = patch ? patchRows(db, previous!.files, patch) : loadRows(db, null);
  const rows = { files, ...computeRanks(files) };
  const changed = patch ? changedRanks(rows, previous!, touched.rows, tolerance) : changedFromStored(db, rows, tolerance);
  writer.setPageranks(changed.symbols, changed.files);
  return { mode: patch ? 'patched' : 'cold', written: changed.symbols.length + changed.files.length, rows };
}

/**
 * The ranks that differ from what the rows hold now: what was written last, or the column's default
 * (0) in rows the writer re-inserted. Module symbols rank 0 (they are no node of the call graph).
 * Ranks left as they were go back into `now`, so that it holds what the tables hold.
 */
function changedRanks(now: RankRows, previous: RankRows, reinserted: Set<number>, tolerance: number):
  { symbols: [number, number][]; files: [number, number][] } {
  const symbols: [number, number][] = [];
  const files: [number, number][] = [];
  for (const [fileId, rows] of now.files) {
    const fresh = reinserted.has(fileId);
    const r = now.fileRanks.get(fileId) ?? 0;
    const was = fresh ? 0 : previous.fileRanks.get(fileId) ?? 0;
    if (!rankWithin(r, was, tolerance)) files.push([fileId, r]);
    else if (r !== was) now.fileRanks.set(fileId, was);
    for (const id of rows.symbols) {
      const v = now.symbolRanks.get(id) ?? 0;
      const stored = fresh ? 0 : previous.symbolRanks.get(id) ?? 0;
      if (!rankWithin(v, stored, tolerance)) symbols.push([id, v]);
      else if (v !== stored) now.symbolRanks.set(id, stored);
    }
  }
  return { symbols, files };
}

/**
 * The ranks that differ from the stored ones (0 where a row has none: module symbols, rows not ranked).
 * Reading every rank costs a few milliseconds; rewriting every row (and first zeroing them all) put
 * both tables into the write-ahead log on every update, however few ranks moved. Ranks left as stored
 * go back into `now`.
 */
function changedFromStored(db: Database.Database, now: RankRows, tolerance: number): { symbols: [number, number][]; files: [number, number][] } {
  const differing = (table: 'symbols' | 'files', ranks: Map<number, number>): [number, number][] => {
    const out: [number, number][] = [];
    for (const [id, stored] of db.prepare(`SELECT id, pagerank FROM ${table}`).raw().iterate() as Iterable<[number, number]>) {
      const r = ranks.get(id) ?? 0;
      if (!rankWithin(r, stored, tolerance)) out.push([id, r]);
      else if (r !== stored) ranks.set(id, stored);
    }
    return out;
  };
  return { symbols: differing('symbols', now.symbolRanks), files: differing('files', now.fileRanks) };
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
    .raw().iterate(...params) as Iterable<[number, number, number]>) {
    const f = out.get(fileId);
    if (!f) continue;
    f.symbols.push(id);
    if (isModule) f.modules.add(id);
  }
  for (const [fileId, src, dst, weight, isCall] of db.prepare(`SELECT file_id, src_id, dst_id, confidence, kind = 'calls' FROM edges
      WHERE kind IN ('calls', 'imports') AND dst_id IS NOT NULL AND ${where('file_id')}`).raw().iterate(...params) as
      Iterable<[number, number, number, number, number]>) {
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
  const nodes = new SymbolPositions(files, fileIds);
  const callNodes = nodes.callNodes;
  let edgeCount = 0;
  for (const f of fileIds) edgeCount += files.get(f)!.edges.length / 4;
  const calls = new EdgeList(edgeCount);
  const links = new EdgeList(edgeCount);
  for (const f of fileIds) {
    const e = files.get(f)!.edges;
    for (let k = 0; k < e.length; k += 4) {
      const src = e[k];
      const dst = e[k + 1];
      const w = e[k + 2];
      if (e[k + 3]) {
        const s = nodes.callPos(src);
        const d = nodes.callPos(dst);
        if (s >= 0 && d >= 0 && s !== d && w > 0) calls.push(s, d, w);
      }
      const sf = nodes.filePos(src);
      const df = nodes.filePos(dst);
      if (sf >= 0 && df >= 0 && sf !== df) links.push(sf, df, w);
    }
  }
  const callRank = powerIteration(calls.toCsr(callNodes.length, false), null);
  const fileRank = powerIteration(links.toCsr(fileIds.length, true), null);
  const symbolRanks = new Map<number, number>();
  for (let i = 0; i < callNodes.length; i++) symbolRanks.set(callNodes[i], callRank[i]);
  const fileRanks = new Map<number, number>();
  for (let i = 0; i < fileIds.length; i++) fileRanks.set(fileIds[i], fileRank[i]);
  return { symbolRanks, fileRanks };
}

const SYMBOLS_PER_FILE = 2 ** 20; // src/store/writer.ts: a symbol's id is its file's id · 2^20 + its number in the file
const NOT_A_SYMBOL = -2;
const MODULE = -1;

/**
 * Where each symbol of the rows stands: the position of its file among the files (ascending ids),
 * and of the symbol among the call graph's nodes (every symbol but modules, ascending ids). Symbol
 * ids are their file's id · 2^20 + a number, so both come from small typed tables per file instead of
 * maps keyed by ids past 2^31 (heap numbers, slow to hash: most of a cold rank refresh on Go's
 * standard library). Rows whose ids do not have that form (none that the writer makes) take maps.
 */
class SymbolPositions {
  readonly callNodes: number[] = [];
  private readonly fileIndex = new Map<number, number>();
  /** Per file position: call position of each symbol number (MODULE, or NOT_A_SYMBOL for a number no symbol has). */
  private readonly tables: Int32Array[] = [];
  private readonly byId: { file: Map<number, number>; call: Map<number, number> } | null = null;

  constructor(files: Map<number, FileRows>, fileIds: number[]) {
    const shaped = fileIds.every((f) => files.get(f)!.symbols.every((s) => Math.floor(s / SYMBOLS_PER_FILE) === f));
    if (!shaped) {
      const file = new Map<number, number>();
      fileIds.forEach((f, pos) => {
        for (const s of files.get(f)!.symbols) file.set(s, pos);
      });
      this.callNodes = fileIds.flatMap((f) => files.get(f)!.symbols.filter((s) => !files.get(f)!.modules.has(s))).sort((a, b) => a - b);
      this.byId = { file, call: new Map(this.callNodes.map((id, i) => [id, i])) };
      return;
    }
    fileIds.forEach((f, pos) => {
      const rows = files.get(f)!;
      this.fileIndex.set(f, pos);
      const base = f * SYMBOLS_PER_FILE;
      let max = -1;
      for (const s of rows.symbols) max = Math.max(max, s - base);
      const table = new Int32Array(max + 1).fill(NOT_A_SYMBOL);
      for (const s of rows.symbols) table[s - base] = MODULE;
      // Call positions in ascending id order: files ascend, and a file's ids ascend with their numbers.
      for (let n = 0; n <= max; n++) {
        if (table[n] === MODULE && !rows.modules.has(base + n)) {
          table[n] = this.callNodes.length;
          this.callNodes.push(base + n);
        }
      }
      this.tables.push(table);
    });
  }

  /** The symbol's number in its file's table and the table, or null when it is no symbol of the rows. */
  private entry(id: number): number {
    const f = Math.floor(id / SYMBOLS_PER_FILE);
    const pos = this.fileIndex.get(f);
    if (pos === undefined) return NOT_A_SYMBOL;
    const n = id - f * SYMBOLS_PER_FILE;
    const table = this.tables[pos];
    return n < table.length ? table[n] : NOT_A_SYMBOL;
  }

  /** Position among the call graph's nodes; negative when the id is a module or no symbol of the rows. */
  callPos(id: number): number {
    if (this.byId) return this.byId.call.get(id) ?? NOT_A_SYMBOL;
    return this.entry(id);
  }

  /** Position of the symbol's file; negative when the id is no symbol of the rows. */
  filePos(id: number): number {
    if (this.byId) return this.byId.file.get(id) ?? NOT_A_SYMBOL;
    return this.entry(id) === NOT_A_SYMBOL ? NOT_A_SYMBOL : this.fileIndex.get(Math.floor(id / SYMBOLS_PER_FILE))!;
  }
}

/** Weighted edges between node positions, turned into CSR with parallel edges summed. */
class EdgeList {
  private readonly src: Int32Array;
  private readonly dst: Int32Array;
  private readonly w: Float64Array;
  private m = 0;

  constructor(capacity: number) {
    this.src = new Int32Array(capacity);
    this.dst = new Int32Array(capacity);
    this.w = new Float64Array(capacity);
  }

  push(s: number, d: number, w: number): void {
    this.src[this.m] = s;
    this.dst[this.m] = d;
    this.w[this.m++] = w;
  }

  /**
   * CSR over node positions 0..n-1. Each node's edges are ordered by (target, weight) before parallel
   * ones are summed, so the sums, and so the ranks, do not depend on the order rows came in.
   * `dropAfterSum`: drop pairs whose summed weight is not positive (the file graph's SUM, then filter).
   */
  toCsr(n: number, dropAfterSum: boolean): Csr {
    const { src, dst, w, m } = this;
    // Bucket by source (counting sort), then sort each (small) bucket.
    const bucket = new Uint32Array(n + 1);
    for (let k = 0; k < m; k++) bucket[src[k] + 1]++;
    for (let i = 0; i < n; i++) bucket[i + 1] += bucket[i];
    const cursor = bucket.slice(0, n);
    const order = new Uint32Array(m);
    for (let k = 0; k < m; k++) order[cursor[src[k]]++] = k;
    const starts = new Uint32Array(n + 1);
    const neighborhood = new Int32Array(m);
    const weights = new Float64Array(m);
    const outDegrees = new Float64Array(n);
    let out = 0;
    for (let i = 0; i < n; i++) {
      starts[i] = out;
      const from = bucket[i];
      const to = bucket[i + 1];
      if (to - from > 1) {
        const part = Array.from(order.subarray(from, to)).sort((a, b) => dst[a] - dst[b] || w[a] - w[b]);
        order.set(part, from);
      }
      for (let k = from; k < to;) {
        const d = dst[order[k]];
        let sum = 0;
        while (k < to && dst[order[k]] === d) sum += w[order[k++]];
        if (dropAfterSum && (d === i || sum <= 0)) continue;
        neighborhood[out] = d;
        weights[out++] = sum;
        outDegrees[i] += sum;
      }
    }
    starts[n] = out;
    return { starts, neighborhood, weights, outDegrees };
  }
}

/**
 * Rank rows as columns: per file (in the Map's order) its id and where its symbols, modules and edges
 * start in one array each; ids, weights and ranks are doubles, which hold every id and weight exactly.
 */
interface PackedRankRows {
  fileIds: Float64Array;
  symbolStarts: Uint32Array;
  symbols: Float64Array;
  moduleStarts: Uint32Array;
  modules: Float64Array;
  edgeStarts: Uint32Array;
  edges: Float64Array;
  symbolRanks: Float64Array;
  fileRanks: Float64Array;
}

/** A plain array of part of a typed one (a loop: Array.from over a subarray took 3-5x as long, measured on Go's rows). */
function slice(from: Float64Array, start: number, end: number): number[] {
  const out = new Array<number>(end - start);
  for (let i = start; i < end; i++) out[i - start] = from[i];
  return out;
}

/** Map entries as [key, value, key, value, ...]. */
function packRanks(ranks: Map<number, number>): Float64Array {
  const out = new Float64Array(ranks.size * 2);
  let i = 0;
  for (const [id, rank] of ranks) {
    out[i++] = id;
    out[i++] = rank;
  }
  return out;
}

function unpackRanks(packed: Float64Array): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < packed.length; i += 2) out.set(packed[i], packed[i + 1]);
  return out;
}

export const rankRowsCodec: RowCodec<RankRows, PackedRankRows> = {
  version: 1,
  pack(rows) {
    const n = rows.files.size;
    const fileIds = new Float64Array(n);
    const symbolStarts = new Uint32Array(n + 1);
    const moduleStarts = new Uint32Array(n + 1);
    const edgeStarts = new Uint32Array(n + 1);
    let symbolCount = 0;
    let moduleCount = 0;
    let edgeCount = 0;
    for (const f of rows.files.values()) {
      symbolCount += f.symbols.length;
      moduleCount += f.modules.size;
      edgeCount += f.edges.length;
    }
    const symbols = new Float64Array(symbolCount);
    const modules = new Float64Array(moduleCount);
    const edges = new Float64Array(edgeCount);
    let i = 0;
    let s = 0;
    let m = 0;
    let e = 0;
    for (const [id, f] of rows.files) {
      fileIds[i] = id;
      symbolStarts[i] = s;
      moduleStarts[i] = m;
      edgeStarts[i++] = e;
      symbols.set(f.symbols, s);
      s += f.symbols.length;
      for (const x of f.modules) modules[m++] = x;
      edges.set(f.edges, e);
      e += f.edges.length;
    }
    symbolStarts[n] = s;
    moduleStarts[n] = m;
    edgeStarts[n] = e;
    return { fileIds, symbolStarts, symbols, moduleStarts, modules, edgeStarts, edges,
      symbolRanks: packRanks(rows.symbolRanks), fileRanks: packRanks(rows.fileRanks) };
  },
  unpack(p) {
    const files = new Map<number, FileRows>();
    for (let i = 0; i < p.fileIds.length; i++) {
      files.set(p.fileIds[i], {
        symbols: slice(p.symbols, p.symbolStarts[i], p.symbolStarts[i + 1]),
        modules: new Set(p.modules.subarray(p.moduleStarts[i], p.moduleStarts[i + 1])),
        edges: slice(p.edges, p.edgeStarts[i], p.edgeStarts[i + 1]),
      });
    }
    return { files, symbolRanks: unpackRanks(p.symbolRanks), fileRanks: unpackRanks(p.fileRanks) };
  },
};

/** The rank rows of the last generation this process wrote, per index file (see GenerationCache). */
export const rankRowsCache = new GenerationCache('rank-rows', rankRowsCodec);
