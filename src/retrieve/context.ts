import type Database from 'better-sqlite3';
import { runQuery, type QueryInput, type QueryEntry, type QueryResponse } from './query.js';
import { SourceReader } from './source.js';
import { TOKENIZER, tokenCounter } from './tokens.js';
import { maxOf } from '../arrays.js';

/**
 * `cg context`: a bundle an agent can read instead of opening files. The first few places (the entry
 * points) come with their full source, the rest with signatures; a summary and the relations between
 * the places come first. Packing keeps whole files together: a file's places go in or stay out as one
 * group, so the reader never gets half of a file's story. A file of entry points too long for what is
 * left of the budget comes with the first lines of each (`excerpt`), or else its signatures, rather
 * than not at all: it is the file the ranking trusts most.
 */
export const ENTRY_POINTS = 3;
/** A bundle holds at most this many files. */
export const MAX_FILES = 12;
/**
 * Places ranked for a bundle, before they are grouped by file. Twelve, as `cg query` returns, came to a
 * median of 5 files and used under half the default budget; on the evaluation (eval/README.md) 24 raised
 * bundle recall at 3,500 tokens from 0.932 to 0.957 on the dev set and from 0.887 to 0.906 on the
 * held-out set, and 36 added nothing more (0.949, 0.903).
 */
export const BUNDLE_PLACES = 24;
/**
 * A file whose best place's calibrated confidence (the probability that the task edits the file,
 * src/retrieve/confidence.ts) is below this stays out of the bundle and is named in `more_files`
 * instead; the first file always goes in. On the dev set (eval/bundle-cut.mjs, 130 tasks) 0.02 took
 * bundles from 10.4 to 5.3 files, the share of bundle files the task never touched from 86 % to 72 %
 * and the median bundle from 2,351 to 1,876 tokens, for 0.026 of bundle recall (0.952 -> 0.926);
 * 0.03 kept 4.5 files at 0.907, 0.01 7.6 files at 0.944. Uncalibrated confidences are not cut.
 */
export const BUNDLE_MIN_CONFIDENCE = 0.02;

export interface ContextSection {
  path: string;
  /** What of the file is shown: its places' full source, their first lines (the budget allowed no more), or signatures. */
  form: 'source' | 'excerpt' | 'signatures';
  places: ContextPlace[];
  text: string;
}

export interface ContextPlace {
  symbol: string | null;
  kind: string;
  line_range: [number, number];
  rationale: string;
  /** With `placeTexts`: the place's own lines as shown (source, first lines, or signature), without the section's header line. */
  text?: string;
  /**
   * The index among the section's places of the place whose source shows all of this one's lines (a nested
   * function ranked above the function it lives in); this place's text then only says so.
   */
  within?: number;
}

export interface ContextOptions {
  /**
   * How places other than the entry points come: 'signatures' (cg context), or 'source-if-fits' (Bombe's
   * get_context without include_signatures_only): their full source while the budget allows, else signatures.
   */
  rest?: 'signatures' | 'source-if-fits';
  /** Give each place its own text as well (Bombe's per-symbol answer). */
  placeTexts?: boolean;
  /** Files below this calibrated confidence go to `more_files` (BUNDLE_MIN_CONFIDENCE by default; 0 keeps every file). */
  minConfidence?: number;
  /** The token counter, when several packings of one ranking share one (rememberingCounter); else the shared tokenizer's. */
  count?: (text: string) => number;
}

export interface ContextBundle {
  status: 'ok' | 'empty_results';
  query: string;
  summary: string;
  relationships: string[];
  files: ContextSection[];
  /** Files ranked for the bundle but left out as unlikely to be edited (below `minConfidence`), best first, by path. */
  more_files: string[];
  tokens_used: number;
  token_budget: number;
  tokenizer: string;
  truncated: boolean;
  /** What held content back: 'budget' (a larger budget gets more in) or 'files' (at most 12 files, whatever the budget); null when nothing was. */
  truncated_by: 'budget' | 'files' | null;
  /** Places ranked for the bundle, before packing (Bombe's symbols_available). */
  places_available: number;
  preset: QueryResponse['preset'];
  /** As the query's: 'low' when nothing matched well (the summary says so and what to grep instead), 'none' for an empty bundle. */
  confidence_level?: QueryResponse['confidence_level'];
  grep_terms?: string[];
  warnings: string[];
}

