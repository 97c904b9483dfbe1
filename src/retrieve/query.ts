import type Database from 'better-sqlite3';
import { plural } from '../words.js';
import { CgError } from '../errors.js';
import { fileByPath, findSymbolsByRef, symbolsWhere } from '../store/queries.js';
import { cachedForVersion } from '../store/version-cache.js';
import { expandRegions } from './expand.js';
import { regionsOf, type RankSource, type Region } from './regions.js';
import { SourceReader } from './source.js';
import { DEFAULT_LEXICAL, emptySignals, queryTerms, rankFiles, type RankedFile } from './rank.js';
import type { TermStats } from './lexical.js';
import { candidateFeatures, type Candidate } from './features.js';
import { indexHistory, type History } from './history.js';
import { loadRanker, MIN_PAST_COMMITS, rankerFile, rerank, withProbabilities } from './ranker.js';
import { answerLevel, calibrated, confidenceFile, confidenceInputs, loadConfidence, queryEvidence, type AnswerLevel, type ConfidenceModel, type QueryEvidence } from './confidence.js';
import { salientTerms } from './grep-terms.js';
import { fuse } from './fusion.js';
import { taskText } from './boilerplate.js';
import { splitTask } from './task-split.js';
import { vectorMatches, type VectorMatches } from './vectors.js';
import { loadConfig, type RankingPreset } from '../config/config.js';
import { TOKENIZER, tokenCounter, tokenFloor } from './tokens.js';
import { passesFilter, type FilterType, type Pool } from '../extract/documents/formats.js';
import { rrfMerge } from './rrf.js';
import { answerWarnings } from '../graph/warnings.js';
import { recordedForQuery, recordedWarnings } from './recorded.js';

/**
 * `cg query`: the places an agent needs for a task, within a token budget, each with a reason and a
 * confidence. Files are ranked lexically (src/retrieve/rank.ts), boosted by execution signals and the
 * cursor file; each file contributes its best regions; calls and tests around the top regions follow.
 */
export const DEFAULT_BUDGET = 3500;
export const MIN_BUDGET = 100;
export const MAX_BUDGET = 200_000;
export const MAX_QUERY_CHARS = 20_000;
export const DEFAULT_MAX_REGIONS = 12;
/** At most this many paths follow the places (more_files). */
export const MAX_MORE_FILES = 30;
/** Hops of calls and tests to follow: 0-3 for the PRD's max_depth, 4 for Bombe's expansion_depth. */
export const MAX_DEPTH = 4;

/** A location from a stack trace, a failing test or a log line: the part of a SignalRef (src/retrieve/signals.ts) ranking uses. */
export interface SignalLocation {
  path: string;
  line: number | null;
  exists: boolean;
  depth: number;
  symbol: string | null;
  kind?: 'frame' | 'failure' | 'log' | 'hotspot' | 'coverage';
}

export interface QueryInput {
  text: string;
  budget?: number;
  /** Hops of calls and tests to follow from the top regions (0-3). */
  depth?: number;
  /** Include the regions' source lines (otherwise signatures only). */
  snippets?: boolean;
  /** The file the agent is editing: its imports and importers rank higher. */
  cursorFile?: string | null;
  signals?: SignalLocation[];
  /** Also the signals `cg signal record` kept from a run, those whose files did not change since (default true). */
  recordedSignals?: boolean;
  maxRegions?: number;
  /** How full-text, vectors and the graph are fused; default: the repository's retrieval.preset. */
  preset?: RankingPreset;
  /** For the evaluation's sweeps: the hybrid preset's vector weight. */
  vectorWeight?: number;
  /** Only files of these languages (as the index names them: python, typescript, ...). */
  languages?: string[];
  /** Symbols to start from whatever the words match (Bombe's entry_points): they rank first, and the graph is followed from them. */
  entryPoints?: string[];
  /**
   * Code (the default: a task is about code), documents (Markdown, YAML, JSON, PDF, text), or all: each
   * ranked among its own kind and the two merged by reciprocal-rank fusion.
   */
  filterType?: FilterType;
  /**
   * With both: documents in a list of their own (RankedRegions.documentRegions) for a caller that fuses
   * more lists (the federated search), instead of code and documents fused here.
   */
  documentsApart?: boolean;
  /**
   * For the ranker's training dump only: the past commits to read instead of the index's (a task's own
   * history, when one index serves tasks of many commits; src/retrieve/history.ts).
   */
  history?: History;
}

