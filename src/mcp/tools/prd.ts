import { z } from 'zod';
import { RANKING_PRESETS } from '../../config/config.js';
import { DEFAULT_BUDGET, DEFAULT_MAX_REGIONS, runQuery, type QueryEntry, type QueryResponse } from '../../retrieve/query.js';
import { signalsFromText } from '../../retrieve/signal-input.js';
import { errorBody, makeError } from '../errors.js';
import { declareTools, type ToolAnswer, type ToolContext } from '../registry.js';
import { fitAnswer } from '../respond.js';
import { budgetArg, queryArg, repoPath, repoPathArg, signalsArg } from './args.js';

/**
 * The CodeGrapher PRD §6 contract: `codegraph_query`, a view over runQuery (the same function as
 * `cg query`). Success is {status: "success", files: [{path, line_range, symbol, excerpt}], tokens_used,
 * total_symbols, truncated, total_candidates}; the text is the PRD's markdown table; errors (empty
 * results included) come in the PRD's error shape.
 */
interface PrdEntry {
  path: string;
  line_range: [number, number];
  symbol: string | null;
  kind: string;
  /** The PRD's "1-line excerpt/signature". */
  excerpt: string | null;
  /** With include_snippets: the code (PRD: "includes full code snippets for each entry"). */
  snippet?: string | null;
  rationale: string;
  /** The calibrated probability that the task edits this place's file (src/retrieve/confidence.ts). */
  confidence: number;
  /** Below the answer's confidence threshold: a weak guess. */
  weak?: true;
}

function prdEntry(e: QueryEntry, snippets: boolean): PrdEntry {
  const firstLine = (t: string | null) => t?.split('\n').map((l) => l.trim()).find(Boolean) ?? null;
  return {
    path: e.path, line_range: e.line_range, symbol: e.symbol, kind: e.kind,
    excerpt: firstLine(e.signature) ?? firstLine(e.excerpt),
    ...(snippets ? { snippet: e.excerpt } : {}),
    rationale: e.rationale, confidence: e.confidence, ...(e.weak ? { weak: e.weak } : {}),
  };
}

const cell = (s: string | null) => (s ?? '').replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\s+/g, ' ').trim();

