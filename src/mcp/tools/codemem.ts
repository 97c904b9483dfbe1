import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CgError } from '../../errors.js';
import { liveWarmApplier } from '../../indexer/warm-applier.js';
import { blastRadius, MAX_IMPACT_DEPTH, type Dependent } from '../../graph/blast.js';
import { pickSymbol, referencesTo, type Reference } from '../../graph/refs.js';
import { runQuery } from '../../retrieve/query.js';
import { SourceReader } from '../../retrieve/source.js';
import { unitTypeOfPath } from '../../extract/documents/formats.js';
import { fileOverview } from '../../store/file-info.js';
import { searchImports, searchSymbols, symbolById, type SymbolInfo } from '../../store/queries.js';
import { indexStatus } from '../../store/status.js';
import type { Snapshot } from '../../store/live.js';
import { declareTools, type IndexState, type ToolAnswer, type ToolContext } from '../registry.js';
import { fitAnswer, isStale, keepCounts } from '../respond.js';
import { describeState } from '../keeper.js';
import { BOMBE_KINDS, DEFAULT_LIST_BUDGET } from './bombe.js';
import { budgetArg, lowConfidence, nameArg, queryArg, repoPath, repoPathArg } from './args.js';

/**
 * CodeMem Appendix E's single-project tools (search, symbols, references, file_context, impact,
 * status) with its names, parameters and return fields, as views over the same functions as the CLI.
 * CodeMem's search, symbols and references return arrays: the first text content is that array
 * exactly, a second one says how fresh the index is, and structuredContent (an object, as MCP requires)
 * holds the array as `results` with the counts.
 */

/** An answer whose spec return is a bare array. */
function arrayAnswer(results: unknown[], extra: Record<string, unknown>): ToolAnswer {
  return { text: JSON.stringify(results), body: { results, ...extra } };
}

/** Keeps the best-ranked prefix of `results` that fits the budget, saying how many were left out. */
async function fitArray(ctx: ToolContext, budget: number, results: unknown[], extra: Record<string, unknown>): Promise<ToolAnswer> {
  return (await fitAnswer(budget, results.length, (k, used) => arrayAnswer(results.slice(0, k), {
    total: results.length, ...(k < results.length ? { omitted: results.length - k, truncated: true } : {}), tokens_used: used, ...extra,
  }), ctx.finish)).answer;
}

/**
 * A file's freshness in [0, 1] (CodeMem's freshness_score): 1 when the index is at HEAD with nothing
 * pending and the file is unchanged on disk since it was indexed; 0 when the file was written after
 * the index was built (its content may differ); 0.5 when the index is behind but this file looks unchanged.
 */
function freshnessScore(snap: Snapshot, file: string, indexedAtMs: number): number {
  let mtime = 0;
  try {
    mtime = fs.statSync(path.join(snap.root, file)).mtimeMs;
  } catch {
    return 0;
  }
  if (mtime > indexedAtMs) return 0;
  return isStale(snap.freshness) ? 0.5 : 1;
}

const symbolIdArg = z.number().int().min(1).describe('Symbol ID from symbols() tool').optional();
const symbolNameArg = nameArg('Alternative: symbol name (case-sensitive qualified or plain name; file:name picks one of several)').optional();
const nullableText = (what: string) => z.string().min(1).max(512).nullable().default(null).describe(what);

/** The one symbol a call names by symbol_id or symbol_name (CodeMem: "symbol_id | symbol_name" is required). */
function target(snap: Snapshot, a: { symbol_id?: number; symbol_name?: string }): SymbolInfo {
  if (a.symbol_id !== undefined && a.symbol_name !== undefined) {
    throw new CgError('usage', 'Give symbol_id or symbol_name, not both', 'symbol_id comes from the symbols tool; symbol_name is the alternative.');
  }
  if (a.symbol_id !== undefined) {
    const s = symbolById(snap.db, a.symbol_id);
    if (!s) throw new CgError('not_found', `No symbol has id ${a.symbol_id} in this index`, 'Ids change when the index is rebuilt: look it up again with symbols.');
    return s;
  }
  if (a.symbol_name === undefined) throw new CgError('usage', 'symbol_id or symbol_name is required', 'Pass symbol_name (e.g. "authenticate_user"), or a symbol_id from symbols.');
  return pickSymbol(snap.db, a.symbol_name);
}

const compactSymbol = (s: { id: number; qualifiedName?: string; symbol?: string; kind: string; file: string; startLine: number }) =>
  ({ id: s.id, name: s.qualifiedName ?? s.symbol!, kind: s.kind, file_path: s.file, line: s.startLine });