/** One entry of the answer (field names as in the PRD §6 contract). */
export interface QueryEntry {
  /** The symbol's id in the index (what symbols/references/impact take as symbol_id); null for a file's head. */
  symbol_id: number | null;
  path: string;
  line_range: [number, number];
  symbol: string | null;
  kind: string;
  signature: string | null;
  excerpt: string | null;
  score: number;
  rationale: string;
  confidence: number;
  /** What brought the place in: keyword, semantic, graph, signal (an execution signal) or named (an entry point). */
  sources: RankSource[];
  /**
   * With the learned preset asked for by name: the ranker's calibrated probability that the task edits
   * this place's file (src/retrieve/ranker.ts, fitted on training repositories); absent for places reached
   * by calls or tests, under the other presets, and by default (each place's `confidence` says it).
   */
  probability?: number;
  /** Set when the place's confidence is below the answer threshold: a weak guess, not a match. */
  weak?: true;
}

export interface QueryResponse {
  status: 'ok' | 'empty_results';
  query: string;
  files: QueryEntry[];
  tokens_used: number;
  token_budget: number;
  tokenizer: string;
  total_symbols: number;
  truncated: boolean;
  /**
   * What held more places back: 'budget' (a larger token budget gets more in) or 'places' (at most
   * maxRegions places are returned, whatever the budget); null when nothing was held back.
   */
  truncated_by: 'budget' | 'places' | null;
  total_candidates: number;
  /** Places ranked before packing (the budget and the place cap decide how many of them are returned). */
  total_places: number;
  /**
   * Further ranked files, best first, as paths only: the files ranked after those the places came
   * from, listed while the budget allows (a few tokens each, at most MAX_MORE_FILES), so an answer
   * reaches as deep into a large repository as a plain file ranking would.
   */
  more_files: string[];
  stale_references: { path: string; line: number | null }[];
  /** The ranking preset used, and what it could not use (e.g. no vectors: the model is unavailable). */
  preset: RankingPreset;
  warnings: string[];
  /**
   * How far to trust the answer (src/retrieve/confidence.ts): 'ok'; 'low' when no place clears the
   * confidence threshold (nothing matched well: every place is a weak guess, and `suggestion` says what
   * to do instead); 'none' when nothing is worth showing (status empty_results; the guesses are in
   * `weak_candidates`). Absent when confidence is not calibrated (its model is missing, or the answer
   * ranks documents: the model was fitted on code).
   */
  confidence_level?: AnswerLevel;
  /** With a low or no answer: the task's words to grep for instead. */
  grep_terms?: string[];
  /** With confidence_level 'none': the best guesses, each marked weak. */
  weak_candidates?: QueryEntry[];
  suggestion?: string;
}

/** Signal boosts: a file in a stack trace is very likely involved; inner frames more than outer ones. */
const SIGNAL_BOOST = 1.0;
const CURSOR_BOOST = 0.25;

export function validateQuery(input: QueryInput): void {
  const text = input.text.trim();
  if (!text) throw new CgError('usage', 'The query is empty', 'Describe the task in words, e.g. `cg query "fix the token expiry check"`.');
  if (input.text.length > MAX_QUERY_CHARS) {
    throw new CgError('usage', `The query is ${input.text.length} characters long; the limit is ${MAX_QUERY_CHARS}`,
      'Put the task in a few sentences; pass logs or stack traces with --signal-file instead.');
  }
  const budget = input.budget ?? DEFAULT_BUDGET;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET || budget > MAX_BUDGET) {
    throw new CgError('usage', `The token budget must be a whole number from ${MIN_BUDGET} to ${MAX_BUDGET}, not ${budget}`,
      `The default is ${DEFAULT_BUDGET}.`);
  }
  const depth = input.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) throw new CgError('usage', `The depth must be 0 to ${MAX_DEPTH}, not ${depth}`, 'The default is 1.');
}

