import { z } from 'zod';
import { blastRadius, CHANGE_TYPES, DEFAULT_IMPACT_DEPTH, MAX_IMPACT_DEPTH, type BlastRadius, type Dependent } from '../../graph/blast.js';
import { renderBlastMermaid } from '../../graph/mermaid.js';
import { pickSymbol, symbolReferences, type RefEntry } from '../../graph/refs.js';
import { repoMap } from '../../graph/structure.js';
import { renderTree } from '../../graph/structure-tree.js';
import { packContext, rankForContext, type ContextBundle, type ContextPlace } from '../../retrieve/context.js';
import { SourceReader } from '../../retrieve/source.js';
import { rememberingCounter, tokenCounter } from '../../retrieve/tokens.js';
import { signalsFromText } from '../../retrieve/signal-input.js';
import { searchSymbols, symbolStats, type SymbolBrief, type SymbolInfo } from '../../store/queries.js';
import { errorBody, makeError } from '../errors.js';
import { declareTools, type ToolAnswer, type ToolContext } from '../registry.js';
import { answerTokens, fitAnswer, keepCounts } from '../respond.js';
import { budgetArg, globArg, lowConfidence, nameArg, queryArg, repoPath, repoPathArg, signalsArg } from './args.js';

/**
 * Bombe §5's five tools, with its names, parameters, enums, defaults and response fields, as views
 * over the functions `cg symbols`, `cg refs`, `cg context`, `cg map` and `cg impact` use. Extra optional
 * parameters (token_budget, file_pattern to pick among same-named symbols) and extra response fields
 * (confidence, totals, omitted) are ours; everything Bombe names works as Bombe says.
 */

/**
 * Bombe's kinds over the languages' own: a Rust struct or a Swift enum is what a Bombe client means by
 * "class", a trait or protocol what it means by "interface".
 */
export const BOMBE_KINDS: Record<string, string[] | null> = {
  function: ['function'], class: ['class', 'struct', 'enum'], method: ['method'], interface: ['interface', 'trait'],
  constant: ['constant'], any: null,
};

export const DEFAULT_LIST_BUDGET = 2000;

const symbolNameArg = nameArg('symbol name or qualified name (Class.method); file:name (src/app.py:Service.run) picks one of several');
const filePatternPick = globArg('only consider symbols in files matching this glob, to pick one of several with the same name').optional();

function pick(ctx: ToolContext, name: string, filePattern?: string): SymbolInfo {
  return pickSymbol(ctx.snap.db, name, filePattern);
}

/** Cut lists to prefixes that fit the budget; counts of what was cut go to `omitted`. */
async function fitLists(ctx: ToolContext, budget: number, groups: [string, unknown[]][][],
  build: (lists: Record<string, unknown[]>, omitted: Record<string, number> | null, tokensUsed: number) => ToolAnswer) {
  const lengths = groups.map((g) => g.map(([, l]) => l.length));
  const total = lengths.flat().reduce((a, b) => a + b, 0);
  const assemble = (k: number, tokensUsed: number) => {
    const counts = keepCounts(lengths, k);
    const lists: Record<string, unknown[]> = {};
    const omitted: Record<string, number> = {};
    groups.forEach((g, gi) => g.forEach(([name, list], li) => {
      lists[name] = list.slice(0, counts[gi][li]);
      if (counts[gi][li] < list.length) omitted[name] = list.length - counts[gi][li];
    }));
    return build(lists, Object.keys(omitted).length ? omitted : null, tokensUsed);
  };
  return (await fitAnswer(budget, total, assemble, ctx.finish)).answer;
}

// ---- search_symbols

const searchSchema = z.object({
  query: nameArg("Symbol name or glob pattern (e.g., 'authenticate', 'User*', '*.handler'); without * or ? a case-insensitive substring"),
  kind: z.enum(['function', 'class', 'method', 'interface', 'constant', 'any']).default('any')
    .describe('Filter by symbol kind (class includes structs and enums, interface includes traits and protocols)'),
  file_pattern: globArg("Glob pattern for file paths (e.g., 'src/auth/**')").optional(),
  limit: z.number().int().min(1).max(200).default(20).describe('Maximum results to return (1-200, default 20)'),
});

