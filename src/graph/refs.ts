import type Database from 'better-sqlite3';
import { CgError } from '../errors.js';
import { edgesFrom, edgesTo, findSymbolsByRef, symbolById, type SymbolInfo } from '../store/queries.js';
import { traverse, type Hop } from './traverse.js';
import { answerWarnings, DEFAULT_LOW_CONFIDENCE } from './warnings.js';

export interface RefEntry extends SymbolInfo {
  /** The first call-site line: in the caller's file for callers, in the target's file for callees. */
  line: number | null;
  lines: number[];
  confidence: number;
  depth: number;
  /** Qualified name of the symbol this one was reached through (the target at depth 1). */
  via: string;
}

export interface RefsResult {
  target: SymbolInfo;
  callers?: RefEntry[];
  callees?: RefEntry[];
  /**
   * Types that extend or implement the target (transitively, to the depth asked); for a method, the
   * methods that override or implement it.
   */
  subtypes?: RefEntry[];
  /** Types the target extends or implements; for a method, the methods it overrides or implements. */
  supertypes?: RefEntry[];
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

export function symbolReferences(db: Database.Database, ref: string, opts: RefsOptions): RefsResult {
  const target = pickSymbol(db, ref, opts.fileGlob);
  const result: RefsResult = { target, warnings: [] };
  const callers = (id: number): Hop[] => edgesTo(db, id, ['calls']).map((e) => ({ id: e.src, line: e.line, confidence: e.confidence }));
  const callees = (id: number): Hop[] => edgesFrom(db, id, ['calls'])
    .filter((e) => e.dst !== null).map((e) => ({ id: e.dst!, line: e.line, confidence: e.confidence }));
  if (opts.callers) result.callers = entries(db, traverse(target.id, callers, opts.depth), target);
  if (opts.callees) result.callees = entries(db, traverse(target.id, callees, opts.depth), target);
  if (opts.hierarchy) {
    // Types extend and implement types; methods override methods: one walk serves both.
    const kinds = ['extends', 'implements', 'overrides'];
    const subs = (id: number): Hop[] => edgesTo(db, id, kinds).map((e) => ({ id: e.src, line: e.line, confidence: e.confidence }));
    const supers = (id: number): Hop[] => edgesFrom(db, id, kinds)
      .filter((e) => e.dst !== null).map((e) => ({ id: e.dst!, line: e.line, confidence: e.confidence }));
    result.subtypes = entries(db, traverse(target.id, subs, opts.depth), target);
    result.supertypes = entries(db, traverse(target.id, supers, opts.depth), target);
  }
  const shown = [result.callers, result.callees, result.subtypes, result.supertypes].flatMap((l) => l ?? []);
  result.warnings = answerWarnings(db, { confidences: shown.map((e) => e.confidence), files: [target.file, ...shown.map((e) => e.file)] },
    opts.lowConfidence ?? DEFAULT_LOW_CONFIDENCE);
  return result;
}

function entries(db: Database.Database, reached: ReturnType<typeof traverse>, target: SymbolInfo): RefEntry[] {
  const names = new Map<number, string>([[target.id, target.qualifiedName]]);
  const out: RefEntry[] = [];
  for (const r of reached) {
    const s = symbolById(db, r.id);
    if (!s) continue;
    names.set(s.id, s.qualifiedName);
    out.push({ ...s, line: r.lines[0] ?? null, lines: r.lines, confidence: Math.round(r.confidence * 1000) / 1000, depth: r.depth, via: '' });
  }
  const viaOf = new Map(reached.map((r) => [r.id, r.via]));
  for (const e of out) e.via = names.get(viaOf.get(e.id)!) ?? '';
  return out.sort((a, b) => a.depth - b.depth || b.confidence - a.confidence || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)
    || (a.line ?? 0) - (b.line ?? 0));
}
