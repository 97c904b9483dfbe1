import type Database from 'better-sqlite3';
import { CgError } from '../errors.js';
import { edgesFrom, edgesFromEach, edgesTo, edgesToEach, findSymbolsByRef, symbolBriefsByIds, symbolsByIds, type EdgeInfo, type SymbolBrief,
  type SymbolInfo } from '../store/queries.js';
import { traverse, type Hop } from './traverse.js';
import { answerWarnings, DEFAULT_LOW_CONFIDENCE } from './warnings.js';
import { firedThrough, firesThrough, type NamedCall } from './dispatch.js';
import { appendAll } from '../arrays.js';

/** A symbol reached, and how: the whole symbol record, or with `brief` only a SymbolBrief. */
export type RefEntry<S extends SymbolBrief = SymbolInfo> = S & RefLink;

export interface RefLink {
  /** The first call-site line: in the caller's file for callers, in the target's file for callees. */
  line: number | null;
  lines: number[];
  confidence: number;
  depth: number;
  /** Qualified name of the symbol this one was reached through (the target at depth 1). */
  via: string;
  /**
   * How it is linked to `via`: `calls`; `registers` (an endpoint or the code that registers `via`
   * as a callback, or the callback registered); `fires` (code that fires a hook or event `via` is
   * registered under, or the callback it runs); in the hierarchy `extends`, `implements`, `overrides`.
   */
  relation: string;
  /** What the edge names: the field read or written (`email`), the table (`table:users`), the route or hook (`action:init`). */
  target?: string;
}

export interface RefsResult<S extends SymbolBrief = SymbolInfo> {
  target: SymbolInfo;
  callers?: RefEntry<S>[];
  callees?: RefEntry<S>[];
  /**
   * Types that extend or implement the target (transitively, to the depth asked); for a method, the
   * methods that override or implement it.
   */
  subtypes?: RefEntry<S>[];
  /** Types the target extends or implements; for a method, the methods it overrides or implements. */
  supertypes?: RefEntry<S>[];
  /** For a type, constant or module (with callers): the code that reads or writes it (`target`: the field or table). */
  readers?: RefEntry<S>[];
  writers?: RefEntry<S>[];
  /** For a function or method (with callees): the types, constants and tables it reads or writes. */
  reads?: RefEntry<S>[];
  writes?: RefEntry<S>[];
  /** Uncertain relations (counted) and partially parsed files in the answer (src/graph/warnings.ts). */
  warnings: string[];
}

export interface RefsOptions {
  callers: boolean;
  callees: boolean;
  depth: number;
  fileGlob?: string;
  /** Also the inheritance edges: implementors and subclasses, and the types it extends or implements. */
  hierarchy?: boolean;
  /** Warn about relations of this confidence or less (default 0.7). */
  lowConfidence?: number;
  /** Only the implementors and subclasses (Bombe's direction "implementors"). */
  subtypes?: boolean;
  /** Only the types it extends or implements (Bombe's direction "supers"). */
  supertypes?: boolean;
  /** Entries carry a SymbolBrief, not the whole record: for answers that show only names and places (MCP). */
  brief?: boolean;
}

/** Exactly one symbol for a user's reference, or an error that lists the candidates. */
export function pickSymbol(db: Database.Database, ref: string, fileGlob?: string): SymbolInfo {
  const found = findSymbolsByRef(db, ref, fileGlob);
  if (!found.length) {
    throw new CgError('not_found', `No symbol named "${ref}"${fileGlob ? ` in files matching ${fileGlob}` : ''}`,
      'Search with `cg symbols <part-of-name>` and use the qualified name it prints.');
  }
  if (found.length > 1) {
    const list = found.slice(0, 10).map((s) => `${s.file}:${s.qualifiedName}`).join(', ');
    throw new CgError('ambiguous', `"${ref}" names ${found.length} symbols: ${list}${found.length > 10 ? ', …' : ''}`,
      'Name one: a qualified name (Class.method), file:name (path/to/file.py:Class.method), or add --file GLOB.',
      { candidates: found.slice(0, 50).map((s) => ({ qualifiedName: s.qualifiedName, kind: s.kind, file: s.file, startLine: s.startLine })) });
  }
  return found[0];
}