function searchSymbolsTool(a: z.infer<typeof searchSchema>, ctx: ToolContext): ToolAnswer {
  const { db } = ctx.snap;
  const res = searchSymbols(db, { pattern: a.query, kinds: BOMBE_KINDS[a.kind] ?? undefined, fileGlob: a.file_pattern, limit: a.limit });
  const stats = symbolStats(db, res.symbols.map((s) => s.id));
  const symbols = res.symbols.map((s) => {
    const st = stats.get(s.id);
    return { name: s.name, qualified_name: s.qualifiedName, kind: s.kind, file_path: s.file, start_line: s.startLine, end_line: s.endLine,
      signature: s.signature, visibility: s.visibility, importance_score: Math.round((st?.pagerank ?? 0) * 1e6) / 1e6,
      callers_count: st?.callers ?? 0, callees_count: st?.callees ?? 0 };
  });
  const omitted = res.total - symbols.length;
  return { body: { symbols, total_matches: res.total, ...(omitted > 0 ? { omitted, hint: `${omitted} more match: raise limit or narrow query, kind or file_pattern` } : {}),
    ...(res.total ? {} : { hint: 'No symbol name matches. Try a shorter part of the name or a glob (User*), or grep: it may be a string or a comment.' }) } };
}

// ---- get_references

const refsSchema = z.object({
  symbol_name: symbolNameArg,
  direction: z.enum(['callers', 'callees', 'both', 'implementors', 'supers']).default('both')
    .describe('Direction of references to find: callers, callees, both (default), implementors (subtypes), supers (parent types)'),
  depth: z.number().int().min(1).max(5).default(1).describe('Traversal depth for transitive references (1-5, default 1)'),
  include_source: z.boolean().default(false).describe('Include source code of each reference (default false)'),
  token_budget: budgetArg(DEFAULT_LIST_BUDGET, 50_000),
  file_pattern: filePatternPick,
});

async function getReferences(a: z.infer<typeof refsSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { db, root } = ctx.snap;
  const sources = a.include_source ? new SourceReader(db, root) : null;
  const res = symbolReferences(db, a.symbol_name, {
    callers: a.direction === 'callers' || a.direction === 'both', callees: a.direction === 'callees' || a.direction === 'both',
    subtypes: a.direction === 'implementors', supertypes: a.direction === 'supers', depth: a.depth, fileGlob: a.file_pattern, brief: true,
    lowConfidence: lowConfidence(ctx.snap),
  });
  // Each entry's line is in its own file_path: the call site for callers, subtypes and data access, the
  // definition for callees and supers. Relations other than a call (registers, fires, overrides, reads,
  // writes) are named, with the route, hook or field they go through (target).
  const entry = (useCallSite: boolean) => (r: RefEntry<SymbolBrief>) => ({
    name: r.qualifiedName, kind: r.kind, file_path: r.file, line: useCallSite ? r.line ?? r.startLine : r.startLine, depth: r.depth,
    ...(r.relation !== 'calls' ? { relation: r.relation } : {}), ...(r.target ? { target: r.target } : {}), confidence: r.confidence,
    ...(sources ? { source: sources.excerpt({ path: r.file, startLine: r.startLine, endLine: r.endLine }) } : {}),
  });
  const lists: [string, unknown[]][] = [];
  if (res.callers) lists.push(['callers', res.callers.map(entry(true))]);
  if (res.callees) lists.push(['callees', res.callees.map(entry(false))]);
  if (res.subtypes) lists.push(['implementors', res.subtypes.map(entry(true))]);
  if (res.supertypes) lists.push(['supers', res.supertypes.map(entry(false))]);
  for (const k of ['readers', 'writers', 'reads', 'writes'] as const) if (res[k]) lists.push([k, res[k]!.map(entry(k === 'readers' || k === 'writers'))]);
  const t = res.target;
  const totals = Object.fromEntries(lists.map(([k, l]) => [k, l.length]));
  return fitLists(ctx, a.token_budget, [lists], (kept, omitted, tokensUsed) => ({ body: {
    target_symbol: { name: t.qualifiedName, kind: t.kind, file_path: t.file, line: t.startLine, signature: t.signature },
    ...kept, totals, ...(omitted ? { omitted, truncated: true } : {}), ...(res.warnings.length ? { warnings: res.warnings } : {}),
    tokens_used: tokensUsed,
  } }));
}

// ---- get_context

