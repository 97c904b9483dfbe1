import { CgError, errorMessage } from '../errors.js';
import { LiveIndex, type Snapshot } from '../store/live.js';
import { rankRegions, validateQuery } from '../retrieve/query.js';
import { SourceReader } from '../retrieve/source.js';
import { searchSymbols, findSymbolsByRef, type SymbolInfo } from '../store/queries.js';
import { symbolReferences, type RefEntry } from '../graph/refs.js';
import { blastRadius, type BlastRadius } from '../graph/blast.js';
import { resolveInRepo } from '../repo/root.js';
import { languageForFile } from '../lang/registry.js';
import { documentFormatOf, unitType, unitTypeOfPath, type FilterType, type UnitType } from '../extract/documents/formats.js';
import type { RegistryDb } from './db.js';
import type { Project } from './projects.js';
import { rrfMerge } from '../retrieve/rrf.js';
import { crossEdgesOfSymbol, type CrossRef } from './crossrefs/query.js';

/**
 * Federation: one question asked of several projects' own indexes and the answers merged; indexes are
 * never copied or joined. Each project is read through its LiveIndex (the newest generation, one read
 * transaction per question); projects are asked concurrently and each project's failure (no index yet,
 * a corrupt one) is reported for that project while the others answer.
 */
export class IndexPool {
  private readonly lives = new Map<number, LiveIndex>();

  read<T>(project: Project, fn: (snap: Snapshot) => Promise<T> | T): Promise<T> {
    let live = this.lives.get(project.id);
    if (!live || live.root !== project.path) {
      live?.close();
      live = new LiveIndex(project.path);
      this.lives.set(project.id, live);
    }
    return live.read(fn);
  }

  /** Drops handles of projects no longer registered (the agent calls this after registry changes). */
  retain(ids: Set<number>): void {
    for (const [id, live] of this.lives) {
      if (ids.has(id)) continue;
      live.close();
      this.lives.delete(id);
    }
  }

  close(): void {
    for (const live of this.lives.values()) live.close();
    this.lives.clear();
  }
}

export interface ProjectOutcome {
  project: string;
  status: 'ok' | 'empty' | 'not_found' | 'ambiguous' | 'error';
  results: number;
  ms: number;
  error?: { code: string; message: string };
  /** The project's index state: indexed commit and age. */
  freshness?: { indexedCommit: string | null; ageSeconds: number; stale: boolean };
}

interface PerProject<T> {
  project: Project;
  value?: T;
  error?: unknown;
  ms: number;
  freshness?: Snapshot['freshness'];
}

async function fanOut<T>(pool: IndexPool, projects: Project[], fn: (snap: Snapshot, p: Project) => Promise<T> | T): Promise<PerProject<T>[]> {
  return Promise.all(projects.map(async (project) => {
    const started = performance.now();
    try {
      let freshness: Snapshot['freshness'] | undefined;
      const value = await pool.read(project, (snap) => {
        freshness = snap.freshness;
        return fn(snap, project);
      });
      return { project, value, ms: Math.round(performance.now() - started), freshness };
    } catch (error) {
      return { project, error, ms: Math.round(performance.now() - started) };
    }
  }));
}

function outcome<T>(r: PerProject<T>, count: (v: T) => number): ProjectOutcome {
  const base = { project: r.project.name, ms: r.ms, ...(r.freshness ? { freshness: {
    indexedCommit: r.freshness.indexedCommit, ageSeconds: r.freshness.ageSeconds,
    stale: r.freshness.behindHead || r.freshness.pendingChanges > 0,
  } } : {}) };
  if (r.error !== undefined) {
    const code = r.error instanceof CgError ? r.error.code : 'internal';
    const status = code === 'not_found' ? 'not_found' : code === 'ambiguous' ? 'ambiguous' : 'error';
    return { ...base, status, results: 0, error: { code, message: errorMessage(r.error) } };
  }
  const n = count(r.value as T);
  return { ...base, status: n ? 'ok' : 'empty', results: n };
}

/** The runbook's staleness measure: 1 within the hour, falling to 0.5 at a day, 0 after. */
export function freshnessScore(ageSeconds: number): number {
  const hours = ageSeconds / 3600;
  if (hours < 1) return 1;
  if (hours < 24) return Math.round((0.5 + 0.5 * (1 - hours / 24)) * 1000) / 1000;
  return 0;
}

function typeOfPath(p: string): { type: UnitType; language: string | null } {
  return { type: unitTypeOfPath(p), language: languageForFile(p)?.id ?? documentFormatOf(p) };
}

// search -----------------------------------------------------------------------------------------------