export async function buildContext(db: Database.Database, root: string, input: QueryInput, opts: ContextOptions = {}): Promise<ContextBundle> {
  return packContext(db, root, input, await rankForContext(db, root, input), opts);
}

/**
 * The places a bundle is packed from: more than fit, ranked without a budget (packing decides what
 * goes in), so one ranking serves a packing at any budget (get_context packs again when its JSON
 * answer is over; ranking is most of a bundle's time).
 */
export function rankForContext(db: Database.Database, root: string, input: QueryInput): Promise<QueryResponse> {
  return runQuery(db, root, { ...input, budget: 200_000, snippets: false, maxRegions: input.maxRegions ?? BUNDLE_PLACES });
}

/** Packs ranked places (rankForContext with the same input) into `input.budget` tokens. */
export async function packContext(db: Database.Database, root: string, input: QueryInput, found: QueryResponse,
  opts: ContextOptions = {}): Promise<ContextBundle> {
  const budget = input.budget ?? 3500;
  const count = opts.count ?? await tokenCounter();
  const reader = new SourceReader(db, root);
  const base = { query: input.text, token_budget: budget, tokenizer: TOKENIZER, places_available: found.files.length, preset: found.preset,
    ...(found.confidence_level ? { confidence_level: found.confidence_level } : {}), ...(found.grep_terms ? { grep_terms: found.grep_terms } : {}),
    // A copy: each packing of one ranking adds its own reader's notes.
    warnings: [...found.warnings] };
  if (found.status === 'empty_results') {
    return { ...base, status: 'empty_results', summary: found.suggestion ?? 'Nothing matched.', relationships: [], files: [], more_files: [],
      tokens_used: 0, truncated: false, truncated_by: null };
  }
  const { groups, unlikely } = cutUnlikely([...groupByFile(found.files)], found.confidence_level ? opts.minConfidence ?? BUNDLE_MIN_CONFIDENCE : 0);
  const kept = groups.slice(0, MAX_FILES);
  const shown = kept.flatMap(([, entries]) => entries);
  const capped = groups.length > kept.length;
  let cutForBudget = false;
  // Named entry points rank first (runQuery), so the first places are the named ones and then the best matches.
  const primary = Math.max(ENTRY_POINTS, found.files.filter((e) => e.sources.includes('named')).length);
  const entryPoints = new Set(found.files.slice(0, primary).map((e) => `${e.path}:${e.line_range[0]}`));
  // An answer nothing matched well says so first (src/retrieve/confidence.ts).
  const summary = `${found.confidence_level === 'low' ? `${found.suggestion} ` : ''}${summarize(input.text, found.files.slice(0, primary), shown)}`;
  const relationships = shown.filter((e) => /^(called by|calls|test of|registered by|registers|overridden by|overrides|written by|read by) /.test(e.rationale))
    .map((e) => `${e.symbol ?? e.path} ${e.rationale}`);
  let used = count(summary) + count(relationships.join('\n'));
  const files: ContextSection[] = [];
  const cost = (path: string, text: string) => count(text) + count(path) + 8;
  const signatures = kept.map(([path, entries]) => {
    const text = signaturesText(path, entries);
    return { text, tokens: cost(path, text) };
  });
  for (const [i, [path, entries]] of kept.entries()) {
    const add = (form: ContextSection['form'], text: string, tokens: number, placeTexts: string[], within: number[] = []) => {
      used += tokens;
      const places = entries.map((e, j) => ({ symbol: e.symbol, kind: e.kind, line_range: e.line_range, rationale: e.rationale,
        ...(opts.placeTexts ? { text: placeTexts[j] } : {}), ...((within[j] ?? -1) >= 0 ? { within: within[j] } : {}) }));
      files.push({ path, form, text, places });
    };
    // Room kept for the signatures of the files after this one (at most half of what is left).
    const reserve = () => Math.min(signatures.slice(i + 1).reduce((sum, sig) => sum + sig.tokens, 0), Math.floor((budget - used) / 2));
    const isEntry = entries.some((e) => entryPoints.has(`${e.path}:${e.line_range[0]}`));
    if (isEntry || opts.rest === 'source-if-fits') {
      const sources = entries.map((e) => sourceOf(reader, e));
      const within = heldBy(entries, sources);
      const own = placeTexts(entries, sources, Infinity, within);
      const text = sectionText(path, entries, own);
      const tokens = cost(path, text);
      if (used + tokens <= budget - (isEntry ? 0 : reserve())) {
        add('source', text, tokens, own, within);
        continue;
      }
      if (isEntry) {
        cutForBudget = true;
        // The first lines of each entry point, leaving room for the signatures of the files after it.
        const clipped = clipToFit(path, entries, sources, budget - used - reserve(), count);
        if (clipped) {
          add('excerpt', clipped.text, clipped.tokens, placeTexts(entries, sources, clipped.lines));
          continue;
        }
      }
    }
    if (used + signatures[i].tokens > budget) {
      // Files after this one rank lower: none is kept while this one is left out.
      cutForBudget = true;
      break;
    }
    add('signatures', signatures[i].text, signatures[i].tokens, entries.map((e) => e.signature ?? ''));
  }
  const truncatedBy = cutForBudget ? 'budget' : capped ? 'files' : null;
  base.warnings.push(...reader.notes);
  return { ...base, status: 'ok', summary, relationships, files, more_files: unlikely, tokens_used: used, truncated: truncatedBy !== null,
    truncated_by: truncatedBy };
}