const contextSchema = z.object({
  query: queryArg('Natural language description of what you need context for'),
  entry_points: z.array(symbolNameArg).max(50).optional().describe('Optional: specific symbol names to start graph traversal from'),
  token_budget: budgetArg(8000),
  include_signatures_only: z.boolean().default(false)
    .describe('If true, include only signatures (not full source) for non-primary symbols (default false: full source while the budget allows)'),
  expansion_depth: z.number().int().min(1).max(4).default(2).describe('How many hops in the graph to expand from entry points (1-4, default 2)'),
  cursor_file: repoPathArg('the file being edited: files it imports or that import it rank higher').optional(),
  signals: signalsArg,
});

/** Bombe's relationship_map: the calls and tests between the bundle's places as arrows. */
function relationshipMap(b: ContextBundle): string {
  return b.files.flatMap((f) => f.places).flatMap((p) => {
    const name = p.symbol ?? '(file)';
    const m = /^(called by|calls|test of) (\S+)/.exec(p.rationale);
    if (!m) return [];
    return [m[1] === 'called by' ? `${m[2]} → ${name}` : m[1] === 'calls' ? `${name} → ${m[2]}` : `${name} tests ${m[2]}`];
  }).join('; ');
}

function bombeBundle(b: ContextBundle, files: number, tokensUsed: number, budget: number) {
  const shown = b.files.slice(0, files);
  const formOf = (form: string) => (form === 'signatures' ? 'signature_only' : form === 'excerpt' ? 'excerpt' : 'full_source');
  return {
    query: b.query,
    context_bundle: {
      summary: b.summary,
      relationship_map: relationshipMap({ ...b, files: shown }),
      files: shown.map((f) => ({ path: f.path, symbols: f.places.map((p) => ({
        name: p.symbol ?? '(file)', kind: p.kind, lines: `${p.line_range[0]}-${p.line_range[1]}`, included_as: formOf(f.form), source: sourceOfPlace(f.places, p),
      })) })),
      tokens_used: tokensUsed,
      token_budget: budget,
      symbols_included: shown.reduce((n, f) => n + f.places.length, 0),
      symbols_available: b.places_available,
      ...(b.files.length > files || b.truncated ? { truncated: true, truncated_by: b.files.length > files ? 'budget' : b.truncated_by } : {}),
      ...(b.files.length > files ? { omitted_files: b.files.length - files } : {}),
      ...(b.more_files.length ? { more_files: b.more_files } : {}),
    },
    ...(b.warnings.length ? { warnings: b.warnings } : {}),
  };
}

/**
 * A symbol's `source` as Bombe's answer gives it: its own lines, also for a nested function whose lines the
 * bundle's text shows only once, in the function holding it (ContextPlace.within): cut from that one's source.
 */
function sourceOfPlace(places: ContextPlace[], p: ContextPlace): string {
  const holder = p.within !== undefined ? places[p.within] : undefined;
  if (!holder?.text) return p.text ?? '';
  const from = p.line_range[0] - holder.line_range[0];
  return holder.text.split('\n').slice(from, from + p.line_range[1] - p.line_range[0] + 1).join('\n');
}

async function getContext(a: z.infer<typeof contextSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { db, root } = ctx.snap;
  const signals = a.signals ? signalsFromText(db, root, a.signals) : undefined;
  const input = { text: a.query, depth: a.expansion_depth, entryPoints: a.entry_points,
    cursorFile: a.cursor_file ? repoPath(ctx.snap, a.cursor_file) : null, signals };
  ctx.progress('ranking and packing the bundle');
  const ranked = await rankForContext(db, root, input);
  const count = rememberingCounter(await tokenCounter());
  const bundleFor = (budget: number) => packContext(db, root, { ...input, budget }, ranked,
    { rest: a.include_signatures_only ? 'signatures' : 'source-if-fits', placeTexts: true, count });
  let bundle = await bundleFor(a.token_budget);
  if (bundle.status === 'empty_results') {
    return { isError: true, body: errorBody(makeError('empty_results', `Nothing in the index matches "${a.query.slice(0, 200)}"`, bundle.summary)) };
  }
  // The bundle's budget counts its text; JSON escaping and the field names cost more. When the whole
  // answer is over, the bundle is packed again for the share of the budget its text may take, so the
  // packing (not a cut of whole files at the end) decides what gives way.
  const whole = await answerTokens(ctx.finish({ body: bombeBundle(bundle, bundle.files.length, a.token_budget, a.token_budget) }));
  if (whole <= a.token_budget) return (await fitAnswer(a.token_budget, bundle.files.length, (k, used) => ({ body: bombeBundle(bundle, k, used, a.token_budget) }), ctx.finish)).answer;
  if (bundle.tokens_used > 0) {
    const share = Math.floor(a.token_budget * (bundle.tokens_used / whole) * 0.97);
    if (share >= 100) bundle = await bundleFor(share);
  }
  return (await fitAnswer(a.token_budget, bundle.files.length, (k, used) => ({ body: bombeBundle(bundle, k, used, a.token_budget) }), ctx.finish)).answer;
}