export async function runQuery(db: Database.Database, root: string, given: QueryInput): Promise<QueryResponse> {
  validateQuery(given);
  const recorded = given.recordedSignals === false ? null : recordedForQuery(root);
  const input = recorded?.signals.length ? { ...given, signals: [...(given.signals ?? []), ...recorded.signals] } : given;
  const budget = input.budget ?? DEFAULT_BUDGET;
  const maxRegions = input.maxRegions ?? DEFAULT_MAX_REGIONS;
  const { ranked, named, regions, preset, warnings, signals, confidence: model } = await rankRegions(db, root, input);
  const stale = signals.filter((s) => !s.exists).map((s) => ({ path: s.path, line: s.line }));
  if (stale.length) {
    warnings.push(`${stale.length} execution-signal reference(s) name files or lines that are not in the repository now (see `
      + 'stale_references): they were left out of the ranking');
  }
  if (recorded) warnings.push(...recordedWarnings(recorded));
  const base: Omit<QueryResponse, 'status' | 'files' | 'tokens_used' | 'truncated' | 'truncated_by' | 'total_places' | 'more_files'> = {
    query: input.text, token_budget: budget, tokenizer: TOKENIZER,
    total_symbols: cachedForVersion(db, 'total_symbols', () => db.prepare("SELECT COUNT(*) FROM symbols WHERE kind != 'module'").pluck().get() as number),
    total_candidates: ranked.length, stale_references: stale, preset, warnings,
  };
  // With all, documents may answer when no code does: the places decide, not the code ranking.
  if (!regions.length) {
    return { ...base, status: 'empty_results', files: [], more_files: [], tokens_used: 0, truncated: false, truncated_by: null, total_places: 0,
      suggestion: 'No indexed file matches these words. Try the names of functions or files, or grep for a literal string.' };
  }
  const sources = input.snippets ? new SourceReader(db, root) : null;
  // The ranker's own probability only when its preset is asked for by name: by default each place's calibrated `confidence` says it.
  const { shown, ...packed } = await pack(sources, regions, budget, maxRegions, ranked.length > maxRegions, model?.thresholds.low, input.preset === 'learned');
  if (sources) warnings.push(...sources.notes);
  warnings.push(...answerWarnings(db, { confidences: shown.flatMap((r) => (r.relationConfidence === undefined ? [] : [r.relationConfidence])),
    files: shown.map((r) => r.path) }, loadConfig(root).warnings.lowConfidence));
  // A task that names an entry point or carries an execution signal is answered, however weak the words.
  const level = model && !named.length && !signals.some((s) => s.exists) ? answerLevel(model, Math.max(0, ...packed.files.map((e) => e.confidence))) : model ? 'ok' : undefined;
  if (level === 'none') {
    return { ...base, status: 'empty_results', files: [], more_files: [], tokens_used: 0, truncated: false, truncated_by: null, total_places: regions.length,
      confidence_level: level, ...nothingMatched(input.text, level, packed.files), weak_candidates: packed.files.slice(0, WEAK_CANDIDATES) };
  }
  const more = await moreFiles(ranked, packed.files, budget - packed.tokens_used);
  return { ...base, status: 'ok', total_places: regions.length, ...packed, more_files: more.paths, tokens_used: packed.tokens_used + more.tokens,
    ...(level ? { confidence_level: level } : {}), ...(level === 'low' ? nothingMatched(input.text, level, packed.files) : {}) };
}

/** Guesses kept with an empty answer. */
const WEAK_CANDIDATES = 5;

/** What an answer that nothing matched well says, plainly: how sure it is, and what to do instead. */
function nothingMatched(text: string, level: AnswerLevel, places: QueryEntry[]): { grep_terms: string[]; suggestion: string } {
  const terms = salientTerms(text, { stems: false }).slice(0, 5);
  const best = Math.max(0, ...places.map((e) => e.confidence));
  return {
    grep_terms: terms,
    suggestion: `Nothing in the index matched this task well (best confidence ${best.toFixed(2)}): `
      + `${level === 'none' ? 'no place is worth showing' : 'the places are weak guesses'}. `
      + (terms.length ? `Grep for these words instead: ${terms.map((t) => `'${t}'`).join(', ')}; ` : '')
      + 'or name a function, class or file you know (the task may be about code this repository does not have).',
  };
}