// ---- search

const searchSchema = z.object({
  query: queryArg('Natural language query or code keyword'),
  limit: z.number().int().min(1).max(100).default(10).describe('Max results to return (1-100, default 10)'),
  filter_type: z.enum(['all', 'code', 'documents']).default('all')
    .describe('Search in code, documents (Markdown, YAML, JSON, PDF, text), or both (the two ranked together by reciprocal-rank fusion)'),
  filter_language: nullableText('Filter by language (php, typescript, python, swift, go, java, rust, javascript)'),
  token_budget: budgetArg(3500),
});

async function search(a: z.infer<typeof searchSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { snap } = ctx;
  ctx.progress('ranking the candidates');
  // With all, code and documents are ranked apart and merged by reciprocal-rank fusion (CodeMem Phase 4), so a
  // guide that answers the question is not buried under the code that merely shares its words.
  const res = await runQuery(snap.db, snap.root, { text: a.query, budget: a.token_budget, snippets: true, maxRegions: a.limit,
    languages: a.filter_language ? [a.filter_language] : undefined, filterType: a.filter_type });
  const indexedAt = Date.parse(snap.freshness.indexedAt) || 0;
  const results = res.files.map((e) => ({
    id: e.symbol_id !== null ? String(e.symbol_id) : `${e.path}:${e.line_range[0]}`,
    file_path: e.path, start_line: e.line_range[0], end_line: e.line_range[1], content: e.excerpt ?? e.signature ?? '',
    score: e.score, freshness_score: freshnessScore(snap, e.path, indexedAt),
    rank_sources: e.sources.filter((x) => x === 'keyword' || x === 'semantic' || x === 'graph'),
    type: unitTypeOfPath(e.path), symbol: e.symbol, rationale: e.rationale,
  }));
  return fitArray(ctx, a.token_budget, results, res.warnings.length ? { warnings: res.warnings } : {});
}

// ---- symbols

const symbolsSchema = z.object({
  query: z.string().min(1).max(512).default('*').describe('Symbol name (supports glob; default * for all)'),
  kind: z.enum(['function', 'class', 'method', 'variable', 'constant', 'import']).nullable().default(null).describe('Filter by symbol kind'),
  language: nullableText('Filter by language'),
  file_pattern: nullableText('Filter by file path (glob)'),
  limit: z.number().int().min(1).max(1000).default(100).describe('At most this many symbols (1-1000, default 100); total says how many match'),
});

function symbols(a: z.infer<typeof symbolsSchema>, ctx: ToolContext): ToolAnswer {
  const { db } = ctx.snap;
  const languages = a.language ? [a.language] : undefined;
  const fileGlob = a.file_pattern ?? undefined;
  if (a.kind === 'import') {
    const res = searchImports(db, { pattern: a.query, fileGlob, languages, limit: a.limit });
    const results = res.imports.map((i) => ({ id: i.moduleId, name: i.names.length ? `${i.module}: ${i.names.join(', ')}` : i.module, kind: 'import',
      file_path: i.file, line: i.line, signature: null }));
    return arrayAnswer(results, { total: res.total, ...(res.total > results.length ? { omitted: res.total - results.length, truncated: true } : {}) });
  }
  if (a.kind === 'variable') {
    return arrayAnswer([], { total: 0, warnings: ['Variables are not indexed; module-level constants are: use kind "constant".'] });
  }
  const res = searchSymbols(db, { pattern: a.query, kinds: a.kind ? BOMBE_KINDS[a.kind] ?? undefined : undefined, fileGlob, languages, limit: a.limit });
  const results = res.symbols.map((s) => ({ id: s.id, name: s.qualifiedName, kind: s.kind, file_path: s.file, line: s.startLine, signature: s.signature || null }));
  return arrayAnswer(results, { total: res.total, ...(res.total > results.length ? { omitted: res.total - results.length, truncated: true } : {}) });
}

// ---- references

const referencesSchema = z.object({
  symbol_id: symbolIdArg,
  symbol_name: symbolNameArg,
  kind: z.enum(['calls', 'imports', 'extends', 'all']).default('all').describe('Filter reference type (extends includes implements)'),
  token_budget: budgetArg(DEFAULT_LIST_BUDGET, 50_000),
});