// ---- get_structure

const structureSchema = z.object({
  path: z.string().min(1).max(1024).default('.').describe('Subdirectory to focus on (relative to repo root; default the whole repository)'),
  token_budget: budgetArg(4000, 50_000),
  include_signatures: z.boolean().default(true).describe('Include function/method signatures in the map (default true)'),
});

async function getStructure(a: z.infer<typeof structureSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { db } = ctx.snap;
  const folder = a.path === '.' || a.path === './' ? null : repoPath(ctx.snap, a.path) || null;
  const map = await repoMap(db, { folder, budget: a.token_budget, ranks: true });
  if (map.status === 'empty_results') {
    return { isError: true, body: errorBody(makeError('empty_results', `No indexed file under ${folder}/`, 'List the folder, or check the path.')) };
  }
  return (await fitAnswer(a.token_budget, map.files.length, (k, used) => {
    const text = renderTree(map.files.slice(0, k), { signatures: a.include_signatures, base: folder });
    const omitted = map.total_files - k;
    const footer = `(${k} of ${map.total_files} files, ${used}/${a.token_budget} tokens${omitted ? `; ${omitted} files left out: raise token_budget or pick a path` : ''})`;
    return { text: `${text}\n${footer}`, body: { path: folder ?? '.', text, files_shown: k, total_files: map.total_files, tokens_used: used,
      token_budget: a.token_budget, truncated: omitted > 0, ...(omitted ? { omitted_files: omitted } : {}) } };
  }, ctx.finish)).answer;
}

// ---- get_blast_radius

const blastSchema = z.object({
  symbol_name: nameArg('Symbol to analyze impact for (name, qualified name, or file:name)'),
  change_type: z.enum(CHANGE_TYPES.filter((c) => c !== 'any') as ['signature', 'behavior', 'delete']).default('behavior')
    .describe('Type of change: signature (parameters/return type: every call site, override and registration must change), behavior (logic: callers, registrations, readers and writers, and the tests that reach them), or delete (every reference, imports, subtypes and overrides included)'),
  max_depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(DEFAULT_IMPACT_DEPTH)
    .describe(`Maximum traversal depth for impact analysis (1-${MAX_IMPACT_DEPTH}, default ${DEFAULT_IMPACT_DEPTH})`),
  token_budget: budgetArg(DEFAULT_LIST_BUDGET, 50_000),
  file_pattern: filePatternPick,
  format: z.enum(['json', 'mermaid']).default('json').describe('json (default), or mermaid: a flowchart of the dependents as text (for a pull request)'),
});

/** Every direct dependent, whatever the relation: callers, importers, subtypes and overrides, registrations, data access, tests. */
function directDependents(r: BlastRadius): Dependent[] {
  return [...r.direct.callers, ...r.direct.importers, ...r.direct.subtypes, ...r.direct.registrations, ...r.direct.dataAccess, ...r.direct.tests];
}

function riskAssessment(r: BlastRadius): string {
  const direct = directDependents(r).length;
  const testFiles = r.affectedFiles.filter((f) => f.isTest).length;
  const n = (x: number, what: string) => `${x} ${what}${x === 1 ? '' : 's'}`;
  return `${r.risk.level} - ${n(direct, 'direct caller')}, ${n(r.transitive.length, 'transitive dependent')}, ${n(testFiles, 'test file')} (${r.risk.reasons.join('; ')})`;
}

function dependent(d: Dependent, withDepth: boolean) {
  return { name: d.symbol, file: d.file, line: d.line ?? d.startLine, ...(withDepth ? { depth: d.depth } : {}),
    ...(d.relation !== 'calls' ? { relation: d.relation } : {}), ...(d.isTest ? { is_test: true } : {}), confidence: d.confidence };
}