export interface SearchInput {
  query: string;
  limit: number;
  filterType?: FilterType;
  language?: string | null;
}

export interface SearchHit {
  id: string;
  project: string;
  file_path: string;
  start_line: number;
  end_line: number;
  symbol: string | null;
  kind: string;
  content: string | null;
  /** The fused score relative to the best result (0-1). */
  score: number;
  rrf_score: number;
  /** The place's score within its own project, relative to that project's best (0-1). */
  project_score: number;
  rationale: string;
  type: UnitType;
  language: string | null;
  freshness_score: number;
}

export interface FederatedSearch {
  status: 'ok' | 'empty_results';
  query: string;
  results: SearchHit[];
  projects: ProjectOutcome[];
  warnings: string[];
}

export async function federatedSearch(pool: IndexPool, projects: Project[], input: SearchInput): Promise<FederatedSearch> {
  const limit = input.limit;
  const per = await fanOut(pool, projects, async (snap, p) => {
    // The ranking of `cg query` without its token packing and graph expansion: the places themselves, best
    // first; with code and documents both asked for, one list of each, so that fusion interleaves them
    // (CodeMem Phase 4: code, docs and configs ranked together by RRF) instead of ranking documents behind code.
    validateQuery({ text: input.query });
    const res = await rankRegions(snap.db, snap.root, { text: input.query, maxRegions: limit, depth: 0, filterType: input.filterType ?? 'all',
      documentsApart: true });
    const fresh = freshnessScore(snap.freshness.ageSeconds);
    const sources = new SourceReader(snap.db, snap.root);
    const hitsOf = (regions: typeof res.regions): SearchHit[] => {
      const top = regions[0]?.score || 1;
      const hits: SearchHit[] = [];
      for (const r of regions) {
        if (hits.length >= limit) break;
        const t = typeOfPath(r.path);
        if (input.language && t.language !== input.language) continue;
        hits.push({ id: `${p.name}:${r.path}:${r.startLine}`, project: p.name, file_path: r.path, start_line: r.startLine, end_line: r.endLine,
          symbol: r.symbol?.qualifiedName ?? null, kind: r.symbol?.kind ?? 'file', content: sources.excerpt(r),
          score: 0, rrf_score: 0, project_score: round(r.score / top), rationale: r.rationale, type: t.type, language: t.language, freshness_score: fresh });
      }
      return hits;
    };
    const lists = [hitsOf(res.regions), ...(res.documentRegions ? [hitsOf(res.documentRegions)] : [])].filter((l) => l.length);
    return { lists, hits: lists.flat(), warnings: [...res.warnings, ...sources.notes] };
  });
  const lists = per.filter((r) => r.value).flatMap((r) => r.value!.lists);
  const fused = rrfMerge(lists, (h) => h.id, (a, b) => b.project_score - a.project_score).slice(0, limit);
  const best = fused[0]?.rrf || 1;
  const results = fused.map(({ item, rrf }) => ({ ...item, score: round(rrf / best), rrf_score: Math.round(rrf * 1e5) / 1e5 }));
  const warnings = [...new Set(per.flatMap((r) => (r.value?.warnings ?? []).map((w) => `${r.project.name}: ${w}`)))];
  return { status: results.length ? 'ok' : 'empty_results', query: input.query, results, projects: per.map((r) => outcome(r, (v) => v.hits.length)), warnings };
}

// symbols ----------------------------------------------------------------------------------------------

export interface SymbolsInput {
  query: string;
  kind?: string;
  language?: string | null;
  filePattern?: string | null;
  limit: number;
}

export interface FederatedSymbol {
  project: string;
  id: number;
  name: string;
  qualified_name: string;
  kind: string;
  file_path: string;
  line: number;
  end_line: number;
  signature: string | null;
  language: string;
  type: UnitType;
}

export async function federatedSymbols(pool: IndexPool, projects: Project[], input: SymbolsInput):
  Promise<{ status: 'ok' | 'empty_results'; query: string; total: number; symbols: FederatedSymbol[]; projects: ProjectOutcome[] }> {
  const pattern = input.query === '*' || !input.query ? '*' : input.query;
  const per = await fanOut(pool, projects, (snap, p) => {
    // The language filter is applied after the search, so ask for more when one is set.
    const res = searchSymbols(snap.db, { pattern, kind: input.kind, fileGlob: input.filePattern ?? undefined,
      limit: input.language ? Math.max(input.limit * 5, 200) : input.limit });
    const symbols = res.symbols.filter((s) => !input.language || s.language === input.language).slice(0, input.limit).map((s) => toFederated(p, s));
    return { symbols, total: input.language ? symbols.length : res.total };
  });
  const fused = rrfMerge(per.filter((r) => r.value).map((r) => r.value!.symbols), (s) => `${s.project}:${s.id}`).slice(0, input.limit);
  const total = per.reduce((n, r) => n + (r.value?.total ?? 0), 0);
  return { status: fused.length ? 'ok' : 'empty_results', query: input.query, total, symbols: fused.map((f) => f.item),
    projects: per.map((r) => outcome(r, (v) => v.symbols.length)) };
}