/** The ranked files no place came from, in order, while their paths fit in `room` tokens. */
async function moreFiles(ranked: RankedFile[], entries: QueryEntry[], room: number): Promise<{ paths: string[]; tokens: number }> {
  const count = await tokenCounter();
  const shown = new Set(entries.map((e) => e.path));
  const paths: string[] = [];
  // The field's own cost: `,"more_files":[]`.
  let tokens = count(',"more_files":[]');
  for (const r of ranked) {
    if (paths.length >= MAX_MORE_FILES) break;
    if (shown.has(r.path)) continue;
    const cost = count(JSON.stringify(r.path)) + 1;
    if (tokens + cost > room) break;
    tokens += cost;
    paths.push(r.path);
  }
  return paths.length ? { paths, tokens } : { paths, tokens: 0 };
}

export interface RankedRegions {
  ranked: RankedFile[];
  /** The entry points the input named, as places ranked first. */
  named: Region[];
  /** The places to show, best first, before any budget: entry points, the best files' regions, signalled places, and those the graph adds. */
  regions: Region[];
  /** With documentsApart: the best documents' places, best first (regions then holds code only). */
  documentRegions?: Region[];
  preset: RankingPreset;
  warnings: string[];
  /** The execution signals used: those given and those read from output pasted into the task. */
  signals: SignalLocation[];
  /** The confidence model the places' confidences come from (code only; absent when it is missing). */
  confidence?: ConfidenceModel;
}

/** The ranking of `cg query` without the packing: files, then the places in them (federated search merges these). */
export async function rankRegions(db: Database.Database, root: string, input: QueryInput): Promise<RankedRegions> {
  const maxRegions = input.maxRegions ?? DEFAULT_MAX_REGIONS;
  const filter = input.filterType ?? 'code';
  // Code and documents are ranked apart, each among its own kind; with both asked for, the two lists are
  // merged by reciprocal-rank fusion (or handed back apart, for a caller that fuses more lists).
  const candidates = await rankCandidates(db, root, input, filter === 'documents' ? 'documents' : 'code');
  const { preset, warnings, text, signals } = candidates;
  const keep = typeFilter(db, filter === 'all' ? undefined : filter);
  const ranked = (input.languages ? inLanguages(db, candidates.ranked, input.languages) : candidates.ranked).filter((f) => keep(f.fileId));
  const named = entryPointRegions(db, input.entryPoints ?? [], warnings);
  let documentRegions: Region[] | undefined;
  if (filter === 'all') {
    const docs = await rankCandidates(db, root, { ...input, signals: undefined, cursorFile: null }, 'documents');
    documentRegions = placesOf(db, input.languages ? inLanguages(db, docs.ranked, input.languages) : docs.ranked, docs.text, maxRegions);
  }
  let regions: Region[] = [];
  if (ranked.length || named.length) {
    regions = [...named, ...placesOf(db, ranked, text, maxRegions)];
    regions.push(...signalRegions(db, signals));
    const taken = new Set(regions.flatMap((r) => (r.symbol ? [r.symbol.id] : [])));
    regions.push(...expandRegions(db, [...named, ...expansionSeeds(regions.slice(named.length))], input.depth ?? 1, taken));
    // Entry points (file id -1) are the caller's own choice and stay whatever the type filter says.
    regions = dedupe(regions).filter((r) => r.fileId < 0 || keep(r.fileId)).sort((a, b) => b.score - a.score);
  }
  const model = candidates.confidence;
  if (model) {
    // A place reached through calls or tests shares its file's confidence when the ranker scored that file.
    const ofFile = new Map(ranked.flatMap((f) => (f.confidence !== undefined ? [[f.path, f.confidence] as const] : [])));
    for (const r of regions) r.confidence ??= ofFile.get(r.path) ?? Math.min(model.other, candidates.best);
  }
  if (documentRegions && !input.documentsApart) {
    regions = fuseByRank([regions, documentRegions]);
    documentRegions = undefined;
  }
  return { ranked, named, regions, documentRegions, preset, warnings, signals, ...(model ? { confidence: model } : {}) };
}