/**
 * The file groups worth their tokens — the first, those whose best place clears `min`, and those holding
 * an entry point the caller named or a place an execution signal points at — and the paths of the rest.
 */
function cutUnlikely(groups: [string, QueryEntry[]][], min: number): { groups: [string, QueryEntry[]][]; unlikely: string[] } {
  const worth = (entries: QueryEntry[]) => maxOf(entries.map((e) => e.confidence)) >= min
    || entries.some((e) => e.sources.includes('named') || e.sources.includes('signal'));
  const kept = groups.filter(([, entries], i) => i === 0 || worth(entries));
  return { groups: kept, unlikely: groups.filter((g) => !kept.includes(g)).map(([path]) => path) };
}

const header = (path: string, e: QueryEntry) => `// ${path}:${e.line_range[0]}-${e.line_range[1]} ${e.symbol ?? ''} (${e.rationale})`;

const signatureOf = (path: string, e: QueryEntry) => `${header(path, e)}\n${e.signature ?? ''}`;

function signaturesText(path: string, entries: QueryEntry[]): string {
  return entries.map((e) => signatureOf(path, e)).join('\n\n');
}

/** A place's source lines (capped as excerpts are), or null when the file is not read or now looks like it holds a credential. */
function sourceOf(reader: SourceReader, e: QueryEntry): string[] | null {
  return reader.excerpt({ path: e.path, startLine: e.line_range[0], endLine: e.line_range[1] })?.split('\n') ?? null;
}

/** The places with their source, each cut to its first `maxLines` lines (with a note of what was left out). */
function sourcesText(path: string, entries: QueryEntry[], sources: (string[] | null)[], maxLines: number): string {
  return sectionText(path, entries, placeTexts(entries, sources, maxLines));
}

/** A file's section: each place's header line and its text. */
function sectionText(path: string, entries: QueryEntry[], own: string[]): string {
  return entries.map((e, i) => `${header(path, e)}\n${own[i]}`).join('\n\n');
}

/**
 * Each place's lines as shown: its source cut to `maxLines` (saying where the rest is), or its signature when the
 * source is unreadable. A place whose lines another place of the file shows in full (a nested function ranked
 * above the function it lives in: both are places, src/retrieve/regions.ts; `within`, from heldBy, for a section
 * shown in full) is not printed twice: it says where its lines are.
 */
function placeTexts(entries: QueryEntry[], sources: (string[] | null)[], maxLines: number, within: number[] = []): string[] {
  return entries.map((e, i) => {
    const src = sources[i];
    const holder = within[i] ?? -1;
    if (holder >= 0) {
      const o = entries[holder];
      return `(lines ${e.line_range[0]}-${e.line_range[1]}: shown ${holder < i ? 'above' : 'below'}, in ${o.symbol ?? 'the place'} ${o.line_range[0]}-${o.line_range[1]})`;
    }
    if (!src) return e.signature ?? '';
    if (src.length <= maxLines) return src.join('\n');
    const [start, end] = e.line_range;
    return `${src.slice(0, maxLines).join('\n')}\n… (cut to fit the budget: read ${e.path}:${start + maxLines}-${end} for the rest)`;
  });
}