function toFederated(p: Project, s: SymbolInfo): FederatedSymbol {
  return { project: p.name, id: s.id, name: s.name, qualified_name: s.qualifiedName, kind: s.kind, file_path: s.file, line: s.startLine,
    end_line: s.endLine, signature: s.signature || null, language: s.language, type: unitType(s.language) };
}

// references and impact ---------------------------------------------------------------------------------

export interface SymbolTarget {
  /** A symbol name, qualified name or file:name. */
  name?: string;
  /** A symbol id from `symbols`; needs `project`. */
  id?: number;
  /** Only this project (must be in scope). */
  project?: string;
}

function targetRef(snap: Snapshot, t: SymbolTarget): string {
  if (t.id === undefined) return t.name!;
  const s = snap.db.prepare('SELECT s.qualified_name AS q, f.path AS f FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?').get(t.id) as
    { q: string; f: string } | undefined;
  if (!s) throw new CgError('not_found', `No symbol with id ${t.id}`, 'Take the id from the symbols tool of the same project.');
  return `${s.f}:${s.q}`;
}

export interface ProjectReferences {
  project: string;
  target: { id: number; qualified_name: string; kind: string; file_path: string; line: number };
  callers: (RefEntry & { project: string })[];
  callees: (RefEntry & { project: string })[];
  subtypes?: (RefEntry & { project: string })[];
  supertypes?: (RefEntry & { project: string })[];
}

export interface ReferencesInput extends SymbolTarget {
  direction: 'callers' | 'callees' | 'both';
  depth: number;
  hierarchy: boolean;
}

/**
 * references across projects: the symbol is looked up in every project in scope (a name defined in
 * several projects answers for each), and when cross-project data is allowed, the hooks and routes that
 * link other projects to it.
 */
export async function federatedReferences(pool: IndexPool, registry: RegistryDb, projects: Project[], input: ReferencesInput,
  crossAllowed: Set<number> | null) {
  const scoped = pickProjects(projects, input.project);
  const per = await fanOut(pool, scoped, (snap, p) => {
    const ref = targetRef(snap, input);
    const res = symbolReferences(snap.db, ref, { callers: input.direction !== 'callees', callees: input.direction !== 'callers',
      depth: input.depth, hierarchy: input.hierarchy });
    // Object.assign onto a copy rather than a spread: V8 copies these symbol records through a spread ~10x slower (src/graph/refs.ts).
    const tag = (list: RefEntry[] | undefined) => (list ?? []).map((e) => Object.assign({}, e, { project: p.name }));
    const out: ProjectReferences = {
      project: p.name,
      target: { id: res.target.id, qualified_name: res.target.qualifiedName, kind: res.target.kind, file_path: res.target.file, line: res.target.startLine },
      callers: tag(res.callers), callees: tag(res.callees),
      ...(input.hierarchy ? { subtypes: tag(res.subtypes), supertypes: tag(res.supertypes) } : {}),
    };
    const cross = crossAllowed ? crossEdgesOfSymbol(registry, p.id, res.target.id, crossAllowed) : null;
    return { refs: out, cross };
  });
  const found = per.filter((r) => r.value);
  const ambiguous = per.filter((r) => r.error instanceof CgError && r.error.code === 'ambiguous')
    .map((r) => ({ project: r.project.name, candidates: ((r.error as CgError).details as { candidates?: unknown[] })?.candidates ?? [] }));
  return {
    status: found.length ? 'ok' as const : ambiguous.length ? 'ambiguous' as const : 'not_found' as const,
    symbol: input.name ?? input.id,
    references: found.map((r) => r.value!.refs),
    cross_project: crossAllowed ? {
      incoming: found.flatMap((r) => r.value!.cross!.incoming),
      outgoing: found.flatMap((r) => r.value!.cross!.outgoing),
    } : null,
    ambiguous,
    projects: per.map((r) => outcome(r, (v) => v.refs.callers.length + v.refs.callees.length)),
  };
}

export interface ImpactInput extends SymbolTarget {
  depth: number;
}

/**
 * impact across projects: the project's own blast radius for the symbol, plus (when cross-project data
 * is allowed) the symbols in other projects that hook into or call what it fires or declares, and their
 * own callers within their projects to depth - 1.
 */