/** Lists of places merged by reciprocal-rank fusion; each place's score becomes its fused score relative to the best. */
function fuseByRank(lists: Region[][]): Region[] {
  const fused = rrfMerge(lists, (r) => `${r.path}:${r.startLine}`, (a, b) => b.score - a.score);
  const best = fused[0]?.rrf || 1;
  return fused.map(({ item, rrf }) => ({ ...item, score: rrf / best }));
}

/** The regions of the best files, scored relative to the first. */
function placesOf(db: Database.Database, ranked: RankedFile[], text: string, maxRegions: number): Region[] {
  const top = ranked[0]?.score || 1;
  return ranked.slice(0, maxRegions).flatMap((f) => regionsOf(db, f, text, f.score / top));
}

/**
 * Files ranked by the preset's fusion of full-text, vectors and the graph (re-ordered by the learned
 * ranker under the `learned` preset), then raised by execution signals (those given, and those read
 * from output pasted into the task) and the cursor file. Without vectors (model unavailable, or
 * switched off) the lexical and graph signals still answer, with a warning that says why.
 * `candidates`: the learned ranker's features of the fusion's best files (train/dump-features.mjs).
 * When only code is asked for, the ranker scores them under every preset, for the calibrated confidence
 * (src/retrieve/confidence.ts, fitted on code: documents keep the relative heuristic); it re-orders
 * them under the learned preset. `best`: the highest calibrated confidence of the ranking.
 */
export async function rankCandidates(db: Database.Database, root: string, input: QueryInput, pool: Pool = 'code'):
  Promise<{ ranked: RankedFile[]; preset: RankingPreset; warnings: string[]; text: string; candidates?: Candidate[]; signals: SignalLocation[];
    confidence?: ConfidenceModel; evidence?: QueryEvidence; best: number }> {
  const config = loadConfig(root);
  const preset = input.preset ?? config.retrieval.preset;
  const warnings: string[] = [];
  const template = taskText(db, input.text);
  if (template.dropped) warnings.push(`${plural(template.dropped, 'line')} of the query recur in this repository's commit messages (a template) and were left out of the ranking`);
  // Tracebacks and logs pasted into the task are execution signals, not words (src/retrieve/task-split.ts).
  const split = splitTask(db, root, template.text);
  const text = split.words;
  const signals = [...(input.signals ?? []), ...split.signals];
  if (split.outputLines) {
    warnings.push(`${plural(split.outputLines, 'line')} of the query ${split.outputLines === 1 ? 'is' : 'are'} execution output (a trace or log): read as `
      + `${plural(split.signals.filter((s) => s.exists).length, 'location')} in the repository and left out of the words`);
  }
  const stats: TermStats = { idf: new Map(), covered: new Map() };
  const lexical = rankFiles(db, text, DEFAULT_LEXICAL, stats, pool);
  const vectors: VectorMatches = preset === 'lexical' ? { status: 'off', files: new Map(), symbols: new Map(), byFile: new Map() }
    : vectorsInPool(db, await vectorMatches(db, config, text), pool);
  if (vectors.warning) warnings.push(vectors.warning);
  const signalled = new Map<string, number>();
  for (const s of signals) if (s.exists) signalled.set(s.path, Math.max(signalled.get(s.path) ?? 0, signalWeight(s)));
  // The learned preset re-orders the hybrid fusion's best files (src/retrieve/ranker.ts).
  let fused = fuse(db, { preset, lexical, vectors, signals: signalled, vectorWeight: input.vectorWeight });
  const calibrate = pool === 'code' && (input.filterType ?? 'code') === 'code';
  if (preset !== 'learned' && !calibrate) return { ranked: boostFiles(db, fused, input, signalled), preset, warnings, text, signals, best: 0 };
  // The ranker's probability feeds the calibrated confidence (src/retrieve/confidence.ts); only the
  // learned preset lets it re-order the files.
  const history = input.history ?? indexHistory(db);
  const candidates = candidateFeatures(db, text, { lexical, fused, vectors, stats, history });
  // An index with too little history gets the models fitted without the past commits' features.
  const withHistory = history.commits.length >= MIN_PAST_COMMITS;
  const ranker = loadRanker(rankerFile(withHistory));
  if (ranker.ok) fused = preset === 'learned' ? rerank(ranker.model, candidates, fused) : withProbabilities(ranker.model, candidates, fused);
  else if (preset === 'learned') warnings.push(ranker.warning);
  const ranked = boostFiles(db, fused, input, signalled);
  if (!calibrate) return { ranked, preset, warnings, text, candidates, signals, best: 0 };
  const evidence = queryEvidence(db, queryTerms(text), stats, vectors);
  const conf = ranker.ok ? loadConfidence(confidenceFile(withHistory)) : { ok: false as const, warning: 'The learned ranker\'s model is missing or damaged: confidences are relative to the best place, not calibrated. Reinstall cg to restore it.' };
  if (!conf.ok) {
    warnings.push(conf.warning);
    return { ranked, preset, warnings, text, candidates, signals, evidence, best: 0 };
  }
  let best = 0;
  const scored = ranked.map((r, k) => {
    if (r.probability === undefined) return r;
    const confidence = calibrated(conf.model, confidenceInputs(r.probability, k, evidence));
    best = Math.max(best, confidence);
    return { ...r, confidence };
  });
  return { ranked: scored, preset, warnings, text, candidates, signals, confidence: conf.model, evidence, best };
}

