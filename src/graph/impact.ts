import type Database from 'better-sqlite3';
import { edgesFromEach, edgesToEach, symbolById, symbolsByIds, type EdgeInfo, type SymbolInfo } from '../store/queries.js';
import { firedThrough } from './dispatch.js';
import { RankGraph, type WeightedEdge } from './pagerank.js';

/**
 * What depends on a set of symbols: a breadth-first walk against the direction of the edges (who
 * calls it, who imports it or the class or module holding it, who extends or implements it, which
 * methods override it, which endpoint or code registers it as a callback and which code fires the hook
 * or event it is registered under, which code reads or writes it (a type's fields, a constant, a table's
 * model class), which tests exercise it), each symbol reached once at its smallest depth, with
 * the path that reached it. A method that overrides another also runs where that one is called
 * (`calls-overridden`: dynamic dispatch). Tests are end points: the walk does not continue from a test
 * into the tests that call it. Both `get_blast_radius` and `tests_for` are views of this one walk.
 */
export const DEPENDENT_RELATIONS = ['calls', 'imports', 'extends', 'implements', 'overrides', 'registers', 'reads', 'writes', 'tests'] as const;
export type Relation = (typeof DEPENDENT_RELATIONS)[number] | 'calls-overridden' | 'fires';

export interface Reach {
  symbol: SymbolInfo;
  depth: number;
  /** How this symbol depends on `via`: it calls it, imports it, extends it, ... */
  relation: Relation;
  /** The symbol one step closer to the change. */
  via: number;
  /** The line of the edge, in this symbol's file. */
  line: number | null;
  /** Product of the confidences of the edges along the path. */
  confidence: number;
  isTest: boolean;
}

export interface DependentsOptions {
  depth: number;
  /** Stop after this many symbols (the answer says it was cut). */
  limit?: number;
  /** Paths of test files: their module-level code (describe/it suites) counts as a test. */
  testFiles: Set<string>;
  /** The relations to follow (default: all of DEPENDENT_RELATIONS). */
  relations?: readonly Relation[];
  /** Whether an import of a symbol's class or module reaches the symbol too (default true). */
  containerImports?: boolean;
}

export interface Dependents {
  reached: Map<number, Reach>;
  truncated: boolean;
}

export function dependents(db: Database.Database, seeds: SymbolInfo[], opts: DependentsOptions): Dependents {
  const limit = opts.limit ?? 2000;
  const seedIds = new Set(seeds.map((s) => s.id));
  const reached = new Map<number, Reach>();
  const cache = new Map<number, SymbolInfo | null>();
  const get = (id: number) => {
    if (!cache.has(id)) cache.set(id, symbolById(db, id));
    return cache.get(id)!;
  };
  // The symbols a frontier reaches are read at once (a hub's hundreds of dependents: one query, not one each).
  const getAll = (ids: number[]) => {
    const missing = ids.filter((id) => !cache.has(id));
    if (!missing.length) return;
    const found = symbolsByIds(db, missing);
    for (const id of missing) cache.set(id, found.get(id) ?? null);
  };
  for (const s of seeds) cache.set(s.id, s);
  const isTest = (s: SymbolInfo) => s.isTest || (s.kind === 'module' && opts.testFiles.has(s.file));
  let frontier = seeds.map((s) => ({ sym: s, confidence: 1 }));
  let truncated = false;
  for (let depth = 1; depth <= opts.depth && frontier.length; depth++) {
    const next: typeof frontier = [];
    const hops = incoming(db, frontier.map((f) => f.sym), get, getAll, opts.relations ?? DEPENDENT_RELATIONS, opts.containerImports ?? true);
    getAll(hops.flatMap((list) => list.map((h) => h.src)));
    for (const [i, { sym, confidence }] of frontier.entries()) {
      for (const hop of hops[i]) {
        if (seedIds.has(hop.src)) continue;
        const src = get(hop.src);
        if (!src) continue;
        const conf = confidence * hop.confidence;
        const prev = reached.get(hop.src);
        if (prev) {
          // Same distance, stronger evidence: keep the better path.
          if (prev.depth === depth && conf > prev.confidence) Object.assign(prev, { via: sym.id, relation: hop.kind, line: hop.line, confidence: conf });
          continue;
        }
        if (reached.size >= limit) {
          truncated = true;
          break;
        }
        const r: Reach = { symbol: src, depth, relation: hop.kind, via: sym.id, line: hop.line, confidence: conf, isTest: isTest(src) };
        reached.set(hop.src, r);
        if (!r.isTest) next.push({ sym: src, confidence: conf });
      }
    }
    frontier = next;
  }
  return { reached, truncated };
}

/** An import says a file can use a name, not that a given path runs it: weaker than a call (as test imports in the resolver). */
const IMPORT_WEIGHT = 0.6;
/** A call of the overridden method runs the override only for objects of the overriding type: weaker than a call. */
const DISPATCH_WEIGHT = 0.6;

type Hop = { src: number; kind: Relation; line: number | null; confidence: number };