const CALL_KINDS = ['calls', 'registers'];
const hopFrom = (e: EdgeInfo): Hop => ({ id: e.src, line: e.line, confidence: e.confidence, relation: e.kind, target: e.target });
const hopTo = (e: EdgeInfo): Hop => ({ id: e.dst!, line: e.line, confidence: e.confidence, relation: e.kind, target: e.target });
const fired = (f: NamedCall): Hop => ({ id: f.id, line: f.line, confidence: f.confidence, relation: 'fires' });

/**
 * A walk's steps along edges of `kinds`, a frontier read at once: against the edges (`reverse`: from a
 * node to what points at it, as callers and subtypes) or along them (callees, supertypes).
 */
export function edgeHops(db: Database.Database, kinds: string[], reverse: boolean): (ids: number[]) => Hop[][] {
  return (ids) => {
    const edges = (reverse ? edgesToEach : edgesFromEach)(db, ids, kinds);
    return ids.map((id) => (edges.get(id) ?? []).flatMap((e) => {
      const other = reverse ? e.src : e.dst;
      return other === null ? [] : [{ id: other, line: e.line, confidence: e.confidence, relation: e.kind }];
    }));
  };
}

/** What data can be read or written through: types (their fields), constants, modules (their globals). */
const DATA_HOLDERS = new Set(['class', 'struct', 'interface', 'enum', 'trait', 'type', 'constant', 'module']);

export function symbolReferences(db: Database.Database, ref: string, opts: RefsOptions & { brief: true }): RefsResult<SymbolBrief>;
export function symbolReferences(db: Database.Database, ref: string, opts: RefsOptions & { brief?: false }): RefsResult;
export function symbolReferences(db: Database.Database, ref: string, opts: RefsOptions): RefsResult<SymbolBrief> {
  const target = pickSymbol(db, ref, opts.fileGlob);
  const result: RefsResult<SymbolBrief> = { target, warnings: [] };
  const read = (ids: Iterable<number>): Map<number, SymbolBrief> => (opts.brief ? symbolBriefsByIds : symbolsByIds)(db, ids);
  const entries = (reached: ReturnType<typeof traverse>) => reachedEntries(read, reached, target);
  // Registrations and fired names count as calls: the endpoint or hook runs the callback. A frontier's
  // edges are read at once; a node's `registers` edges are among its callers' (firedThrough).
  const callers = (ids: number[]): Hop[][] => {
    const edges = edgesToEach(db, ids, CALL_KINDS);
    return ids.map((id) => {
      const es = edges.get(id) ?? [];
      return [...es.map(hopFrom), ...firedThrough(db, es.filter((e) => e.kind === 'registers')).map(fired)];
    });
  };
  const callees = (ids: number[]): Hop[][] => {
    const edges = edgesFromEach(db, ids, [...CALL_KINDS, 'fires']);
    return ids.map((id) => {
      const es = edges.get(id) ?? [];
      return [...es.filter((e) => e.kind !== 'fires' && e.dst !== null).map(hopTo), ...firesThrough(db, es.filter((e) => e.kind === 'fires')).map(fired)];
    });
  };
  if (opts.callers) result.callers = entries(traverse(target.id, callers, opts.depth));
  if (opts.callees) result.callees = entries(traverse(target.id, callees, opts.depth));
  // Types extend and implement types; methods override methods: one walk serves both.
  const kinds = ['extends', 'implements', 'overrides'];
  if (opts.hierarchy || opts.subtypes) {
    result.subtypes = entries(traverse(target.id, edgeHops(db, kinds, true), opts.depth));
  }
  if (opts.hierarchy || opts.supertypes) {
    result.supertypes = entries(traverse(target.id, edgeHops(db, kinds, false), opts.depth));
  }
  const access = (kind: string, incoming: boolean) => dataAccess(db, read, target, kind, incoming);
  if (opts.callers && DATA_HOLDERS.has(target.kind)) {
    result.readers = access('reads', true);
    result.writers = access('writes', true);
  }
  if (opts.callees && (target.kind === 'function' || target.kind === 'method' || target.kind === 'endpoint')) {
    result.reads = access('reads', false);
    result.writes = access('writes', false);
  }
  const shown = [result.callers, result.callees, result.subtypes, result.supertypes, result.readers, result.writers, result.reads,
    result.writes].flatMap((l) => l ?? []);
  result.warnings = answerWarnings(db, { confidences: shown.map((e) => e.confidence), files: [target.file, ...shown.map((e) => e.file)] },
    opts.lowConfidence ?? DEFAULT_LOW_CONFIDENCE);
  return result;
}

