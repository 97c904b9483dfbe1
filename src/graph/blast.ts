import type Database from 'better-sqlite3';
import { plural } from '../words.js';
import { CgError } from '../errors.js';
import type { SymbolInfo } from '../store/queries.js';
import { DEPENDENT_RELATIONS, dependents, pathTo, rankDependents, type Reach, type Relation } from './impact.js';
import { changeTargets, type ChangeInput, type ChangedSymbol } from './targets.js';
import { answerWarnings, DEFAULT_LOW_CONFIDENCE } from './warnings.js';

/** A symbol as the impact answers show it: enough to open it, not its whole record. */
export interface SymbolRef {
  id: number;
  symbol: string;
  kind: string;
  file: string;
  startLine: number;
  endLine: number;
}

export interface PathStep {
  symbol: string;
  file: string;
  line: number | null;
  /** How this step depends on the next one (null on the changed symbol itself). */
  relation: Relation | null;
}

export interface TestHit extends SymbolRef {
  depth: number;
  confidence: number;
  /** From the test to the changed symbol: the calls, imports or test edges that link them. */
  path: PathStep[];
}

export interface TestsForResult {
  changed: (SymbolRef & { reason: string })[];
  unmatched: { input: string; reason: string }[];
  tests: TestHit[];
  /** Test files to run, best first, with how many of the tests above are in each. */
  testFiles: { file: string; tests: number; confidence: number }[];
  depth: number;
  truncated: boolean;
  warnings: string[];
}

export const DEFAULT_IMPACT_DEPTH = 3;

/**
 * What kind of change the blast radius is for (Bombe §5 change_type), and so which dependents it can
 * break: a signature change breaks the call sites, the methods that override it and the registrations
 * that call it back (every direct one must change; their callers only if those change in turn); a
 * behaviour change reaches the callers (hooks fired and dynamic dispatch included), registrations, the
 * code that reads or writes what changed, and the tests that reach them; a deletion breaks every
 * reference, imports, subtypes and overrides included. `any` follows every relation and
 * counts an import of the symbol's class or module as reaching it (`cg impact`, tests_for).
 */