/**
 * Edges into each symbol of a frontier (`incoming(...)[i]` are those of `syms[i]`), each kind read for
 * the whole frontier at once. Imports name a file's module or a top-level definition, so a method is
 * also reached by whoever imports its class or its module (at the import's confidence, scaled down: an
 * import of the module is weaker evidence than a call). Following calls also follows the code that
 * fires a hook or event the symbol is registered under, and the callers of the method it overrides.
 */
function incoming(db: Database.Database, syms: SymbolInfo[], get: (id: number) => SymbolInfo | null, getAll: (ids: number[]) => void,
  relations: readonly Relation[], containerImports: boolean): Hop[][] {
  const ids = syms.map((s) => s.id);
  const calls = relations.includes('calls');
  // A callback's registrations (to the code that fires its hook) are read with its other edges.
  const edges = edgesToEach(db, ids, calls && !relations.includes('registers') ? [...relations, 'registers'] : [...relations]);
  const chains = new Map<number, SymbolInfo[]>();
  if (containerImports && relations.includes('imports')) {
    getAll(syms.flatMap((s) => (s.parentId === null ? [] : [s.parentId])));
    for (const s of syms) {
      const chain: SymbolInfo[] = [];
      for (let p = s.parentId === null ? null : get(s.parentId); p; p = p.parentId === null ? null : get(p.parentId)) chain.push(p);
      chains.set(s.id, chain);
    }
  }
  const containerEdges = chains.size ? edgesToEach(db, [...new Set([...chains.values()].flat().map((p) => p.id))], ['imports']) : new Map<number, EdgeInfo[]>();
  const overrides = calls ? edgesFromEach(db, ids, ['overrides']) : new Map<number, EdgeInfo[]>();
  const dispatched = relations.filter((r) => r === 'calls' || r === 'tests');
  const overridden = [...new Set([...overrides.values()].flat().flatMap((o) => (o.dst === null ? [] : [o.dst])))];
  const dispatchEdges = overridden.length ? edgesToEach(db, overridden, dispatched) : new Map<number, EdgeInfo[]>();
  return syms.map((sym) => {
    const all = edges.get(sym.id) ?? [];
    const out: Hop[] = all.filter((e) => relations.includes(e.kind as Relation)).map((e) => ({ src: e.src, kind: e.kind as Relation, line: e.line,
      confidence: e.kind === 'imports' ? e.confidence * IMPORT_WEIGHT : e.confidence }));
    for (const p of chains.get(sym.id) ?? []) {
      const weight = IMPORT_WEIGHT * (p.kind === 'module' ? 0.5 : 0.8);
      for (const e of containerEdges.get(p.id) ?? []) out.push({ src: e.src, kind: 'imports', line: e.line, confidence: e.confidence * weight });
    }
    if (!calls) return out;
    for (const f of firedThrough(db, all.filter((e) => e.kind === 'registers'))) out.push({ src: f.id, kind: 'fires', line: f.line, confidence: f.confidence });
    for (const o of overrides.get(sym.id) ?? []) {
      if (o.dst === null) continue;
      for (const e of dispatchEdges.get(o.dst) ?? []) {
        out.push({ src: e.src, kind: e.kind === 'tests' ? 'tests' : 'calls-overridden', line: e.line,
          confidence: e.confidence * o.confidence * DISPATCH_WEIGHT });
      }
    }
    return out;
  });
}

/** The chain from a reached symbol back to the change: this symbol first, a seed last. */
export function pathTo(reached: Map<number, Reach>, id: number, seeds: Map<number, SymbolInfo>):
  { symbol: string; file: string; line: number | null; relation: Relation | null }[] {
  const steps: { symbol: string; file: string; line: number | null; relation: Relation | null }[] = [];
  for (let r = reached.get(id); r; r = reached.get(r.via)) {
    steps.push({ symbol: r.symbol.qualifiedName, file: r.symbol.file, line: r.line, relation: r.relation });
    const seed = seeds.get(r.via);
    if (seed) {
      steps.push({ symbol: seed.qualifiedName, file: seed.file, line: seed.startLine, relation: null });
      break;
    }
    if (steps.length > 64) break;
  }
  return steps;
}

/**
 * The reached symbols ranked by personalized PageRank from the changed ones over the dependence edges
 * among them (CodeMem's impact with use_graph): a dependent many paths lead to ranks above one at the
 * end of a single chain at the same depth. Highest first.
 */
export function rankDependents(db: Database.Database, seeds: number[], reached: Map<number, Reach>): Map<number, number> {
  const nodes = new Set([...seeds, ...reached.keys()]);
  const edges: WeightedEdge[] = [];
  const into = edgesToEach(db, [...nodes], [...DEPENDENT_RELATIONS]);
  for (const id of nodes) {
    for (const e of into.get(id) ?? []) {
      // From what changes to what depends on it: rank flows outwards from the seeds.
      if (nodes.has(e.src)) edges.push({ src: id, dst: e.src, weight: e.confidence });
    }
  }
  return new RankGraph(nodes, edges).personalized(new Map(seeds.map((s) => [s, 1])));
}
