import type { ExtractedSymbol } from '../extract/types.js';
import { tokenize } from './tokenize.js';

/**
 * The search terms of one file, computed at extraction time so that queries only read postings
 * (symbols' names, signatures and docs go to the FTS5 table symbol_fts instead, see IndexWriter):
 *   - file:  the path and the whole text (whole-file BM25, the evaluation's baseline method);
 *   - units: each function or method's (or document section's or key's) qualified name, the path and
 *            its own lines (so a long file is found by the one unit that matches, not diluted by the rest).
 */
export interface TermCounts {
  terms: [string, number][];
  tokens: number;
}

export interface FileTerms {
  file: TermCounts;
  /** Indexed by symbol position in the file's symbol list; only functions, methods, sections and keys. */
  units: { symbol: number; counts: TermCounts }[];
}

/** Functions and methods in code; sections and keys in documents (each is found by its own words). */
const UNIT_KINDS = new Set(['function', 'method', 'section', 'key']);

function counts(...lists: string[][]): TermCounts {
  const m = new Map<string, number>();
  let n = 0;
  for (const list of lists) {
    for (const t of list) m.set(t, (m.get(t) ?? 0) + 1);
    n += list.length;
  }
  return { terms: [...m], tokens: n };
}

export function pathText(path: string): string {
  return path.replace(/[/\\]/g, ' ');
}

export function fileTerms(path: string, text: string, symbols: ExtractedSymbol[]): FileTerms {
  const pathTokens = tokenize(pathText(path));
  const lines = text.split('\n').map((l) => tokenize(l));
  const file = counts(pathTokens, ...lines);
  const units: FileTerms['units'] = [];
  symbols.forEach((s, i) => {
    if (!UNIT_KINDS.has(s.kind)) return;
    units.push({ symbol: i, counts: counts(tokenize(s.qualifiedName.replace(/\./g, ' ')), pathTokens, ...lines.slice(s.startLine - 1, s.endLine)) });
  });
  return { file, units };
}
