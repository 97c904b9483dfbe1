/**
 * Token counts for budgets, with OpenAI's cl100k_base encoding: a real tokenizer, so a bundle of
 * "3,500 tokens" is 3,500 tokens for the models agents run on, not a character estimate.
 *
 * Counted with the encoding's ranks as one flat table (src/retrieve/bpe-table.ts, vendor/cl100k/,
 * written by scripts/copy-runtime-files.mjs), read in a few milliseconds. Where it is missing (a
 * checkout that has not been built) js-tiktoken counts: its tables take ~0.25 s to build and hold
 * ~60 MiB, from vendor/js-tiktoken/ (its count-only entry point and the cl100k ranks, not the 22 MB
 * package) or from the package, a devDependency. Either way the tables load on first use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tiktoken, TiktokenBPE } from 'js-tiktoken/lite';
import { PACKAGE_ROOT } from '../paths.js';
import { BpeTable, mergedCount } from './bpe-table.js';

export const TOKENIZER = 'cl100k_base';
let encoder: Promise<Encoding> | null = null;

interface Encoding {
  /** What counts: the shipped table of the ranks, or js-tiktoken's own maps. */
  source: 'table' | 'js-tiktoken';
  /** Tokens of a text holding special-token markers (`<|endoftext|>`: one token each). */
  withSpecials: (text: string) => number;
  /** Tokens of one piece of the pattern's split (no special-token markers in it). */
  pieceCount: (piece: string) => number;
  /** Splits text into pieces as the encoding does (its own pattern). */
  pieces: (text: string, visit: (piece: string) => void) => void;
}

const SHIPPED = path.join(PACKAGE_ROOT, 'vendor', 'js-tiktoken');
const TABLE_DIR = path.join(PACKAGE_ROOT, 'vendor', 'cl100k');

