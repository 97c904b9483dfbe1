import { z } from 'zod';
import { loadConfig, RANKING_PRESETS } from '../config/config.js';
import { SYMBOL_KINDS } from '../lang/types.js';
import { resolveInRepo } from '../repo/root.js';
import { DEFAULT_BUDGET, MAX_BUDGET, MAX_QUERY_CHARS, MIN_BUDGET, runQuery } from '../retrieve/query.js';
import { buildContext } from '../retrieve/context.js';
import { signalsFromText } from '../retrieve/signal-input.js';
import { symbolReferences } from '../graph/refs.js';
import { blastRadius, DEFAULT_IMPACT_DEPTH, MAX_IMPACT_DEPTH, testsFor } from '../graph/blast.js';
import { repoMap, SYMBOLS_PER_FILE } from '../graph/structure.js';
import { searchSymbols } from '../store/queries.js';
import { fileOverview } from '../store/file-info.js';
import { indexStatus } from '../store/status.js';
import type { Snapshot } from '../store/live.js';
import { renderContext, renderQuery } from './render.js';
import { renderBlastMermaid, renderStructureMermaid } from '../graph/mermaid.js';

/**
 * The tools. Each is a zod schema (bounds on every string and array, so no input is unbounded) and a
 * function over the same code the CLI calls. Descriptions say when the tool beats grep/read_file and
 * when it does not: an agent picks tools by these words.
 */
export interface ToolAnswer {
  /** The JSON answer (structuredContent, and the text content unless `text` is given). */
  body: Record<string, unknown>;
  /** A rendering for the text content (markdown, Mermaid), when the caller asked for one. */
  text?: string;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  schema: z.ZodObject;
  run(args: any, snap: Snapshot): Promise<ToolAnswer> | ToolAnswer;
}

const MAX_PATH = 1024;
const MAX_NAME = 512;
const MAX_DIFF = 2_000_000;
const MAX_SIGNALS = 200_000;

const repoPathArg = (what: string) => z.string().min(1).max(MAX_PATH).describe(`${what}, relative to the repository root (absolute paths inside the repository are accepted; paths outside it are refused)`);
const budget = (def: number, max = MAX_BUDGET) => z.number().int().min(MIN_BUDGET).max(max).default(def)
  .describe(`token budget for the answer, cl100k_base tokens (${MIN_BUDGET}-${max}, default ${def})`);
const queryText = z.string().min(1).max(MAX_QUERY_CHARS).describe('the task in plain words: a bug report, a feature request, a commit message');
const signalsArg = z.string().max(MAX_SIGNALS).optional()
  .describe('optional stack trace, failing-test output or log text: the places it names rank first');
const changeArgs = {
  files: z.array(repoPathArg('a changed file')).max(500).optional().describe('changed files (every definition in them counts as changed)'),
  symbols: z.array(z.string().min(1).max(MAX_NAME)).max(200).optional()
    .describe('changed symbols: qualified names (Service.run), plain names, or file:name (src/app.py:Service.run)'),
  diff: z.string().max(MAX_DIFF).optional().describe('a unified diff (`git diff` output): the definitions around its changed lines count as changed'),
};

const limitArg = (def: number) => z.number().int().min(1).max(2000).default(def)
  .describe(`at most this many entries per list (1-2000, default ${def}); totals gives the full counts`);

/**
 * Caps the named lists of an answer so a hub symbol (called from hundreds of places) does not flood
 * the agent's context; `totals` keeps the full counts and `truncated` says that lists were cut.
 */
function capLists(body: Record<string, unknown>, keys: string[], limit: number): Record<string, unknown> {
  const totals: Record<string, number> = {};
  let cut = false;
  const capIn = (obj: Record<string, unknown>, prefix: string) => {
    for (const k of keys) {
      const v = obj[k];
      if (!Array.isArray(v)) continue;
      totals[`${prefix}${k}`] = v.length;
      if (v.length > limit) {
        obj[k] = v.slice(0, limit);
        cut = true;
      }
    }
  };
  capIn(body, '');
  if (body.direct && typeof body.direct === 'object') {
    body.direct = { ...(body.direct as Record<string, unknown>) };
    capIn(body.direct as Record<string, unknown>, 'direct.');
  }
  return { ...body, totals, listsTruncated: cut };
}

function path(snap: Snapshot, p: string): string {
  return resolveInRepo(snap.root, p);
}