async function getBlastRadius(a: z.infer<typeof blastSchema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { db } = ctx.snap;
  const target = pick(ctx, a.symbol_name, a.file_pattern);
  const res = blastRadius(db, { symbols: [`${target.file}:${target.qualifiedName}`] }, a.max_depth, (p) => repoPath(ctx.snap, p),
    { changeType: a.change_type, lowConfidence: lowConfidence(ctx.snap) });
  const direct = directDependents(res)
    .sort((x, y) => y.confidence - x.confidence || x.file.localeCompare(y.file) || x.startLine - y.startLine).map((d) => dependent(d, false));
  const transitive = res.transitive.map((d) => dependent(d, true));
  const files = res.affectedFiles.map((f) => f.file);
  const answer = await fitLists(ctx, a.token_budget, [[['direct_callers', direct]], [['affected_files', files]], [['transitive_callers', transitive]]],
    (kept, omitted, tokensUsed) => ({ body: {
      target: { name: target.qualifiedName, kind: target.kind, file_path: target.file, line: target.startLine },
      change_type: a.change_type,
      impact: {
        direct_callers: kept.direct_callers, transitive_callers: kept.transitive_callers, affected_files: kept.affected_files,
        total_affected_symbols: direct.length + transitive.length, total_affected_files: files.length,
        risk_assessment: riskAssessment(res), risk_level: res.risk.level,
      },
      ...(omitted ? { omitted, truncated: true } : {}), ...(res.warnings.length ? { warnings: res.warnings } : {}), tokens_used: tokensUsed,
    } }));
  return a.format === 'mermaid' ? { ...answer, text: renderBlastMermaid(res) } : answer;
}

declareTools([
  {
    name: 'search_symbols', title: 'Find symbols by name', spec: 'Bombe §5 tool 1', toolsets: ['default', 'bombe'],
    description: 'Search for code symbols (functions, classes, methods) by name pattern, kind, or file path. Returns signatures, '
      + 'locations, and importance scores. Use it to locate a definition you can name; it skips comments, strings and call '
      + 'sites, which grep would also return. To find a literal string or an error message, use grep instead.',
    schema: searchSchema, run: searchSymbolsTool,
  },
  {
    name: 'get_references', title: 'Callers, callees and type hierarchy', spec: 'Bombe §5 tool 2', toolsets: ['default', 'bombe'],
    description: 'Find all references to/from a symbol: callers, callees, implementations, parent classes, or dependents, to a '
      + 'depth, each with file and line; resolves calls through imports and receiver types, which grep cannot. Callers include '
      + 'the endpoints and hook or event registrations that run it as a callback (relation registers, fires); for a class, '
      + 'constant or module also who reads and writes it (readers, writers), for a function what it reads and writes; for a '
      + 'method, implementors and supers are the methods that override it and those it overrides. Relations at or below the '
      + 'low-confidence threshold are counted in warnings. Use it before changing a signature or to follow a flow; grep '
      + 'remains the check for dynamic calls (strings, reflection).',
    schema: refsSchema, run: getReferences,
  },
  {
    name: 'get_context', title: 'Reading bundle for a task', spec: 'Bombe §5 tool 3', toolsets: ['default', 'bombe'],
    description: 'Assemble a context bundle for a task by finding relevant symbols and traversing the code graph to include '
      + 'their dependencies, callers, types, and related code. Returns the most important context within a token budget. Use '
      + 'it instead of opening many files one by one to understand an area before changing it; for one known file use read_file.',
    schema: contextSchema, run: getContext,
  },
  {
    name: 'get_structure', title: 'Repository map', spec: 'Bombe §5 tool 4', toolsets: ['bombe'],
    description: 'Return a hierarchical map of the repository structure showing the most important files and symbols, ranked '
      + 'by structural importance (PageRank). Optional: focus on a subdirectory. Use it first in an unfamiliar codebase; use ls '
      + 'or glob when you only need file names, and grep to find text.',
    schema: structureSchema, run: getStructure,
  },
  {
    name: 'get_blast_radius', title: 'What a change can break', spec: 'Bombe §5 tool 5', toolsets: ['default', 'bombe'],
    description: 'Analyze the impact of changing a symbol. Returns all direct and transitive dependents that would be affected '
      + 'by a signature or behavior change (or a deletion): callers (hooks fired, calls of an overridden method), importers, '
      + 'subtypes and overriding methods, registrations such as the API endpoints that expose a handler, code that reads or '
      + 'writes it, tests; the affected files and a risk assessment. Use it before a refactor; '
      + 'before deleting code, also grep for dynamic uses (names in strings, reflection, configuration).',
    schema: blastSchema, run: getBlastRadius,
  },
]);