function tiktokenModules(): [Promise<{ Tiktoken: typeof Tiktoken }>, Promise<{ default: TiktokenBPE }>] {
  if (fs.existsSync(path.join(SHIPPED, 'lite.js'))) {
    return [import(pathToFileURL(path.join(SHIPPED, 'lite.js')).href), import(pathToFileURL(path.join(SHIPPED, `${TOKENIZER}.js`)).href)];
  }
  return [import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')];
}

async function load(): Promise<Encoding> {
  return tableEncoding() ?? tiktokenEncoding();
}

function piecesOf(patStr: string): Encoding['pieces'] {
  const full = new RegExp(patStr, 'gu');
  return patStr === CL100K_PATTERN ? (t, visit) => cl100kPieces(full, t, visit) : (t, visit) => eachPiece(full, t, visit);
}

/** The shipped table (vendor/cl100k/), or null where it is missing or unreadable. */
function tableEncoding(): Encoding | null {
  let meta: { encoding?: string; pat_str?: string; special_tokens?: Record<string, number> };
  try {
    meta = JSON.parse(fs.readFileSync(path.join(TABLE_DIR, 'meta.json'), 'utf8'));
  } catch {
    return null;
  }
  const table = meta.encoding === TOKENIZER && typeof meta.pat_str === 'string' ? BpeTable.load(path.join(TABLE_DIR, 'ranks.bin')) : null;
  if (!table) return null;
  const utf8 = new TextEncoder();
  const pieces = piecesOf(meta.pat_str!);
  const pieceCount = (piece: string) => table.count(utf8.encode(piece));
  const specials = Object.keys(meta.special_tokens ?? {}).map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const special = specials.length ? new RegExp(specials.join('|'), 'g') : null;
  // As the library's encode with every special token allowed: each marker is one token, the text
  // between markers is split and merged as any text is.
  const withSpecials = (text: string) => {
    let n = 0;
    let from = 0;
    const ordinary = (t: string) => pieces(t, (p) => (n += pieceCount(p)));
    if (special) {
      special.lastIndex = 0;
      for (let m = special.exec(text); m; m = special.exec(text)) {
        ordinary(text.slice(from, m.index));
        n++;
        from = m.index + m[0].length;
      }
    }
    ordinary(text.slice(from));
    return n;
  };
  return { source: 'table', withSpecials, pieceCount, pieces };
}

async function tiktokenEncoding(): Promise<Encoding> {
  const [{ Tiktoken }, ranks] = await Promise.all(tiktokenModules());
  const enc = new Tiktoken(ranks.default);
  dropDecodeTable(enc);
  return { source: 'js-tiktoken', withSpecials: (text) => enc.encode(text, 'all').length, pieceCount: pieceCounter(enc), pieces: piecesOf(ranks.default.pat_str) };
}

/**
 * cl100k's pattern, and the same pattern with ASCII classes: on ASCII text the two split alike
 * (\p{L} is A-Za-z there, \p{N} 0-9), and V8 runs the Unicode classes ~5x slower once a string holds
 * any character beyond Latin-1: one "…" in a bundle made every count of it cost ~3 ms instead of ~0.6.
 */
const CL100K_PATTERN = "('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const CL100K_ASCII = /('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/g;
const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * cl100k's pieces of `text`: ASCII stretches with the ASCII pattern, each stretch around a non-ASCII
 * character with the full one. A stretch ends where an ASCII letter meets an ASCII non-letter: every
 * split of the full pattern has a piece end there (no alternative runs a letter into a non-letter), and
 * matching from a piece end on depends only on the text after it, so the stretches split exactly as the
 * whole text does (test/retrieve.test.ts, "token counts", compares them with the tokenizer's own count).
 */
function cl100kPieces(full: RegExp, text: string, visit: (piece: string) => void): void {
  NON_ASCII.lastIndex = 0;
  if (!NON_ASCII.test(text)) {
    eachPiece(CL100K_ASCII, text, visit);
    return;
  }
  let from = 0;
  for (let at = NON_ASCII.lastIndex - 1; at >= 0;) {
    let start = at;
    while (start > from && !pieceEnd(text, start)) start--;
    let end = at + 1;
    // Past every non-ASCII character that comes before the next piece end.
    while (end < text.length && !pieceEnd(text, end)) end++;
    if (start > from) eachPiece(CL100K_ASCII, text.slice(from, start), visit);
    eachPiece(full, text.slice(start, end), visit);
    from = end;
    NON_ASCII.lastIndex = end;
    at = NON_ASCII.test(text) ? NON_ASCII.lastIndex - 1 : -1;
  }
  if (from < text.length) eachPiece(CL100K_ASCII, text.slice(from), visit);
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Whether a piece of cl100k ends before position i: an ASCII letter before it, an ASCII non-letter at it. */
function pieceEnd(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return isAsciiLetter(text.charCodeAt(i - 1)) && c < 128 && !isAsciiLetter(c);
}

/**
 * cg only counts tokens, never decodes them. js-tiktoken keeps a second table for decoding, 100k small
 * Uint8Arrays (~30 MiB of a long-running server's memory, measured), which encoding never reads; it is
 * emptied when the library has it in the shape it is known to have, and left alone otherwise.
 */
function dropDecodeTable(enc: Tiktoken): void {
  const table = (enc as unknown as { textMap?: unknown }).textMap;
  if (table instanceof Map) table.clear();
}

/**
 * Counts one piece's tokens by byte-pair merging over the encoding's own rank table. The library's
 * `encode` does the same merge but first compiles its pattern and a special-token pattern anew and
 * splits the piece again, on every call: ~11 µs a piece where this takes ~3 (measured over the 2,189
 * distinct pieces of rich's console.py), and a hub symbol's first answer counts hundreds of pieces
 * not seen before. Merging: the adjacent pair with the lowest rank joins first, leftmost on a tie, until
 * no adjacent pair is in the table; the count is the parts left (the library's rule; the "token counts"
 * test compares both on cg's own sources). The table is the library's internal `rankMap` (keys are the
 * bytes joined by commas); where it does not have that shape, the library's `encode` counts.
 */
function pieceCounter(enc: Tiktoken): (piece: string) => number {
  const ranks = (enc as unknown as { rankMap?: unknown }).rankMap;
  const slow = (piece: string) => enc.encode(piece, 'all').length;
  // "a" (97) and " t" (32,116) are tokens of cl100k and of every byte-level BPE table.
  if (!(ranks instanceof Map) || typeof ranks.get('97') !== 'number' || typeof ranks.get('32,116') !== 'number') return slow;
  const rankOf = ranks as Map<string, number>;
  const utf8 = new TextEncoder();
  return (piece) => {
    const bytes = utf8.encode(piece);
    return mergedCount(bytes.length, (start, end) => rankOf.get(bytes.subarray(start, end).join(',')) ?? -1);
  };
}

/** Where counts come from: the shipped table (a built cg) or js-tiktoken (a checkout that has not been built). */
export async function tokenCounterSource(): Promise<Encoding['source']> {
  encoder ??= load();
  return (await encoder).source;
}

/** Whether the encoding's tables are loaded (or loading). */
export function tokenCounterLoaded(): boolean {
  return encoder !== null;
}

/**
 * Forgets the encoding's tables (the 2.5 MB table, or js-tiktoken's ~60 MiB of maps where it counts) and
 * the kept piece counts so they can be collected; the next count loads them again.
 * For a long-running server that sits idle (src/mcp/idle.ts). Counters already handed out keep working.
 */
export function releaseTokenCounter(): void {
  encoder = null;
  pieceTokens.clear();
}

/**
 * Counts tokens exactly. The encoding splits text into pieces with its pattern and merges each piece
 * on its own, so a text's count is the sum of its pieces' counts, and pieces repeat (keywords,
 * indentation, common names): each piece's count is kept (up to PIECE_CACHE pieces, then the cache
 * starts over), which made packing a bundle several times faster. Text with special-token markers
 * (`<|`) is counted whole, as those are one token each.
 */
export async function tokenCounter(): Promise<(text: string) => number> {
  encoder ??= load();
  const { withSpecials, pieces, pieceCount } = await encoder;
  return (text: string) => {
    if (text.includes('<|')) return withSpecials(text);
    let n = 0;
    pieces(text, (piece) => {
      let c = pieceTokens.get(piece);
      if (c === undefined) {
        c = pieceCount(piece);
        if (pieceTokens.size >= PIECE_CACHE) pieceTokens.clear();
        pieceTokens.set(piece, c);
      }
      n += c;
    });
    return n;
  };
}

/**
 * A counter that remembers each text it counted, for one piece of work that counts the same texts again
 * (get_context packs a bundle a second time when its JSON answer is over: the same files' sources and
 * signatures). Not for a long-lived counter: it keeps every text.
 */
export function rememberingCounter(count: (text: string) => number): (text: string) => number {
  const seen = new Map<string, number>();
  return (text) => {
    let n = seen.get(text);
    if (n === undefined) {
      n = count(text);
      seen.set(text, n);
    }
    return n;
  };
}

/**
 * A counter for one piece of work that counts many texts sharing long stretches: a list answer measured
 * whole with 8, then 60, then 52 of the same entries while it is fitted to a budget. Each text is cut
 * after the first key of every JSON object (`{"name` | `":"Console.print",…`), where that key ends in a
 * letter and a quote follows: a piece end of the encoding (pieceEnd), so the text's count is the sum of
 * its stretches' counts, and a stretch (about one entry) is counted once however many texts hold it.
 * Counting a hub symbol's answer again costs a scan for `{"` and a lookup per entry instead of the
 * pattern's match per piece. Text with special-token markers (`<|`) is counted whole. It keeps every
 * stretch it counted: not for a long-lived counter.
 */
export function stretchCounter(count: (text: string) => number): (text: string) => number {
  const stretch = rememberingCounter(count);
  return (text) => {
    if (text.includes('<|')) return count(text);
    let n = 0;
    let from = 0;
    for (let open = text.indexOf('{"'); open >= 0; open = text.indexOf('{"', open + 2)) {
      const end = text.indexOf('"', open + 2);
      if (end < 0) break;
      if (end > from && pieceEnd(text, end)) {
        n += stretch(text.slice(from, end));
        from = end;
      }
    }
    return n + stretch(text.slice(from));
  };
}

const PIECE_CACHE = 50_000;
const pieceTokens = new Map<string, number>();

/**
 * A lower bound of the token count, far cheaper than counting: the encoding first splits text into
 * pieces with its pattern and every piece is at least one token. Packing uses it to pass over places
 * that cannot fit without running byte-pair merging on them. Text with special-token markers (`<|`),
 * which encode as one token each, gets no bound (0).
 */
export async function tokenFloor(): Promise<(text: string) => number> {
  encoder ??= load();
  const { pieces } = await encoder;
  return (text: string) => {
    if (text.includes('<|')) return 0;
    let n = 0;
    pieces(text, () => n++);
    return n;
  };
}

/** Calls `visit` with each piece the encoding's pattern splits `text` into. */
function eachPiece(pattern: RegExp, text: string, visit: (piece: string) => void): void {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0] === '') pattern.lastIndex++; // never loop on an empty match
    else visit(m[0]);
  }
}
