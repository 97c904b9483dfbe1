import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { symbolsWhere, type SymbolInfo } from '../store/queries.js';
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
}

/** Lines of a region are capped so one huge function cannot take a whole budget. */
export const MAX_REGION_LINES = 120;

/**
 * The regions of a ranked file to show: its best-matching functions (a second one only if it matches
 * almost as well), else the defined symbol whose name matches the query best, else the file's head.
 */
export function regionsOf(db: Database.Database, file: RankedFile, text: string, score: number): Region[] {
  const q = queryTerms(text);
  const matched = (s: SymbolInfo) => [...new Set(tokenize(`${s.qualifiedName} ${s.signature} ${s.doc ?? ''}`))].filter((t) => q.has(t));
  const out: Region[] = [];
  const best = file.units[0]?.score ?? 0;
  for (const u of file.units.slice(0, 2)) {
    if (u.score < best * 0.8) break;
    const s = symbolsWhere(db, 's.id = ?', [u.symbolId])[0];
    if (!s) continue;
    const words = matched(s);
    out.push(region(file, s, words.length ? `matches ${quoted(words)} in ${s.qualifiedName}` : `its body matches the task (${s.qualifiedName})`,
      out.length ? score * 0.9 : score));
  }
  if (out.length) return out;
  const defs = symbolsWhere(db, "s.file_id = ? AND s.kind != 'module'", [file.fileId], 'ORDER BY s.start_line')
    .map((s) => ({ s, words: matched(s) })).filter((x) => x.words.length).sort((a, b) => b.words.length - a.words.length);
  if (defs.length) return [region(file, defs[0].s, `defines ${defs[0].s.qualifiedName}, matching ${quoted(defs[0].words)}`, score)];
  return [{ fileId: file.fileId, path: file.path, symbol: null, startLine: 1, endLine: 40, rationale: 'the file matches the task as a whole', score }];
}

function region(file: RankedFile, s: SymbolInfo, rationale: string, score: number): Region {
  return { fileId: file.fileId, path: file.path, symbol: s, startLine: s.startLine, endLine: s.endLine, rationale, score };
}

function quoted(words: string[]): string {
  return `'${words.slice(0, 4).join(' ')}'`;
}

/** The region's source lines (capped), or null when the file cannot be read any more. */
export function excerptOf(root: string, r: { path: string; startLine: number; endLine: number }, maxLines = MAX_REGION_LINES): string | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, r.path), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const end = Math.min(r.endLine, r.startLine + maxLines - 1, lines.length);
  const body = lines.slice(r.startLine - 1, end).join('\n');
  return end < r.endLine ? `${body}\n… (${r.endLine - end} more lines)` : body;
}
