/**
 * Token counts for budgets, with OpenAI's cl100k_base encoding (js-tiktoken): a real tokenizer, so a
 * bundle of "3,500 tokens" is 3,500 tokens for the models agents run on, not a character estimate.
 * The encoding's tables take ~0.25 s to load, so they load on first use.
 *
 * The npm package ships js-tiktoken's count-only entry point and the cl100k ranks in vendor/js-tiktoken/
 * (scripts/copy-runtime-files.mjs), not the 22 MB package; a checkout that has not been built uses
 * the package, a devDependency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Tiktoken, TiktokenBPE } from 'js-tiktoken/lite';
import { PACKAGE_ROOT } from '../paths.js';

export const TOKENIZER = 'cl100k_base';
let encoder: Promise<{ enc: Tiktoken; pieces: RegExp }> | null = null;

const SHIPPED = path.join(PACKAGE_ROOT, 'vendor', 'js-tiktoken');

function tiktokenModules(): [Promise<{ Tiktoken: typeof Tiktoken }>, Promise<{ default: TiktokenBPE }>] {
  if (fs.existsSync(path.join(SHIPPED, 'lite.js'))) {
    return [import(pathToFileURL(path.join(SHIPPED, 'lite.js')).href), import(pathToFileURL(path.join(SHIPPED, `${TOKENIZER}.js`)).href)];
  }
  return [import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')];
}

async function load(): Promise<{ enc: Tiktoken; pieces: RegExp }> {
  const [{ Tiktoken }, ranks] = await Promise.all(tiktokenModules());
  const enc = new Tiktoken(ranks.default);
  dropDecodeTable(enc);
  return { enc, pieces: new RegExp(ranks.default.pat_str, 'gu') };
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

/** Whether the encoding's tables are loaded (or loading). */
export function tokenCounterLoaded(): boolean {
  return encoder !== null;
}

/**
 * Forgets the encoding's tables (~60 MiB) so they can be collected; the next count loads them again.
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
  const { enc, pieces } = await encoder;
  return (text: string) => {
    if (text.includes('<|')) return enc.encode(text, 'all').length;
    let n = 0;
    eachPiece(pieces, text, (piece) => {
      let c = pieceTokens.get(piece);
      if (c === undefined) {
        c = enc.encode(piece, 'all').length;
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
    eachPiece(pieces, text, () => n++);
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