async function references(a: z.infer<typeof referencesSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { snap } = ctx;
  const t = target(snap, a);
  const refs = referencesTo(snap.db, t.id, a.kind === 'all' ? ['calls', 'imports', 'extends'] : [a.kind]);
  const sources = new SourceReader(snap.db, snap.root);
  const contextOf = (r: Reference) => {
    if (r.line === null) return r.from.signature;
    // SourceReader reads through the redacting reader: a credential on the line is shown redacted.
    return sources.lines(r.from.file)?.[r.line - 1]?.trim() ?? '';
  };
  const results = refs.map((r) => ({ file_path: r.from.file, line: r.line ?? r.from.startLine, kind: r.kind, context: contextOf(r),
    from: r.from.qualifiedName, confidence: r.confidence }));
  return fitArray(ctx, a.token_budget, results, { symbol: compactSymbol(t) });
}

// ---- file_context

const fileSchema = z.object({
  file_path: repoPathArg('Path to file (absolute or relative to project root, validated for traversal)'),
});

function fileContext(a: z.infer<typeof fileSchema>, ctx: ToolContext): ToolAnswer {
  const { snap } = ctx;
  const ov = fileOverview(snap.db, snap.root, repoPath(snap, a.file_path), snap.root);
  const imports = ov.imports.flatMap((i) => (i.wildcard ? [{ name: '*', source: i.module }]
    : i.names.length ? i.names.map((n) => ({ name: n.alias ?? n.name, source: i.module })) : [{ name: i.alias ?? i.module, source: i.module }]));
  return { body: {
    file_path: ov.file, language: ov.language,
    symbols: ov.symbols.map((s) => ({ name: s.qualifiedName, kind: s.kind, line: s.startLine })),
    imports, exports: ov.exports.map((name) => ({ name })),
    loc: ov.loc, ...(ov.partial ? { partial: true, warnings: ov.warnings } : {}),
  } };
}

// ---- impact

const impactSchema = z.object({
  symbol_id: symbolIdArg,
  symbol_name: symbolNameArg,
  depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(2).describe(`Multi-hop depth (how many levels of callers, 1-${MAX_IMPACT_DEPTH}, default 2)`),
  use_graph: z.boolean().default(false)
    .describe('Use PPR graph ranking: rank the callers by personalized PageRank from the symbol, and return graph_visualization (nodes and edges)'),
  token_budget: budgetArg(DEFAULT_LIST_BUDGET, 50_000),
});

async function impact(a: z.infer<typeof impactSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { snap } = ctx;
  const t = target(snap, a);
  const res = blastRadius(snap.db, { symbols: [`${t.file}:${t.qualifiedName}`] }, a.depth, (p) => repoPath(snap, p),
    { changeType: 'behavior', graph: a.use_graph, lowConfidence: lowConfidence(snap) });
  const entry = (d: Dependent) => Object.assign(compactSymbol(d), d.depth > 1 ? { depth: d.depth } : {},
    d.relation !== 'calls' ? { relation: d.relation } : {}, { confidence: d.confidence },
    d.graphScore !== undefined ? { graph_score: d.graphScore } : {}, d.isTest ? { is_test: true } : {});
  const direct = [...res.direct.callers, ...res.direct.registrations, ...res.direct.dataAccess, ...res.direct.tests].map(entry);
  const transitive = res.transitive.map(entry);
  const files = res.affectedFiles.map((f) => f.file);
  const lengths = [[direct.length], [files.length], [transitive.length]];
  return (await fitAnswer(a.token_budget, direct.length + files.length + transitive.length, (k, used) => {
    const [[d], [f], [tr]] = keepCounts(lengths, k);
    const omitted = { direct_callers: direct.length - d, affected_files: files.length - f, transitive_callers: transitive.length - tr };
    const cut = Object.fromEntries(Object.entries(omitted).filter(([, n]) => n > 0));
    return { body: {
      symbol: { ...compactSymbol(t), signature: t.signature },
      direct_callers: direct.slice(0, d), transitive_callers: transitive.slice(0, tr), affected_files: files.slice(0, f),
      risk_level: res.risk.level, risk_reasons: res.risk.reasons,
      graph_visualization: res.graph && k === direct.length + files.length + transitive.length ? res.graph : null,
      totals: { direct_callers: direct.length, transitive_callers: transitive.length, affected_files: files.length },
      ...(Object.keys(cut).length ? { omitted: { ...cut, ...(res.graph ? { graph_visualization: 1 } : {}) }, truncated: true } : {}),
      ...(res.warnings.length ? { warnings: res.warnings } : {}), tokens_used: used,
    } };
  }, ctx.finish)).answer;
}