/**
 * Data access, one step: who reads or writes a type, constant or module (incoming), or what a function
 * reads or writes. One entry per symbol, its `target` listing every field or table it touches.
 */
function dataAccess<S extends SymbolBrief>(db: Database.Database, read: (ids: Iterable<number>) => Map<number, S>, target: SymbolInfo, kind: string,
  incoming: boolean): RefEntry<S>[] {
  const edges = incoming ? edgesTo(db, target.id, [kind]).map((e) => ({ ...e, other: e.src }))
    : edgesFrom(db, target.id, [kind]).filter((e) => e.dst !== null).map((e) => ({ ...e, other: e.dst! }));
  const by = new Map<number, { lines: number[]; confidence: number; targets: string[] }>();
  for (const e of edges) {
    const x = by.get(e.other) ?? { lines: [], confidence: 0, targets: [] };
    if (e.line !== null && !x.lines.includes(e.line)) x.lines.push(e.line);
    x.confidence = Math.max(x.confidence, e.confidence);
    if (e.target && !x.targets.includes(e.target)) x.targets.push(e.target);
    by.set(e.other, x);
  }
  const out: RefEntry<S>[] = [];
  const symbols = read(by.keys());
  for (const [id, x] of by) {
    const s = symbols.get(id);
    if (!s) continue;
    out.push(Object.assign({}, s, { line: x.lines[0] ?? null, lines: x.lines, confidence: Math.round(x.confidence * 1000) / 1000, depth: 1,
      via: target.qualifiedName, relation: kind }, x.targets.length ? { target: x.targets.join(', ') } : {}));
  }
  return out.sort((a, b) => b.confidence - a.confidence || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || (a.line ?? 0) - (b.line ?? 0));
}

/**
 * The symbols a walk reached, as entries. Entries are made with Object.assign rather than an object
 * spread of the symbol: V8 copies these symbol records ~10× slower through a spread (measured: 250
 * records 3 ms against 0.3 ms), which was the largest part of a hub symbol's references.
 */
function reachedEntries<S extends SymbolBrief>(read: (ids: Iterable<number>) => Map<number, S>, reached: ReturnType<typeof traverse>,
  target: SymbolInfo): RefEntry<S>[] {
  const names = new Map<number, string>([[target.id, target.qualifiedName]]);
  const out: RefEntry<S>[] = [];
  const symbols = read(reached.map((r) => r.id));
  for (const r of reached) {
    const s = symbols.get(r.id);
    if (!s) continue;
    names.set(s.id, s.qualifiedName);
    out.push(Object.assign({}, s, { line: r.lines[0] ?? null, lines: r.lines, confidence: Math.round(r.confidence * 1000) / 1000,
      depth: r.depth, via: '', relation: r.relation ?? 'calls' }, r.target ? { target: r.target } : {}));
  }
  const viaOf = new Map(reached.map((r) => [r.id, r.via]));
  for (const e of out) e.via = names.get(viaOf.get(e.id)!) ?? '';
  return out.sort((a, b) => a.depth - b.depth || b.confidence - a.confidence || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)
    || (a.line ?? 0) - (b.line ?? 0));
}

/** A place that refers to a symbol (CodeMem's references): the referring symbol, the line, and how it refers. */
export interface Reference {
  from: SymbolInfo;
  line: number | null;
  /** calls, imports, or extends (extends and implements both). */
  kind: 'calls' | 'imports' | 'extends';
  confidence: number;
}

const REFERENCE_KINDS: Record<Reference['kind'], string[]> = { calls: ['calls'], imports: ['imports'], extends: ['extends', 'implements'] };

/** Every direct reference to a symbol of the given kinds: calls first, then imports, then subtypes; each in file and line order. */
export function referencesTo(db: Database.Database, id: number, kinds: Reference['kind'][]): Reference[] {
  const out: Reference[] = [];
  for (const kind of kinds) {
    const edges = edgesTo(db, id, REFERENCE_KINDS[kind]);
    const symbols = symbolsByIds(db, edges.map((e) => e.src));
    const found = edges.flatMap((e) => {
      const from = symbols.get(e.src);
      return from ? [{ from, line: e.line, kind, confidence: Math.round(e.confidence * 1000) / 1000 }] : [];
    });
    appendAll(out, found.sort((a, b) => a.from.file.localeCompare(b.from.file) || (a.line ?? 0) - (b.line ?? 0)));
  }
  return out;
}