export const CHANGE_TYPES = ['signature', 'behavior', 'delete', 'any'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

const CHANGE_WALK: Record<ChangeType, { relations: readonly Relation[]; containerImports: boolean }> = {
  // Overrides must keep the signature they override; a registration calls the callback with one.
  signature: { relations: ['calls', 'overrides', 'registers'], containerImports: false },
  behavior: { relations: ['calls', 'registers', 'reads', 'writes', 'tests'], containerImports: false },
  delete: { relations: DEPENDENT_RELATIONS, containerImports: false },
  any: { relations: DEPENDENT_RELATIONS, containerImports: true },
};
export const MAX_IMPACT_DEPTH = 6;

function ref(s: SymbolInfo): SymbolRef {
  return { id: s.id, symbol: s.qualifiedName, kind: s.kind, file: s.file, startLine: s.startLine, endLine: s.endLine };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function testFilesOf(db: Database.Database): Set<string> {
  return new Set(db.prepare('SELECT path FROM files WHERE is_test = 1').pluck().all() as string[]);
}

function requireChanges(input: ChangeInput): void {
  if (!input.files?.length && !input.symbols?.length && !input.diff?.trim()) {
    throw new CgError('usage', 'Nothing to look at: no files, symbols or diff given',
      'Pass the changed files, the changed symbols (qualified names), or the output of `git diff`.');
  }
}

/**
 * The tests to run first for a change (spec 004, user story 5): every test that reaches a changed
 * symbol through calls, imports or test edges within `depth` steps, strongest link first, each with
 * the chain that links it to the change.
 */
export function testsFor(db: Database.Database, input: ChangeInput, depth: number, checkPath: (p: string) => string,
  lowConfidence = DEFAULT_LOW_CONFIDENCE): TestsForResult {
  requireChanges(input);
  const { changed, unmatched } = changeTargets(db, input, checkPath);
  const seeds = new Map(changed.map((c) => [c.symbol.id, c.symbol]));
  const walk = dependents(db, [...seeds.values()], { depth, testFiles: testFilesOf(db) });
  const tests = testHits(walk.reached, seeds);
  // A changed test is itself a test to run.
  for (const c of changed) {
    if (c.symbol.isTest) tests.unshift(Object.assign(ref(c.symbol), { depth: 0, confidence: 1, path: [{ symbol: c.symbol.qualifiedName, file: c.symbol.file, line: c.symbol.startLine, relation: null }] }));
  }
  const warnings: string[] = [];
  if (!changed.length) warnings.push('None of the inputs matched an indexed symbol or file; see unmatched.');
  else if (!tests.length) warnings.push(`No test reaches the change within ${depth} steps of calls, imports or test edges: run the whole suite, or raise max_depth.`);
  warnings.push(...answerWarnings(db, { confidences: tests.filter((t) => t.depth > 0).map((t) => t.confidence),
    files: [...changed.map((c) => c.symbol.file), ...tests.flatMap((t) => t.path.map((p) => p.file))] }, lowConfidence));
  return { changed: changed.map(changedRef), unmatched, tests, testFiles: testFiles(tests), depth, truncated: walk.truncated, warnings };
}

function changedRef(c: ChangedSymbol): SymbolRef & { reason: string } {
  return Object.assign(ref(c.symbol), { reason: c.reason });
}

function testHits(reached: Map<number, Reach>, seeds: Map<number, SymbolInfo>): TestHit[] {
  return [...reached.values()].filter((r) => r.isTest)
    .map((r) => Object.assign(ref(r.symbol), { depth: r.depth, confidence: round(r.confidence), path: pathTo(reached, r.symbol.id, seeds) }))
    .sort((a, b) => b.confidence - a.confidence || a.depth - b.depth || a.file.localeCompare(b.file) || a.startLine - b.startLine);
}

function testFiles(tests: TestHit[]): TestsForResult['testFiles'] {
  const by = new Map<string, { file: string; tests: number; confidence: number }>();
  for (const t of tests) {
    const e = by.get(t.file) ?? { file: t.file, tests: 0, confidence: 0 };
    e.tests++;
    e.confidence = Math.max(e.confidence, t.confidence);
    by.set(t.file, e);
  }
  return [...by.values()].sort((a, b) => b.confidence - a.confidence || b.tests - a.tests || a.file.localeCompare(b.file));
}

export interface Dependent extends SymbolRef {
  depth: number;
  relation: Relation;
  /** The symbol it depends on, one step closer to the change. */
  via: string;
  line: number | null;
  confidence: number;
  isTest: boolean;
  /** With the graph option: personalized PageRank from the change. */
  graphScore?: number;
}

export interface BlastRadius {
  targets: (SymbolRef & { reason: string })[];
  unmatched: { input: string; reason: string }[];
  /**
   * Depth 1, by relation: who calls the targets (or, for an override, the method it overrides; or fires
   * a hook they are registered under), imports them, extends, implements or overrides them, registers
   * them as a callback (the endpoints that expose them, the hook registrations), reads or writes them (a
   * model's fields or table, a constant), or tests them directly.
   */
  direct: Record<'callers' | 'importers' | 'subtypes' | 'registrations' | 'dataAccess' | 'tests', Dependent[]>;
  /** Depth 2 and beyond. */
  transitive: Dependent[];
  byDepth: Record<string, number>;
  affectedFiles: { file: string; dependents: number; nearest: number; isTest: boolean }[];
  tests: TestHit[];
  risk: { level: 'low' | 'medium' | 'high'; reasons: string[] };
  changeType: ChangeType;
  depth: number;
  truncated: boolean;
  /** Uncertain dependents (counted) and partially parsed files in the answer (src/graph/warnings.ts). */
  warnings: string[];
  /** With the graph option: the dependents and the edges that reached them (dependent → what it depends on). */
  graph?: { nodes: { id: number; symbol: string; file: string; changed: boolean }[]; edges: { from: number; to: number; relation: Relation }[] };
}

/** Bombe §5: what a change to these symbols or files can break, how far, and which tests would notice. */
export interface BlastOptions {
  changeType?: ChangeType;
  /**
   * Rank the dependents by personalized PageRank from the change over the dependence edges among them
   * (graphScore; transitive dependents sorted by it) and give that graph (nodes and edges) with the answer.
   */
  graph?: boolean;
  /** Relations at or below this confidence are counted in a warning (config warnings.lowConfidence). */
  lowConfidence?: number;
}

export function blastRadius(db: Database.Database, input: ChangeInput, depth: number, checkPath: (p: string) => string,
  opts: BlastOptions = {}): BlastRadius {
  const changeType = opts.changeType ?? 'any';
  requireChanges(input);
  const { changed, unmatched } = changeTargets(db, input, checkPath);
  const seeds = new Map(changed.map((c) => [c.symbol.id, c.symbol]));
  const testFilesSet = testFilesOf(db);
  const walk = dependents(db, [...seeds.values()], { depth, testFiles: testFilesSet, ...CHANGE_WALK[changeType] });
  // Object.assign onto the new record rather than a spread of it: V8 copies through a spread several times slower (hundreds per hub).
  const all: Dependent[] = [...walk.reached.values()].map((r): Dependent => Object.assign(ref(r.symbol), {
    depth: r.depth, relation: r.relation, via: (seeds.get(r.via) ?? walk.reached.get(r.via)?.symbol)?.qualifiedName ?? '',
    line: r.line, confidence: round(r.confidence), isTest: r.isTest,
  })).sort((a, b) => a.depth - b.depth || b.confidence - a.confidence || a.file.localeCompare(b.file) || a.startLine - b.startLine);
  let graph: BlastRadius['graph'];
  if (opts.graph) {
    const scores = rankDependents(db, [...seeds.keys()], walk.reached);
    for (const d of all) d.graphScore = Math.round((scores.get(d.id) ?? 0) * 1e6) / 1e6;
    all.sort((a, b) => a.depth - b.depth || (b.graphScore ?? 0) - (a.graphScore ?? 0));
    graph = {
      nodes: [...[...seeds.values()].map((s) => ({ id: s.id, symbol: s.qualifiedName, file: s.file, changed: true })),
        ...all.map((d) => ({ id: d.id, symbol: d.symbol, file: d.file, changed: false }))],
      edges: all.map((d) => ({ from: d.id, to: walk.reached.get(d.id)!.via, relation: d.relation })),
    };
  }
  const direct = all.filter((d) => d.depth === 1);
  const byDepth: Record<string, number> = {};
  for (const d of all) byDepth[d.depth] = (byDepth[d.depth] ?? 0) + 1;
  const files = new Map<string, BlastRadius['affectedFiles'][number]>();
  for (const d of all) {
    const f = files.get(d.file) ?? { file: d.file, dependents: 0, nearest: d.depth, isTest: testFilesSet.has(d.file) };
    f.dependents++;
    f.nearest = Math.min(f.nearest, d.depth);
    files.set(d.file, f);
  }
  const tests = testHits(walk.reached, seeds);
  const affectedFiles = [...files.values()].sort((a, b) => a.nearest - b.nearest || b.dependents - a.dependents || a.file.localeCompare(b.file));
  return {
    targets: changed.map(changedRef), unmatched,
    direct: {
      callers: direct.filter((d) => (d.relation === 'calls' || d.relation === 'calls-overridden' || d.relation === 'fires') && !d.isTest),
      importers: direct.filter((d) => d.relation === 'imports' && !d.isTest),
      subtypes: direct.filter((d) => d.relation === 'extends' || d.relation === 'implements' || d.relation === 'overrides'),
      registrations: direct.filter((d) => d.relation === 'registers' && !d.isTest),
      dataAccess: direct.filter((d) => (d.relation === 'reads' || d.relation === 'writes') && !d.isTest),
      tests: direct.filter((d) => d.isTest),
    },
    transitive: all.filter((d) => d.depth > 1),
    byDepth, affectedFiles, tests,
    risk: risk(changed.map((c) => c.symbol), all, affectedFiles, tests),
    changeType, depth, truncated: walk.truncated, ...(graph ? { graph } : {}),
    warnings: answerWarnings(db, { confidences: all.map((d) => d.confidence), files: [...changed.map((c) => c.symbol.file), ...all.map((d) => d.file)] },
      opts.lowConfidence ?? DEFAULT_LOW_CONFIDENCE),
  };
}

/**
 * A heuristic, stated with its reasons so an agent can weigh them: how much code depends on the
 * targets, across how many files, whether they are public, and whether any test would notice.
 */
function risk(targets: SymbolInfo[], deps: Dependent[], files: BlastRadius['affectedFiles'], tests: TestHit[]): BlastRadius['risk'] {
  const code = deps.filter((d) => !d.isTest);
  const codeFiles = files.filter((f) => !f.isTest).length;
  const reasons: string[] = [];
  let points = 0;
  if (code.length >= 20) points += 2;
  else if (code.length >= 5) points += 1;
  reasons.push(`${plural(code.length, 'dependent symbol')} in ${plural(codeFiles, 'file')} outside tests`);
  if (codeFiles >= 10) points += 1;
  if (targets.some((t) => t.exported || t.visibility === 'public')) {
    points += 1;
    reasons.push('public or exported: code outside the repository may depend on it too');
  }
  if (!tests.length) {
    points += code.length ? 2 : 1;
    reasons.push('no test reaches it: a break would go unnoticed');
  } else reasons.push(`${plural(tests.length, 'test')} ${tests.length === 1 ? 'reaches' : 'reach'} it`);
  const level = points >= 3 ? 'high' : points >= 2 ? 'medium' : 'low';
  return { level, reasons };
}