/**
 * For each place of a section shown in full, the index of another place whose source shows all its lines, or -1:
 * the outermost of them (a closure in a closure in a function is shown by the function, whose own text is source).
 */
function heldBy(entries: QueryEntry[], sources: (string[] | null)[]): number[] {
  const span = (e: QueryEntry) => e.line_range[1] - e.line_range[0];
  return entries.map((e, i) => {
    let best = -1;
    entries.forEach((o, j) => {
      if (j !== i && sources[j] !== null && sources[i] !== null && holds(o, sources[j]!, e) && (best < 0 || span(o) > span(entries[best]))) best = j;
    });
    return best;
  });
}

/**
 * Whether place `o`, whose shown source is `src` (capped as excerpts are: its last line may say how many more
 * there are), shows all of place `e`'s lines, `e` being the smaller (or, at equal ranges, never: both stay).
 */
function holds(o: QueryEntry, src: string[], e: QueryEntry): boolean {
  const capped = /^… \(\d+ more lines\)$/.test(src[src.length - 1] ?? '');
  const shownEnd = o.line_range[0] + src.length - (capped ? 2 : 1);
  const [start, end] = e.line_range;
  return o.line_range[0] <= start && end <= Math.min(o.line_range[1], shownEnd) && o.line_range[1] - o.line_range[0] > end - start;
}

/** How far past the room line counts are summed: the sums run over the exact count by a few percent. */
const ESTIMATE_REACH = 1.25;

/**
 * The most lines per place (at least 2: a signature line and one more) that fit in `room` tokens, or
 * null. Counting the whole text for every candidate length cost up to 50 ms a bundle, so each line is
 * counted once and lengths are chosen by sums of those counts (which run over the exact count by a few
 * percent): the chosen text is counted exactly, cut by a tenth while it is over, and, where the sums
 * were pessimistic, lengthened once by the measured ratio.
 */
function clipToFit(path: string, entries: QueryEntry[], sources: (string[] | null)[], room: number,
  count: (text: string) => number): { text: string; tokens: number; lines: number } | null {
  const longest = Math.max(0, ...sources.map((s) => s?.length ?? 0));
  if (longest <= 2) return null;
  const fixed = count(path) + 8;
  // estimates[k]: the estimated tokens with k lines per place, as far as the budget could reach.
  const estimates = [0, fixed + count(sourcesText(path, entries, sources, 1))];
  for (let k = 2; k < longest && estimates[k - 1] <= room * ESTIMATE_REACH; k++) {
    estimates[k] = estimates[k - 1] + sources.reduce((sum, src) => sum + (src && k - 1 < src.length ? count(src[k - 1]) + 1 : 0), 0);
  }
  const longestWithin = (limit: number) => {
    let k = 2;
    while (k + 1 < estimates.length && estimates[k + 1] <= limit) k++;
    return k;
  };
  const exact = (lines: number) => {
    const text = sourcesText(path, entries, sources, lines);
    return { lines, text, tokens: fixed + count(text) };
  };
  let fit = exact(longestWithin(room));
  while (fit.tokens > room) {
    if (fit.lines === 2) return null;
    fit = exact(Math.max(2, Math.floor(fit.lines * 0.9)));
  }
  const longer = longestWithin(room * (estimates[fit.lines] / fit.tokens));
  if (longer > fit.lines) {
    const tried = exact(longer);
    if (tried.tokens <= room) fit = tried;
  }
  return fit;
}

function groupByFile(entries: QueryEntry[]): Map<string, QueryEntry[]> {
  const groups = new Map<string, QueryEntry[]>();
  for (const e of entries) {
    const list = groups.get(e.path) ?? [];
    list.push(e);
    groups.set(e.path, list);
  }
  return groups;
}

function summarize(task: string, entryPoints: QueryEntry[], entries: QueryEntry[]): string {
  const main = entryPoints.map((e) => `${e.symbol ?? e.path} (${e.path})`);
  const files = new Set(entries.map((e) => e.path)).size;
  const subject = task.split('\n')[0].slice(0, 160);
  return `For "${subject}": start with ${main.join(', ')}. ${entries.length} places in ${files} files, best first; `
    + `entry points with their source, the rest as signatures.`;
}