// ---- status

const statusSchema = z.object({
  project: z.string().min(1).max(512).nullable().default(null).describe('Project name (null = global status; this server serves one project)'),
  detailed: z.boolean().default(false).describe('Include detailed statistics (coverage, skipped files by reason, excluded secrets, calls resolved, the model)'),
});

const projectName = (root: string) => path.basename(root);

function checkProject(root: string, project: string | null): void {
  if (project !== null && project !== projectName(root)) {
    throw new CgError('not_found', `This server serves one project, "${projectName(root)}", not "${project}"`, 'Pass project null or omit it.');
  }
}

function status(a: z.infer<typeof statusSchema>, ctx: ToolContext): ToolAnswer {
  const { snap } = ctx;
  checkProject(snap.root, a.project);
  const s = indexStatus(snap.db, snap.root);
  const coverage = { indexed: s.files.indexed, partial: s.files.partial, skipped: s.skipped.total,
    indexedPercent: s.files.indexed + s.skipped.total ? Math.round((s.files.indexed / (s.files.indexed + s.skipped.total)) * 1000) / 10 : 100 };
  return { body: {
    global: { total_projects: 1, total_symbols: s.symbols, total_edges: s.edges, last_reindex: s.indexedAt, index_size_mb: Math.round(s.indexBytes / 1e4) / 100 },
    projects: [{ name: projectName(snap.root), symbols: s.symbols, chunks: s.vectors.count, indexed_at: s.indexedAt,
      status: isStale(snap.freshness) ? 'stale' : 'indexed' }],
    scope_registry: { total_agents: 0, active_sessions: 0 },
    // Who keeps the index fresh while the agent works: this server (or a cg watch, an agent), and whether saves count too.
    ...(a.detailed ? { detailed: { ...s, coverage, applier: liveWarmApplier(snap.root) } } : {}),
  } };
}

function statusWhileUnavailable(a: z.infer<typeof statusSchema>, state: IndexState, root: string): ToolAnswer {
  checkProject(root, a.project);
  return { body: {
    global: { total_projects: 1, total_symbols: 0, total_edges: 0, last_reindex: null, index_size_mb: 0 },
    projects: [{ name: projectName(root), symbols: 0, chunks: 0, indexed_at: null, status: state.state === 'unavailable' ? 'failed' : 'indexing',
      message: describeState(state), ...(state.progress ? { progress: state.progress } : {}) }],
    scope_registry: { total_agents: 0, active_sessions: 0 },
  } };
}

declareTools([
  {
    name: 'search', title: 'Hybrid search', spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: 'Hybrid semantic + keyword + graph search: the code places that match a query, best first, each with its '
      + 'snippet, a score, a freshness score and the sources that ranked it. For a literal string use grep.',
    schema: searchSchema, run: search,
  },
  {
    name: 'symbols', title: 'List symbols', spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: 'List/query symbols with filters: name glob, kind, language, file glob. Each has an id for references and impact.',
    schema: symbolsSchema, run: symbols,
  },
  {
    name: 'references', title: 'References to a symbol', spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: 'Find all references to a symbol (by symbol_id or symbol_name): calls, imports and extends, each with the '
      + 'file, line and the line of code. grep remains the check for dynamic uses (strings, reflection).',
    schema: referencesSchema, run: references,
  },
  {
    name: 'file_context', title: "A file's outline", spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: 'Structural summary of a file (with path traversal validation): its symbols, imports and exports, without its '
      + 'body. Use read_file when you need the code itself.',
    schema: fileSchema, run: fileContext,
  },
  {
    name: 'impact', title: 'What breaks if this changes', spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: 'Impact analysis: what breaks if I change this symbol? Direct and transitive callers (and the tests that reach '
      + 'them; registrations and readers or writers come with their relation), affected files and a risk level; with use_graph, ranked by personalized PageRank with the graph itself.',
    schema: impactSchema, run: impact,
  },
  {
    name: 'status', title: 'Index status', spec: 'CodeMem Appendix E', toolsets: ['codemem'],
    description: "Index health and metadata: symbols, edges, when it was indexed, whether it is indexed, stale or still being "
      + 'built (with progress); detailed adds coverage, skipped and excluded files, redacted credentials and the secret rule ids, call resolution, the model, the server\'s memory '
      + 'and the process that keeps the index fresh (applier: its command, and whether it applies saves in the working tree as well as commits).',
    schema: statusSchema, run: status, whileUnavailable: statusWhileUnavailable,
  },
]);