/** The vector matches of one pool's files: code and documents are ranked apart (see rankRegions). */
function vectorsInPool(db: Database.Database, v: VectorMatches, pool: Pool): VectorMatches {
  if (pool === 'all' || !v.files.size) return v;
  const keep = typeFilter(db, pool);
  const files = new Map([...v.files].filter(([id]) => keep(id)));
  const byFile = new Map([...v.byFile].filter(([id]) => files.has(id)));
  const symbols = new Map([...byFile.values()].flat().map((x) => [x.symbolId, x.score]));
  return { ...v, files, byFile, symbols };
}

/** Which files a filter_type keeps (by the file's language: document formats are documents). */
function typeFilter(db: Database.Database, filter: FilterType | undefined): (fileId: number) => boolean {
  if (!filter || filter === 'all') return () => true;
  const language = db.prepare('SELECT language FROM files WHERE id = ?').pluck();
  return (fileId) => passesFilter((language.get(fileId) as string | undefined) ?? '', filter);
}

/** Ranked files of the given languages only. */
function inLanguages(db: Database.Database, ranked: RankedFile[], languages: string[]): RankedFile[] {
  const wanted = new Set(languages.map((l) => l.toLowerCase()));
  const langOf = new Map(db.prepare('SELECT path, language FROM files').raw().all() as [string, string][]);
  return ranked.filter((f) => wanted.has(langOf.get(f.path) ?? ''));
}

/** Score of a named entry point: above every ranked place (those are scaled to at most 1, signals to 1.2). */
const ENTRY_POINT_SCORE = 1.5;

/** The symbols named as entry points, as regions ranked first; names that match nothing are warned about, not dropped silently. */
function entryPointRegions(db: Database.Database, names: string[], warnings: string[]): Region[] {
  const out: Region[] = [];
  for (const name of names) {
    const found = findSymbolsByRef(db, name).slice(0, 3);
    if (!found.length) warnings.push(`entry point "${name}" matches no indexed symbol`);
    for (const s of found) {
      out.push({ fileId: -1, path: s.file, symbol: s, startLine: s.startLine, endLine: s.endLine, rationale: `entry point ${s.qualifiedName}`,
        score: ENTRY_POINT_SCORE, sources: ['named'] });
    }
  }
  return out;
}

/** Calls and tests are followed from the best place of each of the best files, not only from the best file. */
const SEED_FILES = 3;

function expansionSeeds(regions: Region[]): Region[] {
  const seen = new Set<string>();
  const seeds: Region[] = [];
  for (const r of regions) {
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    seeds.push(r);
    if (seeds.length === SEED_FILES) break;
  }
  return seeds;
}