/** The repository's threshold for low-confidence warnings (config `warnings.lowConfidence`). */
function lowConfidence(snap: Snapshot): number {
  return loadConfig(snap.root).warnings.lowConfidence;
}

export const TOOLS: ToolDef[] = [
  {
    name: 'codegraph_query',
    title: 'Code for a task',
    description: 'Find the code a task needs, ranked, within a token budget: each place has path, line_range, symbol, '
      + 'excerpt, score, a one-line rationale (why it is relevant: "matches token expiry", "called by X", "test of Y") and a '
      + 'confidence. Use it FIRST for a task described in words ("fix the token expiry check", a bug report, a stack trace) '
      + 'when you do not yet know which files matter. Do NOT use it when you already know the exact string or file: grep '
      + 'or read_file are faster and exact for literal text, error messages and config keys.',
    schema: z.object({
      query: queryText,
      cursor_file: repoPathArg('the file being edited (its imports and importers rank higher)').optional(),
      max_depth: z.number().int().min(0).max(3).default(1).describe('hops of calls and tests to follow from the best matches (0-3, default 1)'),
      token_budget: budget(DEFAULT_BUDGET),
      include_snippets: z.boolean().default(true).describe('include the source lines of each place (default true); false gives signatures only'),
      format: z.enum(['json', 'markdown']).default('json').describe('json (default): the structured answer; markdown: the same places as readable text'),
      signals: signalsArg,
      preset: z.enum(RANKING_PRESETS).optional().describe('ranking preset (default: the repository configuration, else hybrid)'),
    }),
    async run(a, snap) {
      const signals = a.signals ? signalsFromText(snap.db, snap.root, a.signals) : undefined;
      const res = await runQuery(snap.db, snap.root, { text: a.query, budget: a.token_budget, depth: a.max_depth, snippets: a.include_snippets,
        cursorFile: a.cursor_file ? path(snap, a.cursor_file) : null, signals, preset: a.preset });
      return { body: res as unknown as Record<string, unknown>, text: a.format === 'markdown' ? renderQuery(res) : undefined };
    },
  },
  {
    name: 'get_context',
    title: 'Reading bundle for a task',
    description: 'A reading bundle for a task within a token budget: a summary, the relations between the places (calls, '
      + 'tests), the full source of the entry points (their first lines when the budget allows no more) and the signatures '
      + 'of the rest, whole files grouped, at most 12 files. Use it instead of '
      + 'opening many files one by one when you need to understand an area before changing it. For a quick list of '
      + 'places use codegraph_query; for one known file use read_file.',
    schema: z.object({
      query: queryText,
      cursor_file: repoPathArg('the file being edited').optional(),
      max_depth: z.number().int().min(0).max(3).default(1).describe('hops of calls and tests to follow (0-3, default 1)'),
      token_budget: budget(DEFAULT_BUDGET),
      signals: signalsArg,
      format: z.enum(['markdown', 'json']).default('markdown').describe('markdown (default): the bundle as text to read; json: sections and places'),
    }),
    async run(a, snap) {
      const signals = a.signals ? signalsFromText(snap.db, snap.root, a.signals) : undefined;
      const res = await buildContext(snap.db, snap.root, { text: a.query, budget: a.token_budget, depth: a.max_depth,
        cursorFile: a.cursor_file ? path(snap, a.cursor_file) : null, signals });
      return { body: res as unknown as Record<string, unknown>, text: a.format === 'markdown' ? renderContext(res) : undefined };
    },
  },
  {
    name: 'search_symbols',
    title: 'Find symbols by name',
    description: 'Find functions, methods, classes, interfaces, types and constants by name: a case-insensitive substring '
      + '(parse), a glob (get_*), or a qualified name (Service.run). Each hit has kind, file, lines and signature. Use it to '
      + 'locate a definition you can name; it skips comments, strings and call sites, which grep would also return. To find '
      + 'where a literal string or an error message appears, use grep instead.',
    schema: z.object({
      query: z.string().min(1).max(MAX_NAME).describe('a name, a substring, a glob (* ?) or a qualified name'),
      kind: z.enum(SYMBOL_KINDS).optional().describe('only this kind of symbol'),
      file_glob: z.string().min(1).max(MAX_NAME).optional().describe('only in files matching this glob, e.g. "src/**/*.py" or "*.go"'),
      limit: z.number().int().min(1).max(200).default(20).describe('at most this many hits (1-200, default 20)'),
    }),
    run(a, snap) {
      const res = searchSymbols(snap.db, { pattern: a.query, kind: a.kind, fileGlob: a.file_glob, limit: a.limit });
      const body = { status: res.total ? 'ok' : 'empty_results', query: a.query, total: res.total, symbols: res.symbols,
        ...(res.total ? {} : { suggestion: 'No symbol name contains this text. Try a shorter part of the name, or grep for it (it may be a string or a comment).' }) };
      return { body };
    },
  },
  {
    name: 'get_references',
    title: 'Callers, callees and type hierarchy',
    description: 'Who calls a symbol and what it calls, up to 5 levels deep, with call-site lines and a confidence per edge; '
      + 'callers include the endpoints and hook or event registrations that run it as a callback (relation registers, '
      + 'fires); for a class, constant or module also who reads and writes it, for a function what it reads and writes; '
      + 'with hierarchy, also the types that extend or implement it and those it extends (for a method: overrides). Use it '
      + "before changing a function's signature or behaviour, or to follow a flow. It resolves calls through imports and "
      + 'receiver types, which grep cannot; grep remains the check for dynamic calls (strings, reflection) the index cannot see.',
    schema: z.object({
      symbol: z.string().min(1).max(MAX_NAME).describe('a qualified name (Service.run), a plain name, or file:name (src/app.py:Service.run)'),
      direction: z.enum(['callers', 'callees', 'both']).default('both').describe('callers, callees or both (default)'),
      depth: z.number().int().min(1).max(5).default(1).describe('levels to follow (1-5, default 1)'),
      hierarchy: z.boolean().default(false).describe('also subtypes (implementors, subclasses) and supertypes; for a method, the methods that override it and those it overrides'),
      file_glob: z.string().min(1).max(MAX_NAME).optional().describe('pick the symbol among those in files matching this glob'),
      limit: limitArg(100),
    }),
    run(a, snap) {
      const res = symbolReferences(snap.db, a.symbol, { callers: a.direction !== 'callees', callees: a.direction !== 'callers',
        depth: a.depth, fileGlob: a.file_glob, hierarchy: a.hierarchy, lowConfidence: lowConfidence(snap) });
      return { body: capLists({ status: 'ok', ...res }, ['callers', 'callees', 'subtypes', 'supertypes', 'readers', 'writers', 'reads', 'writes'], a.limit) };
    },
  },
  {
    name: 'file_context',
    title: "A file's outline",
    description: "One file's outline without its body: every definition as a tree (kind, name, lines, signature, doc), its "
      + 'imports resolved to repository files or external modules, and its exports. Use it to see what a file holds and '
      + 'what it depends on before reading it, at a fraction of the tokens; use read_file when you need the code itself.',
    schema: z.object({ path: repoPathArg('the file') }),
    run(a, snap) {
      return { body: { status: 'ok', ...fileOverview(snap.db, snap.root, path(snap, a.path), snap.root) } };
    },
  },
  {
    name: 'tests_for',
    title: 'Tests for a change',
    description: 'The tests to run first for a change: given changed files, symbols or a unified diff, every test that '
      + 'reaches the changed code through calls, imports or test edges, strongest link first, each with the chain that links '
      + 'it to the change and its file. Use it after editing, to run the relevant tests before the whole suite. It cannot '
      + 'see tests that reach code dynamically (fixtures by name, subprocesses): when it finds none, grep the tests for the '
      + 'changed names or run the whole suite.',
    schema: z.object({ ...changeArgs, max_depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(DEFAULT_IMPACT_DEPTH)
      .describe(`steps to follow from the change (1-${MAX_IMPACT_DEPTH}, default ${DEFAULT_IMPACT_DEPTH})`), limit: limitArg(50) }),
    run(a, snap) {
      const res = testsFor(snap.db, { files: a.files, symbols: a.symbols, diff: a.diff }, a.max_depth, (p) => path(snap, p), lowConfidence(snap));
      return { body: capLists({ status: 'ok', ...res }, ['tests', 'testFiles', 'changed', 'unmatched'], a.limit) };
    },
  },
  {
    name: 'get_blast_radius',
    title: 'What a change can break',
    description: 'What depends on symbols or files you are about to change: direct dependents by relation (callers, '
      + 'importers, subtypes and overriding methods, registrations such as the API endpoints that expose a handler, code '
      + 'that reads or writes a model, tests), transitive dependents by depth, the affected files, the tests that reach '
      + 'the change, and a risk summary with its reasons. Use it before a refactor, a signature change or a deletion. '
      + 'Accepts symbols, files or a unified diff. It sees the calls, imports, inheritance, registrations and data access '
      + 'the index resolved; before deleting code, also '
      + 'grep for dynamic uses (names in strings, reflection, configuration). format mermaid gives a graph to paste into a pull request.',
    schema: z.object({ ...changeArgs, max_depth: z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(DEFAULT_IMPACT_DEPTH)
      .describe(`levels of dependents to follow (1-${MAX_IMPACT_DEPTH}, default ${DEFAULT_IMPACT_DEPTH})`),
      format: z.enum(['json', 'mermaid']).default('json').describe('json (default), or mermaid: a flowchart of the dependents as text'),
      limit: limitArg(100) }),
    run(a, snap) {
      const res = blastRadius(snap.db, { files: a.files, symbols: a.symbols, diff: a.diff }, a.max_depth, (p) => path(snap, p), lowConfidence(snap));
      const body = capLists({ status: 'ok', ...res }, ['callers', 'importers', 'subtypes', 'registrations', 'dataAccess', 'tests', 'transitive', 'affectedFiles', 'targets', 'unmatched'], a.limit);
      return { body, text: a.format === 'mermaid' ? renderBlastMermaid(res) : undefined };
    },
  },
  {
    name: 'get_structure',
    title: 'Repository map',
    description: 'A map of the repository (or of one folder): files in order of centrality (PageRank over calls and '
      + 'imports), each with its most central definitions as one-line signatures, within a token budget. Use it first in '
      + 'an unfamiliar codebase to learn where the core is; use file_context for one file, ls or glob when you only need '
      + 'file names, and grep to find text.',
    schema: z.object({
      folder: repoPathArg('only files under this folder').optional(),
      token_budget: budget(2000, 50_000),
      symbols_per_file: z.number().int().min(1).max(50).default(SYMBOLS_PER_FILE).describe(`definitions shown per file (1-50, default ${SYMBOLS_PER_FILE})`),
      format: z.enum(['markdown', 'json', 'mermaid']).default('markdown')
        .describe('markdown (default): the map as text; json: files and symbols; mermaid: the files and the calls/imports between them'),
    }),
    async run(a, snap) {
      const folder = a.folder ? path(snap, a.folder) || null : null;
      const res = await repoMap(snap.db, { folder, budget: a.token_budget, symbolsPerFile: a.symbols_per_file, links: a.format === 'mermaid' });
      if (a.format === 'mermaid' && res.status === 'ok') return { body: res as unknown as Record<string, unknown>, text: renderStructureMermaid(res) };
      const body = { ...res, ...(res.status === 'empty_results' ? { suggestion: `No indexed file under ${folder}/. List the folder, or check the path.` } : {}) };
      const footer = `\n(${res.files.length} of ${res.total_files} files, ${res.tokens_used}/${res.token_budget} tokens${res.truncated ? '; raise token_budget or pick a folder for more' : ''})`;
      return { body, text: a.format === 'markdown' && res.status === 'ok' ? res.text + footer : undefined };
    },
  },
  {
    name: 'status',
    title: 'Index status',
    description: 'What the index covers and how fresh it is: indexed commit, generation and age, pending change-log '
      + 'records, files per language, partial parses, files skipped by reason, files excluded because they look like they '
      + 'hold credentials, call resolution, the embedding model, and the server\'s own memory (RSS; whether the token '
      + 'encoding and the model are loaded: an idle server gives them back and reloads them on the next query). Call it '
      + 'when answers look wrong or stale, or to know '
      + 'whether a file could be in the index at all (a skipped or excluded file is only reachable with read_file).',
    schema: z.object({}),
    run(_a, snap) {
      const s = indexStatus(snap.db, snap.root);
      const coverage = { indexed: s.files.indexed, partial: s.files.partial, skipped: s.skipped.total,
        indexedPercent: s.files.indexed + s.skipped.total ? Math.round((s.files.indexed / (s.files.indexed + s.skipped.total)) * 1000) / 10 : 100 };
      return { body: { status: 'ok', coverage, model: s.vectors, ...s } };
    },
  },
];