export async function federatedImpact(pool: IndexPool, registry: RegistryDb, projects: Project[], input: ImpactInput,
  crossAllowed: Set<number> | null) {
  const scoped = pickProjects(projects, input.project);
  const byName = new Map(projects.map((p) => [p.name, p]));
  const per = await fanOut(pool, scoped, (snap, p) => {
    const ref = targetRef(snap, input);
    const target = requireOne(snap, ref);
    const blast = blastRadius(snap.db, { symbols: [`${target.file}:${target.qualifiedName}`] }, input.depth, (x) => resolveInRepo(snap.root, x));
    // Cross-project: edges into the target itself or into any symbol of its blast radius' first ring.
    const cross: CrossRef[] = crossAllowed ? crossEdgesOfSymbol(registry, p.id, target.id, crossAllowed).incoming : [];
    return { project: p.name, blast, cross };
  });
  // The dependents in other projects, and what depends on them there (one level, within their own index).
  const crossDependents: { project: string; symbol: string; file_path: string; line: number; via: string; depth: number }[] = [];
  const crossEdges = per.flatMap((r) => r.value?.cross ?? []);
  if (input.depth > 1 && crossEdges.length) {
    const grouped = new Map<string, CrossRef[]>();
    for (const e of crossEdges) grouped.set(e.from_project, [...(grouped.get(e.from_project) ?? []), e]);
    const targets = [...grouped.keys()].map((n) => byName.get(n)).filter((p): p is Project => !!p);
    const second = await fanOut(pool, targets, (snap, p) => {
      const out: typeof crossDependents = [];
      for (const e of grouped.get(p.name)!) {
        const syms = findSymbolsByRef(snap.db, `${e.file_path}:${e.from_symbol}`);
        if (syms.length !== 1) continue;
        const b = blastRadius(snap.db, { symbols: [`${e.file_path}:${e.from_symbol}`] }, Math.max(1, input.depth - 1), (x) => resolveInRepo(snap.root, x));
        for (const d of [...b.direct.callers, ...b.direct.importers, ...b.transitive]) {
          out.push({ project: p.name, symbol: d.symbol, file_path: d.file, line: d.startLine, via: e.from_symbol, depth: d.depth + 1 });
        }
      }
      return out;
    });
    for (const s of second) crossDependents.push(...(s.value ?? []));
  }
  const found = per.filter((r) => r.value);
  const affected = new Set<string>();
  for (const r of found) for (const f of r.value!.blast.affectedFiles) affected.add(`${r.project.name}:${f.file}`);
  for (const e of crossEdges) affected.add(`${e.from_project}:${e.file_path}`);
  for (const d of crossDependents) affected.add(`${d.project}:${d.file_path}`);
  const levels = ['low', 'medium', 'high'] as const;
  let risk = found.reduce((m, r) => Math.max(m, levels.indexOf(r.value!.blast.risk.level)), 0);
  if (crossEdges.length) risk = Math.min(2, risk + 1);
  return {
    status: found.length ? 'ok' as const : 'not_found' as const,
    symbol: input.name ?? input.id,
    impacts: found.map((r) => ({ project: r.project.name, ...r.value!.blast })) as (BlastRadius & { project: string })[],
    cross_project: crossAllowed ? { direct: crossEdges, transitive: crossDependents } : null,
    affected_files: [...affected].sort(),
    risk_level: levels[risk],
    projects: per.map((r) => outcome(r, (v) => v.blast.affectedFiles.length)),
  };
}

function requireOne(snap: Snapshot, ref: string): SymbolInfo {
  const found = findSymbolsByRef(snap.db, ref);
  if (!found.length) throw new CgError('not_found', `No symbol named "${ref}"`, 'Search with the symbols tool.');
  if (found.length > 1) {
    throw new CgError('ambiguous', `"${ref}" names ${found.length} symbols`, 'Name one: a qualified name or file:name.',
      { candidates: found.slice(0, 50).map((s) => ({ qualifiedName: s.qualifiedName, kind: s.kind, file: s.file, startLine: s.startLine })) });
  }
  return found[0];
}

function pickProjects(projects: Project[], name: string | undefined): Project[] {
  if (!name) return projects;
  const p = projects.find((x) => x.name === name);
  if (!p) throw new CgError('not_found', `No project "${name.slice(0, 120)}" in this scope`, 'Leave out project, or name one of the projects in scope.');
  return [p];
}

// one file -----------------------------------------------------------------------------------------------

/** A path inside one project, refused when it leaves the project's root (absolute elsewhere, `..`). */
export function projectPath(project: Project, p: string): string {
  return resolveInRepo(project.path, p);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
