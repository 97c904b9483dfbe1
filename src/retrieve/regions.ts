import type Database from 'better-sqlite3';
import { symbolsWhere, type SymbolInfo } from '../store/queries.js';
import { enclosingFunctions, matchOnTheirOwn } from './nesting.js';
import { queryTerms, type RankedFile } from './rank.js';
import { tokenize } from './tokenize.js';

/** A piece of a file worth showing: a symbol's lines, or the top of a file without a better one. */
export interface Region {
  fileId: number;
  path: string;
  symbol: SymbolInfo | null;
  startLine: number;
  endLine: number;
  /** Why it was picked, in words: "matches 'template cache'", "called by Environment.render". */
  rationale: string;
  score: number;
  /** For a place reached through the graph (a callee, a caller, a test): the confidence of that relation. */
  relationConfidence?: number;
  /** What brought it in: words (keyword), meaning (semantic), the call graph (graph), an execution signal. */
  sources: RankSource[];
  /** The learned ranker's calibrated probability that the task edits this region's file (RankedFile.probability). */
  probability?: number;
  /** The absolute confidence that the task edits this region's file (RankedFile.confidence). */
  confidence?: number;
}

export type RankSource = 'keyword' | 'semantic' | 'graph' | 'signal' | 'named';

/**
 * A file shows up to this many of its functions, each scoring at least UNIT_SHARE of its best.
 * Measured on the dev set: 3 / 0.6 found more edited functions than 2 / 0.8 at a small cost in bundle
 * recall; 4 / 0.5 cost more recall (eval/README.md).
 */
export const UNITS_PER_FILE = 3;
export const UNIT_SHARE = 0.6;
/** Weight of a symbol's closeness in meaning (its cosine, relative to the best symbol found) against its lexical match. */
export const UNIT_VECTOR_WEIGHT = 0.6;

/** Lines of a region are capped so one huge function cannot take a whole budget. */
export const MAX_REGION_LINES = 120;

/**
 * The regions of a ranked file to show: its functions ranked by their lexical match (relative to the
 * file's best) plus their closeness in meaning to the task, more than one only if they score nearly
 * as well; else the defined symbol whose name matches the query best; else the file's head.
 */
export function regionsOf(db: Database.Database, file: RankedFile, text: string, score: number): Region[] {
  const q = queryTerms(text);
  const matched = (s: SymbolInfo) => [...new Set(tokenize(`${s.qualifiedName} ${s.signature} ${s.doc ?? ''}`))].filter((t) => q.has(t));
  const scored = foldNested(db, unitScores(file), q);
  const out: Region[] = [];
  for (const [id, u] of scored) {
    if (out.length >= UNITS_PER_FILE || u.score < scored[0][1].score * UNIT_SHARE) break;
    const s = symbolsWhere(db, 's.id = ?', [id])[0];
    if (!s) continue;
    const words = matched(s);
    // A nested function ranked below the function it lives in, which is already a place, is shown by that
    // place (its lines are inside it): said in the place's reason, its slot left to another function. On
    // the dev set 36 of 130 answers listed such a closure beside its enclosing function (68 of 1,560
    // places). A nested function ranked above its enclosing one stays a place of its own.
    const inside = out.find((r) => r.symbol && (r.symbol.kind === 'function' || r.symbol.kind === 'method')
      && r.startLine <= s.startLine && r.endLine >= s.endLine);
    if (inside) {
      const more = words.filter((w) => !matched(inside.symbol!).includes(w));
      inside.rationale += more.length ? `, and ${quoted(more)} in ${s.qualifiedName}` : `, also in ${s.qualifiedName}`;
      continue;
    }
    const why = words.length ? `matches ${quoted(words)} in ${s.qualifiedName}`
      : u.lexical ? `its body matches the task (${s.qualifiedName})`
        : `${s.qualifiedName} is close in meaning to the task (cosine ${u.cosine.toFixed(2)} of the best)`;
    out.push(region(file, s, why, out.length ? score * 0.9 : score, u.cosine > 0 && !u.lexical ? ['semantic'] : undefined));
  }
  if (out.length) return out;
  const defs = symbolsWhere(db, "s.file_id = ? AND s.kind != 'module'", [file.fileId], 'ORDER BY s.start_line')
    .map((s) => ({ s, words: matched(s) })).filter((x) => x.words.length).sort((a, b) => b.words.length - a.words.length);
  if (defs.length) return [region(file, defs[0].s, `defines ${defs[0].s.qualifiedName}, matching ${quoted(defs[0].words)}`, score)];
  return [{ fileId: file.fileId, path: file.path, symbol: null, startLine: 1, endLine: 40, rationale: 'the file matches the task as a whole', score,
    sources: fileSources(file), probability: file.probability, confidence: file.confidence }];
}

interface UnitScore {
  score: number;
  lexical: number;
  cosine: number;
}
type UnitScores = [number, UnitScore][];

/** The file's candidate symbols: lexically matching functions and symbols near in meaning, best first. */
function unitScores(file: RankedFile): UnitScores {
  const m = new Map<number, UnitScore>();
  const best = file.units[0]?.score || 1;
  for (const u of file.units) m.set(u.symbolId, { score: u.score / best, lexical: u.score / best, cosine: 0 });
  for (const n of file.near ?? []) {
    const e = m.get(n.symbolId) ?? { score: 0, lexical: 0, cosine: 0 };
    e.cosine = n.score;
    e.score += UNIT_VECTOR_WEIGHT * n.score;
    m.set(n.symbolId, e);
  }
  return [...m].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
}

/**
 * Nested functions that do not match the task on their own give their score to their enclosing
 * function (src/retrieve/nesting.ts): the enclosing function scores the best of itself and them.
 */
function foldNested(db: Database.Database, scored: UnitScores, q: Map<string, number>): UnitScores {
  const enclosing = enclosingFunctions(db, scored.map(([id]) => id));
  if (!enclosing.size) return scored;
  const own = matchOnTheirOwn(db, [...enclosing.keys()], q);
  const m = new Map<number, UnitScore>();
  for (const [id, u] of scored) {
    const into = own.has(id) ? id : enclosing.get(id) ?? id;
    const prev = m.get(into);
    m.set(into, prev ? { score: Math.max(prev.score, u.score), lexical: Math.max(prev.lexical, u.lexical), cosine: Math.max(prev.cosine, u.cosine) } : u);
  }
  return [...m].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
}

function region(file: RankedFile, s: SymbolInfo, rationale: string, score: number, sources = fileSources(file)): Region {
  return { fileId: file.fileId, path: file.path, symbol: s, startLine: s.startLine, endLine: s.endLine, rationale, score, sources,
    probability: file.probability, confidence: file.confidence };
}

/** The retrieval sources that ranked a file: its words, its closeness in meaning, the graph around the other candidates. */
export function fileSources(file: RankedFile): RankSource[] {
  const g = file.signals;
  const out: RankSource[] = [];
  if (g.file + g.defs + g.unit + g.mention > 0) out.push('keyword');
  if (g.vector > 0 || file.near?.length) out.push('semantic');
  if (g.graph > 0) out.push('graph');
  return out.length ? out : ['keyword'];
}

function quoted(words: string[]): string {
  return `'${words.slice(0, 4).join(' ')}'`;
}

export function excerptFromLines(lines: readonly string[], r: { startLine: number; endLine: number }, maxLines = MAX_REGION_LINES): string {
  const end = Math.min(r.endLine, r.startLine + maxLines - 1, lines.length);
  const body = lines.slice(r.startLine - 1, end).join('\n');
  return end < r.endLine ? `${body}\n… (${r.endLine - end} more lines)` : body;
}
