import type { ExtractedSymbol } from '../extract/types.js';
import { tokenize, tokenizeLines } from './tokenize.js';

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

export function pathText(path: string): string {
  return path.replace(/[/\\]/g, ' ');
}

/**
 * What counts() of the path's terms and a file's lines gives, for the whole file and for each unit's
 * lines: the text is tokenized once (tokenizeLines) and its terms numbered once per file, so each
 * unit counts numbers in a reused table instead of hashing its strings again. Terms come in the
 * order counts() gives them (first occurrence: the unit's name, the path, then its lines).
 */
export function fileTerms(path: string, text: string, symbols: ExtractedSymbol[]): FileTerms {
  const pathTokens = tokenize(pathText(path));
  const { terms, lineStarts } = tokenizeLines(text);
  const lineCount = lineStarts.length - 1;
  const number = new Map<string, number>();
  const names: string[] = [];
  const numbered = (list: string[]): Int32Array => {
    const out = new Int32Array(list.length);
    for (let i = 0; i < list.length; i++) {
      let n = number.get(list[i]);
      if (n === undefined) {
        n = names.length;
        number.set(list[i], n);
        names.push(list[i]);
      }
      out[i] = n;
    }
    return out;
  };
  const pathIds = numbered(pathTokens);
  const termIds = numbered(terms);
  let table = new Int32Array(names.length + 64);
  const order: number[] = [];
  /** Counts of the given stretches of numbered terms, in first-occurrence order. */
  const count = (stretches: [Int32Array, number, number][]): TermCounts => {
    let n = 0;
    for (const [ids, from, to] of stretches) {
      for (let i = from; i < to; i++) {
        const t = ids[i];
        if (table[t]++ === 0) order.push(t);
      }
      n += to - from;
    }
    const out: [string, number][] = new Array(order.length);
    for (let i = 0; i < order.length; i++) {
      out[i] = [names[order[i]], table[order[i]]];
      table[order[i]] = 0;
    }
    order.length = 0;
    return { terms: out, tokens: n };
  };
  const file = count([[pathIds, 0, pathIds.length], [termIds, 0, termIds.length]]);
  const units: FileTerms['units'] = [];
  symbols.forEach((s, i) => {
    if (!UNIT_KINDS.has(s.kind)) return;
    const nameIds = numbered(tokenize(s.qualifiedName.replace(/\./g, ' ')));
    if (names.length > table.length) {
      table = new Int32Array(names.length * 2);
    }
    const [first, last] = sliceBounds(s.startLine - 1, s.endLine, lineCount);
    units.push({ symbol: i, counts: count([[nameIds, 0, nameIds.length], [pathIds, 0, pathIds.length],
      [termIds, lineStarts[first], lineStarts[last]]]) });
  });
  return { file, units };
}

/** The indexes Array.prototype.slice(start, end) takes from an array of `length` items. */
function sliceBounds(start: number, end: number, length: number): [number, number] {
  const from = start < 0 ? Math.max(length + start, 0) : Math.min(start, length);
  const to = end < 0 ? Math.max(length + end, 0) : Math.min(end, length);
  return [from, Math.max(from, to)];
}