/** Execution signals and the cursor file raise the files they point at (or bring them in). */
function boostFiles(db: Database.Database, ranked: RankedFile[], input: QueryInput, signalled: Map<string, number>): RankedFile[] {
  const byPath = new Map(ranked.map((r) => [r.path, r]));
  const top = ranked[0]?.score ?? 1;
  const bump = (path: string, amount: number) => {
    let r = byPath.get(path);
    if (!r) {
      const f = fileByPath(db, path);
      if (!f) return;
      r = { fileId: f.id, path, score: 0, signals: emptySignals(), units: [] };
      byPath.set(path, r);
    }
    r.score += amount * top;
  };
  // A file named by many frames is not more certain than one named by the innermost frame: the best reference counts.
  for (const [path, w] of signalled) bump(path, SIGNAL_BOOST * w);
  if (input.cursorFile) for (const p of importNeighbours(db, input.cursorFile)) bump(p, CURSOR_BOOST);
  return [...byPath.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
}

/** Files the cursor file imports or is imported by: the code an edit there most likely touches. */
function importNeighbours(db: Database.Database, path: string): string[] {
  return db.prepare(`SELECT DISTINCT f2.path FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id
      JOIN files f1 ON f1.id = s.file_id JOIN files f2 ON f2.id = d.file_id
      WHERE e.kind = 'imports' AND f1.path = ? AND f2.path != ?
    UNION SELECT DISTINCT f1.path FROM edges e JOIN symbols s ON s.id = e.src_id JOIN symbols d ON d.id = e.dst_id
      JOIN files f1 ON f1.id = s.file_id JOIN files f2 ON f2.id = d.file_id
      WHERE e.kind = 'imports' AND f2.path = ? AND f1.path != ?`).pluck().all(path, path, path, path) as string[];
}

/**
 * How strongly a reference points at the code to change: inner frames and failures more than outer
 * frames and logs; a profile's hottest entries like a log line; code a run merely covered least.
 */
const KIND_WEIGHT: Record<string, number> = { frame: 1, failure: 1, log: 0.5, hotspot: 0.5, coverage: 0.25 };

function signalWeight(s: SignalLocation): number {
  return (KIND_WEIGHT[s.kind ?? 'frame'] ?? 1) / (1 + s.depth);
}

/** The symbol around each signalled line (or the one the signal names), as a region of its own. */
function signalRegions(db: Database.Database, signals: SignalLocation[]): Region[] {
  const out: Region[] = [];
  for (const s of signals) {
    if (!s.exists) continue;
    const f = fileByPath(db, s.path);
    if (!f) continue;
    const sym = s.line !== null
      ? symbolsWhere(db, "s.file_id = ? AND s.kind != 'module' AND s.start_line <= ? AND s.end_line >= ?",
        [f.id, s.line, s.line], 'ORDER BY s.end_line - s.start_line LIMIT 1')[0] ?? null
      : s.symbol ? symbolsWhere(db, "s.file_id = ? AND s.kind != 'module' AND (s.qualified_name = ? OR s.name = ?)",
        [f.id, s.symbol, s.symbol, s.symbol], 'ORDER BY s.qualified_name = ? DESC LIMIT 1')[0] ?? null : null;
    if (!sym && s.line === null) continue;
    const where = s.line !== null ? `line ${s.line}` : sym!.qualifiedName;
    const what = s.kind === 'failure' ? 'failure' : s.kind === 'log' ? 'log line' : s.kind === 'hotspot' ? `hotspot ${s.depth + 1} of the profile`
      : s.kind === 'coverage' ? 'covered by the run' : `frame ${s.depth}`;
    out.push({ fileId: f.id, path: s.path, symbol: sym, startLine: sym?.startLine ?? Math.max(1, s.line! - 10),
      endLine: sym?.endLine ?? s.line! + 10, rationale: `${where} is in the execution signal (${what})`,
      score: 1.2 * signalWeight(s), sources: ['signal'] });
  }
  return out;
}

function dedupe(regions: Region[]): Region[] {
  const best = new Map<string, Region>();
  for (const r of regions) {
    const key = `${r.path}:${r.startLine}`;
    const prev = best.get(key);
    if (!prev || prev.score < r.score) best.set(key, r);
  }
  return [...best.values()];
}

/**
 * Entries in score order until the budget is spent or maxRegions are in. An entry is never cut, and a
 * lower-ranked entry is never kept while a better one is left out: an entry whose source lines do not
 * fit comes with its signature only, and packing stops at the first entry that does not fit even so.
 * `moreFiles`: files ranked below those the regions came from.
 */
async function pack(sources: SourceReader | null, regions: Region[], budget: number, maxRegions: number, moreFiles: boolean, weakBelow?: number,
  showProbability = false):
  Promise<Pick<QueryResponse, 'files' | 'tokens_used' | 'truncated' | 'truncated_by'> & { shown: Region[] }> {
  const count = await tokenCounter();
  const floor = await tokenFloor();
  const top = regions[0]?.score || 1;
  const files: QueryEntry[] = [];
  const shown: Region[] = [];
  let used = 0;
  // A place left out for the budget means a larger budget would help, even when the place cap binds too.
  let skippedForBudget = false;
  let capped = false;
  const fits = (entry: QueryEntry, room: number): number | null => {
    const json = JSON.stringify(entry);
    if (floor(json) > room) return null;
    const tokens = count(json);
    return tokens <= room ? tokens : null;
  };
  // No entry is smaller than this one; once less than it is left, nothing else can fit.
  const smallest = count(JSON.stringify({ symbol_id: null, path: '', line_range: [0, 0], symbol: null, kind: '', signature: null, excerpt: null,
    score: 0, rationale: '', confidence: 0, sources: [] }));
  for (const r of regions) {
    if (files.length >= maxRegions) {
      capped = true;
      break;
    }
    if (budget - used < smallest) {
      skippedForBudget = true;
      break;
    }
    const excerpt = sources?.excerpt(r) ?? null;
    const entry: QueryEntry = {
      symbol_id: r.symbol?.id ?? null, path: r.path, line_range: [r.startLine, r.endLine], symbol: r.symbol?.qualifiedName ?? null, kind: r.symbol?.kind ?? 'file',
      signature: r.symbol?.signature || null, excerpt, score: round(Math.min(1, r.score / top)), rationale: r.rationale,
      confidence: round(r.confidence ?? confidenceOf(r.score / top)), sources: r.sources,
      ...(showProbability && r.probability !== undefined && { probability: round(r.probability) }),
      ...(weakBelow !== undefined && r.confidence !== undefined && r.confidence < weakBelow && { weak: true as const }),
    };
    const tokens = fits(entry, budget - used) ?? (entry.excerpt !== null ? fits((entry.excerpt = null, entry), budget - used) : null);
    if (tokens === null) {
      skippedForBudget = true;
      break;
    }
    used += tokens;
    files.push(entry);
    shown.push(r);
  }
  // Places come from the best maxRegions files only: a full answer with more files ranked is capped too.
  if (files.length >= maxRegions && moreFiles) capped = true;
  const truncatedBy = skippedForBudget ? 'budget' : capped ? 'places' : null;
  return { files, tokens_used: used, truncated: truncatedBy !== null, truncated_by: truncatedBy, shown };
}

/**
 * What a reader of a truncated answer can do about it, for the text renderings: a larger budget helps
 * only when the budget held places back; the place and file caps (`cap`) hold whatever the budget.
 */
export function truncationNote(by: 'budget' | 'places' | 'files' | null, budgetOption: string, cap: number): string {
  switch (by) {
    case 'budget': return `more did not fit: raise ${budgetOption}`;
    case 'places': return `more places ranked lower: at most ${cap} are returned`;
    case 'files': return `more files ranked lower: a bundle holds at most ${cap}`;
    default: return '';
  }
}

/** Without the confidence model: a heuristic in [0, 1], how strongly the evidence points here relative to the best candidate. */
function confidenceOf(relative: number): number {
  return Math.max(0.05, Math.min(0.95, 0.2 + 0.75 * relative));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
