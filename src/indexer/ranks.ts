import type Database from 'better-sqlite3';
import { powerIteration, type Csr } from '../graph/power-iteration.js';
import type { IndexWriter } from '../store/writer.js';
import { GenerationCache, narrowInts, type Ints, type RowCodec } from './generation-cache.js';

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
 * start in one array each. A symbol id is its file's id · 2^20 + a number (src/store/writer.ts), so the
 * file's symbols, its modules and the sources of its edges are stored as that number (relative to the
 * file), a 32-bit integer; targets lie in any file and stay whole (narrowInts: doubles in a repository
 * of more than 2,047 files). An edge's weight and kind are a code: the index of its weight in
 * `weights` (a graph has few), times two, plus 1 for a call. Symbol ranks come in the order of their
 * ids (computeRanks), so in runs of one file each, each id relative to its file. narrowInts keeps any
 * column whose values do not fit as doubles, so rows of any shape come back exactly. Packing looks no
 * id up in a Map: ids past 2^31 are heap numbers, slow to hash (see SymbolPositions).
 */
interface PackedRankRows {
  fileIds: Ints;
  symbolStarts: Uint32Array;
  symbols: Ints;
  moduleStarts: Uint32Array;
  modules: Ints;
  /** In edges (one value each in edgeSources, edgeTargets and edgeCodes). */
  edgeStarts: Uint32Array;
  edgeSources: Ints;
  edgeTargets: Ints;
  edgeCodes: Ints;
  weights: number[];
  /** Symbol ranks in the Map's order, in runs of one file each: the run's file and where it starts, each id relative to its file. */
  rankFiles: Ints;
  rankStarts: Uint32Array;
  rankIds: Ints;
  symbolRanks: Float64Array;
  fileRankIds: Ints;
  fileRanks: Float64Array;
}

export const rankRowsCodec: RowCodec<RankRows, PackedRankRows> = {
  version: 2,
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
      edgeCount += f.edges.length / 4;
    }
    const symbols = new Float64Array(symbolCount);
    const modules = new Float64Array(moduleCount);
    const edgeSources = new Float64Array(edgeCount);
    const edgeTargets = new Float64Array(edgeCount);
    const edgeCodes = new Float64Array(edgeCount);
    const weights: number[] = [];
    let i = 0;
    let s = 0;
    let m = 0;
    let e = 0;
    for (const [id, f] of rows.files) {
      const base = id * SYMBOLS_PER_FILE;
      fileIds[i] = id;
      symbolStarts[i] = s;
      moduleStarts[i] = m;
      edgeStarts[i++] = e;
      for (const x of f.symbols) symbols[s++] = x - base;
      for (const x of f.modules) modules[m++] = x - base;
      const q = f.edges;
      for (let k = 0; k < q.length; k += 4, e++) {
        let w = weights.indexOf(q[k + 2]);
        if (w < 0) w = weights.push(q[k + 2]) - 1;
        edgeSources[e] = q[k] - base;
        edgeTargets[e] = q[k + 1];
        edgeCodes[e] = w * 2 + (q[k + 3] ? 1 : 0);
      }
    }
    symbolStarts[n] = s;
    moduleStarts[n] = m;
    edgeStarts[n] = e;
    const rankIds = new Float64Array(rows.symbolRanks.size);
    const symbolRanks = new Float64Array(rows.symbolRanks.size);
    const rankFiles: number[] = [];
    const rankStarts: number[] = [];
    let r = 0;
    let runBase = NaN;
    for (const [id, rank] of rows.symbolRanks) {
      if (!(id - runBase >= 0 && id - runBase < SYMBOLS_PER_FILE)) {
        const file = Math.floor(id / SYMBOLS_PER_FILE);
        rankFiles.push(file);
        rankStarts.push(r);
        runBase = file * SYMBOLS_PER_FILE;
      }
      rankIds[r] = id - runBase;
      symbolRanks[r++] = rank;
    }
    rankStarts.push(r);
    const fileRankIds = new Float64Array(rows.fileRanks.size);
    const fileRanks = new Float64Array(rows.fileRanks.size);
    r = 0;
    for (const [id, rank] of rows.fileRanks) {
      fileRankIds[r] = id;
      fileRanks[r++] = rank;
    }
    return { fileIds: narrowInts(fileIds), symbolStarts, symbols: narrowInts(symbols), moduleStarts, modules: narrowInts(modules),
      edgeStarts, edgeSources: narrowInts(edgeSources), edgeTargets: narrowInts(edgeTargets), edgeCodes: narrowInts(edgeCodes),
      weights, rankFiles: narrowInts(Float64Array.from(rankFiles)), rankStarts: Uint32Array.from(rankStarts), rankIds: narrowInts(rankIds),
      symbolRanks, fileRankIds: narrowInts(fileRankIds), fileRanks };
  },
  unpack(p) {
    const files = new Map<number, FileRows>();
    for (let i = 0; i < p.fileIds.length; i++) {
      const base = p.fileIds[i] * SYMBOLS_PER_FILE;
      const symbols = new Array<number>(p.symbolStarts[i + 1] - p.symbolStarts[i]);
      for (let k = p.symbolStarts[i], o = 0; k < p.symbolStarts[i + 1]; k++) symbols[o++] = p.symbols[k] + base;
      const modules = new Set<number>();
      for (let k = p.moduleStarts[i]; k < p.moduleStarts[i + 1]; k++) modules.add(p.modules[k] + base);
      const edges = new Array<number>((p.edgeStarts[i + 1] - p.edgeStarts[i]) * 4);
      for (let k = p.edgeStarts[i], o = 0; k < p.edgeStarts[i + 1]; k++) {
        const code = p.edgeCodes[k];
        edges[o++] = p.edgeSources[k] + base;
        edges[o++] = p.edgeTargets[k];
        edges[o++] = p.weights[code >> 1];
        edges[o++] = code & 1;
      }
      files.set(p.fileIds[i], { symbols, modules, edges });
    }
    const symbolRanks = new Map<number, number>();
    for (let i = 0; i < p.rankFiles.length; i++) {
      const base = p.rankFiles[i] * SYMBOLS_PER_FILE;
      for (let k = p.rankStarts[i]; k < p.rankStarts[i + 1]; k++) symbolRanks.set(p.rankIds[k] + base, p.symbolRanks[k]);
    }
    const fileRanks = new Map<number, number>();
    for (let k = 0; k < p.fileRankIds.length; k++) fileRanks.set(p.fileRankIds[k], p.fileRanks[k]);
    return { files, symbolRanks, fileRanks };
  },
};

/** The rank rows of the last generation this process wrote, per index file (see GenerationCache). */
export const rankRowsCache = new GenerationCache('rank-rows', rankRowsCodec);