/** PRD §6: a markdown table of file path, line range, symbol and a one-line excerpt (with snippets, the code after it). */
export function renderTable(body: { files: PrdEntry[]; tokens_used: number; truncated: boolean; total_candidates: number;
  omitted?: number; truncated_by?: string; warnings?: string[]; low_confidence?: boolean; message?: string }, budget: number): string {
  const out = body.low_confidence && body.message ? [`**${body.message}**`, ''] : [];
  out.push('| path | lines | symbol | excerpt | why | confidence |', '|---|---|---|---|---|---|');
  for (const e of body.files) {
    out.push(`| ${cell(e.path)} | ${e.line_range[0]}-${e.line_range[1]} | ${cell(e.symbol ?? '(file)')} | ${e.excerpt ? `\`${cell(e.excerpt)}\`` : ''} | ${cell(e.rationale)} | ${e.confidence.toFixed(2)}${e.weak ? ' (weak)' : ''} |`);
  }
  for (const e of body.files) {
    if (e.snippet) out.push('', `${e.path}:${e.line_range[0]}-${e.line_range[1]} ${e.symbol ?? ''}`, '```', e.snippet, '```');
  }
  out.push('', `${body.files.length} places of ${body.total_candidates} candidates, ${body.tokens_used}/${budget} tokens`
    + (body.truncated ? `; ${body.omitted ?? 'more'} places left out (${body.truncated_by === 'places' ? `at most ${DEFAULT_MAX_REGIONS} are returned: narrow the query`
      : 'more did not fit: raise token_budget'})` : ''));
  for (const w of body.warnings ?? []) out.push(`warning: ${w}`);
  return out.join('\n');
}

const schema = z.object({
  query: queryArg('free text or a symbol name: the task in words (a bug report, a feature request, a commit message)'),
  cursor_file: repoPathArg('the file being edited: files it imports or that import it rank higher (PRD: import-closure)').optional(),
  max_depth: z.number().int().min(0).max(3).default(1).describe('graph hops of calls and tests to follow from the best matches (0-3, default 1)'),
  token_budget: budgetArg(DEFAULT_BUDGET),
  include_snippets: z.boolean().default(false).describe('if true, include the code of each place; if false (default), metadata and a one-line excerpt only'),
  format: z.enum(['markdown', 'json']).default('markdown').describe('markdown (default): the places as a table; json: the same answer as JSON text'),
  signals: signalsArg,
  preset: z.enum(RANKING_PRESETS).optional().describe('ranking preset (default: the repository configuration, else learned)'),
});

async function run(a: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolAnswer> {
  const { snap } = ctx;
  const signals = a.signals ? signalsFromText(snap.db, snap.root, a.signals) : undefined;
  ctx.progress('ranking the candidates');
  const res: QueryResponse = await runQuery(snap.db, snap.root, { text: a.query, budget: a.token_budget, depth: a.max_depth,
    snippets: a.include_snippets, cursorFile: a.cursor_file ? repoPath(snap, a.cursor_file) : null, signals, preset: a.preset });
  if (res.status === 'empty_results') {
    // Nothing matched at all, or nothing well enough to show: the PRD's error, with the weak guesses as partial results.
    const matchedNothing = !res.weak_candidates?.length;
    return { isError: true, body: errorBody(makeError('empty_results', matchedNothing ? `Nothing in the index matches "${a.query.slice(0, 200)}"`
      : `Nothing in the index matches "${a.query.slice(0, 200)}" well`, res.suggestion), (res.weak_candidates ?? []).map((e) => prdEntry(e, false))) };
  }
  ctx.progress('fitting the answer into the token budget');
  const entries = res.files.map((e) => prdEntry(e, a.include_snippets));
  const build = (k: number, tokensUsed: number): ToolAnswer => {
    // Places ranked but not returned: cut here to fit the whole answer, or by the packing before.
    const omitted = Math.max(res.total_places, entries.length) - k;
    const body = {
      status: 'success', files: entries.slice(0, k), tokens_used: tokensUsed, total_symbols: k, truncated: res.truncated || k < entries.length,
      total_candidates: res.total_places,
      ...(res.confidence_level === 'low' ? { low_confidence: true, message: res.suggestion, grep_terms: res.grep_terms } : {}),
      ...(omitted ? { omitted } : {}),
      ...(k < entries.length ? { truncated_by: 'budget' } : res.truncated_by ? { truncated_by: res.truncated_by } : {}),
      ...(res.warnings.length ? { warnings: res.warnings } : {}),
      ...(res.stale_references.length ? { stale_references: res.stale_references } : {}),
    };
    return { body, text: a.format === 'markdown' ? renderTable(body, a.token_budget) : undefined };
  };
  return (await fitAnswer(a.token_budget, entries.length, build, ctx.finish)).answer;
}

declareTools([{
  name: 'codegraph_query',
  title: 'Code for a task',
  spec: 'CodeGrapher PRD §6',
  toolsets: ['default', 'codegrapher'],
  description: 'Find the code a task needs, ranked, within a token budget that counts the whole answer: a table of path, '
    + 'line range, symbol and a one-line excerpt, with why each place is relevant ("matches token expiry", "called by X"). '
    + 'Use it FIRST for a task described in words (a bug report, a stack trace in signals) when you do not yet know which '
    + 'files matter, then read_file the places. Each place has a confidence: the probability that the task edits its file. '
    + 'When nothing matches well the answer says so and names the words to grep instead. Do NOT use it for an exact string or a known file: grep or read_file are '
    + 'faster and exact for literal text, error messages and config keys.',
  schema,
  run,
}]);
