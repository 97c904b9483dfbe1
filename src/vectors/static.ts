/**
 * The built-in model read directly: the same vectors the transformers.js pipeline gives for
 * `cg/glove-100d`, without loading transformers.js, its tokenizer or an ONNX session.
 *
 *   const e = await loadStaticEmbedder(spec)   // spec: BUILTIN_MODEL
 *   await e.embed(['def parse(path)'])          // Float32Array(100) per text, unit length or all zeros
 *
 * Why not the pipeline, as for hub models: the built-in model is a lookup table (one row per word,
 * mean-pooled, L2-normalised), and the generic path is costly for it. Measured on this project's
 * 2-core machine: importing transformers.js puts a process at ~78 MiB; its tokenizer for our 318k-word
 * vocabulary adds ~150 MiB and ~550 ms (tokenizer.json becomes a JS object graph), the ONNX session
 * ~60 MiB more. `cg serve` sat at 335 MiB idle, and every fresh `cg` process that embeds paid the
 * load. Here words are looked up in the raw word list and the weights are int8 rows with float scales,
 * read as far as the texts need them (StaticTables).
 *
 * The text pipeline is the one the model's tokenizer.json declares (scripts/build-static-model.mjs
 * writes both from the same words and weights): camelCase/PascalCase boundaries become spaces, NFKD,
 * combining marks removed, lower-cased, runs of a–z are the words, unknown words are [UNK] (a zero
 * row that still counts in the mean, as the pipeline's mask counts it), at most 512 tokens. Each row
 * is dequantised in float32 like the ONNX graph's Cast·Mul, summed in order, divided by the token
 * count and normalised, as transformers.js does. test/static-embedder.test.ts checks both paths agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CgError, errorMessage } from '../errors.js';
import type { Embedder } from './embedder.js';
import { BUILTIN_STATIC_FILES as STATIC_FILES, builtinModelDir, modelKey, type ModelSpec } from './model.js';

const DIMS = 100;
/** tokenizer_config.json's model_max_length: the pipeline truncates there. */
const MAX_TOKENS = 512;
/** Ids 0 and 1 are [PAD] and [UNK]; words start at 2. */
const FIRST_WORD_ID = 2;
const UNK_ID = 1;

const BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/gu;
const MARKS = /\p{M}/gu;
const WORDS = /[a-z]+/g;

/**
 * Word -> id over the raw vocab.txt bytes: an open-addressing table of word indexes (FNV-1a hashes,
 * linear probing) instead of a Map. The Map of 318k strings held ~27 MiB of heap (~50 MiB of RSS) in a
 * long-running server; this holds the 2.7 MB file, its line starts and the slots (~8 MB in all).
 */
class Vocabulary {
  private readonly starts: Uint32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(private readonly text: Buffer, n: number) {
    this.starts = new Uint32Array(n + 1);
    for (let i = 0, w = 1; i < text.length; i++) if (text[i] === 0x0a) this.starts[w++] = i + 1;
    let size = 1;
    while (size < n * 2) size <<= 1;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(-1);
    for (let w = 0; w < n; w++) {
      let h = hashBytes(text, this.starts[w], this.starts[w + 1] - 1) & this.mask;
      while (this.slots[h] !== -1) h = (h + 1) & this.mask;
      this.slots[h] = w;
    }
  }

  /** The word's token id, or [UNK]'s. Words are runs of a–z, so one char is one byte. */
  id(word: string): number {
    for (let slot = hashWord(word) & this.mask; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
      const w = this.slots[slot];
      if (sameBytes(this.text, this.starts[w], this.starts[w + 1] - 1, word)) return w + FIRST_WORD_ID;
    }
    return UNK_ID;
  }
}

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

function hashBytes(text: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ text[k], 0x01000193);
  return h >>> 0;
}

function sameBytes(text: Buffer, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (text[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** Up to this many distinct words, each is searched for in vocab.txt (StaticTables.searched) rather than found in one pass. */
const SEARCH_MAX_WORDS = 24;
const NEWLINE = Buffer.from([0x0a]);
/** Up to this many distinct words, ids are found by one pass over vocab.txt instead of a hash table of all 318k. */
const SCAN_MAX_WORDS = 2000;
/** After this many passes the process is one that keeps embedding (a server, a build): it builds the table. */
const SCANS_BEFORE_TABLE = 3;
/** Up to this many rows are read from table.bin by position; more, and the whole 33 MB file is read once. */
const PREAD_MAX_ROWS = 2000;

/**
 * The model's tables, read as far as the texts embedded need them: a process that embeds a few texts
 * and exits (a hook's one-file update, a CLI query) looks its words up in one pass over vocab.txt
 * (~10 ms) and reads their rows by position, instead of hashing all 318k words and reading the 33 MB
 * of rows (~80 ms); one that keeps embedding builds the hash table and reads the rows whole. Both find
 * the same id for a word (its first line) and read the same bytes.
 */
class StaticTables {
  private vocab: Vocabulary | null = null;
  private scans = 0;
  /** table.bin whole, once more rows than PREAD_MAX_ROWS were asked for at once. */
  private whole: { scales: Float32Array; rows: Int8Array } | null = null;
  private readonly rowCache = new Map<number, { scale: number; row: Int8Array }>();

  /**
   * `lines` is the vocabulary's line index: lines.before[i] newlines lie before byte i · LINE_CHUNK, so a
   * word's line is found by counting within its chunk only.
   */
  constructor(private readonly text: Buffer, private readonly lines: LineIndex, private readonly binFile: string) {}

  private get words(): number {
    return this.lines.total;
  }

  /** The token id of each word (UNK_ID when the model does not know it). */
  ids(words: Set<string>): Map<string, number> {
    const out = new Map<string, number>();
    if (!this.vocab && (words.size > SCAN_MAX_WORDS || this.scans >= SCANS_BEFORE_TABLE)) this.vocab = new Vocabulary(this.text, this.words);
    if (this.vocab) {
      for (const w of words) out.set(w, this.vocab.id(w));
      return out;
    }
    this.scans++;
    if (words.size <= SEARCH_MAX_WORDS) return this.searched(words);
    const wanted = new Map<number, string[]>(); // hash -> words
    for (const w of words) {
      const h = hashWord(w);
      wanted.set(h, [...(wanted.get(h) ?? []), w]);
    }
    const { text } = this;
    let start = 0;
    let h = 0x811c9dc5;
    for (let i = 0, line = 0; i < text.length && out.size < words.size; i++) {
      if (text[i] !== 0x0a) {
        h = Math.imul(h ^ text[i], 0x01000193);
        continue;
      }
      for (const w of wanted.get(h >>> 0) ?? []) if (!out.has(w) && sameBytes(text, start, i, w)) out.set(w, line + FIRST_WORD_ID);
      line++;
      start = i + 1;
      h = 0x811c9dc5;
    }
    for (const w of words) if (!out.has(w)) out.set(w, UNK_ID);
    return out;
  }

  /**
   * ids() for a few words: each is looked for as a whole line with Buffer.indexOf (native, ~1 ms over
   * vocab.txt), and its line found from the line index (linesBefore()).
   * The pass over every byte stopped only when every word was found, so one word the model does not
   * know (`x`, `cg`) read all 2.6 MB a byte at a time: ~150 ms in a `cg update`, whose JavaScript runs
   * unoptimized (src/compilers.ts). Same ids: the first line holding the word.
   */
  private searched(words: Set<string>): Map<string, number> {
    const { text } = this;
    const found: [number, string][] = [];
    for (const w of words) {
      const bytes = Buffer.from(w, 'latin1');
      let at = -1;
      if (text.length > bytes.length && text[bytes.length] === 0x0a && text.compare(bytes, 0, bytes.length, 0, bytes.length) === 0) at = 0;
      else {
        const i = text.indexOf(Buffer.concat([NEWLINE, bytes, NEWLINE]));
        if (i >= 0) at = i + 1;
      }
      if (at >= 0) found.push([at, w]);
    }
    found.sort((a, b) => a[0] - b[0]);
    const out = new Map<string, number>();
    for (const [at, w] of found) out.set(w, linesBefore(text, this.lines, at) + FIRST_WORD_ID);
    for (const w of words) if (!out.has(w)) out.set(w, UNK_ID);
    return out;
  }

  /** The rows of these ids, each as its float scale and int8 weights. */
  rows(ids: Set<number>): Map<number, { scale: number; row: Int8Array }> {
    const out = new Map<number, { scale: number; row: Int8Array }>();
    const missing = [...ids].filter((id) => !this.rowCache.has(id));
    if (!this.whole && missing.length > PREAD_MAX_ROWS) this.whole = readWhole(this.binFile, this.words + FIRST_WORD_ID);
    const vocab = this.words + FIRST_WORD_ID;
    if (this.whole) {
      const { scales, rows } = this.whole;
      for (const id of ids) out.set(id, { scale: scales[id], row: rows.subarray(id * DIMS, (id + 1) * DIMS) });
      return out;
    }
    if (missing.length) {
      const fd = fs.openSync(this.binFile, 'r');
      try {
        const scale = Buffer.alloc(4);
        for (const id of missing) {
          fs.readSync(fd, scale, 0, 4, id * 4);
          const row = new Int8Array(DIMS);
          fs.readSync(fd, row, 0, DIMS, vocab * 4 + id * DIMS);
          this.rowCache.set(id, { scale: scale.readFloatLE(0), row });
        }
      } finally {
        fs.closeSync(fd);
      }
    }
    for (const id of ids) out.set(id, this.rowCache.get(id)!);
    return out;
  }
}

export async function loadStaticEmbedder(spec: ModelSpec): Promise<Embedder> {
  return new StaticEmbedder(spec, openTables(builtinModelDir()));
}

/** vocab.txt read and both files checked against each other; the rows are read when texts need them. */
function openTables(dir: string): StaticTables {
  const binFile = path.join(dir, STATIC_FILES[1]);
  let text: Buffer;
  let binBytes: number;
  try {
    text = fs.readFileSync(path.join(dir, STATIC_FILES[0]));
    binBytes = fs.statSync(binFile).size;
  } catch (err) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} could not be read: ${errorMessage(err)}`,
      'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  if (text.length && text[text.length - 1] !== 0x0a) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} is damaged: ${STATIC_FILES[0]} is truncated`,
      'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  const lines = recordedLineIndex(dir, text.length) ?? lineIndex(text);
  const words = lines.total;
  const vocab = words + FIRST_WORD_ID;
  if (binBytes !== vocab * (4 + DIMS)) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} is damaged: ${STATIC_FILES[1]} has ${binBytes} bytes, `
      + `${vocab * (4 + DIMS)} expected for ${vocab} tokens`, 'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  return new StaticTables(text, lines, binFile);
}

/**
 * The newlines in text[start, end): the stretch as a Latin-1 string and one global match, native code
 * throughout, ~12 ms over all of vocab.txt where hopping with Buffer.indexOf from newline to newline took
 * ~42 ms and a byte loop ~54 (a one-shot process runs this unoptimized: src/compilers.ts).
 */
function newlines(text: Buffer, start: number, end: number): number {
  return end > start ? (text.toString('latin1', start, end).match(/\n/g)?.length ?? 0) : 0;
}

const LINE_CHUNK = 1 << 16;

export interface LineIndex {
  /** Newlines before each LINE_CHUNK boundary. */
  before: Uint32Array;
  total: number;
}

/** The newlines before every LINE_CHUNK-th byte, counted in one pass (newlines() per chunk). */
export function lineIndex(text: Buffer): LineIndex {
  const before = new Uint32Array(Math.ceil(text.length / LINE_CHUNK) + 1);
  for (let i = 1; i < before.length; i++) {
    before[i] = before[i - 1] + newlines(text, (i - 1) * LINE_CHUNK, Math.min(i * LINE_CHUNK, text.length));
  }
  return { before, total: before[before.length - 1] };
}

/**
 * The line index scripts/build-static-model.mjs recorded in cg-model.json (`vocab_lines`), when it is
 * one for a vocab.txt of this many bytes; null otherwise (a model built before it recorded one), and the
 * index is counted. Counting it was ~12-17 ms of every process that embeds (a hook's one-file update,
 * a CLI query), a twentieth of its time. It is outside the record's `files`, so the model's digest,
 * and with it every index's cached vectors, did not change when it was added.
 */
export function recordedLineIndex(dir: string, bytes: number): LineIndex | null {
  try {
    const rec = (JSON.parse(fs.readFileSync(path.join(dir, 'cg-model.json'), 'utf8')) as { vocab_lines?: unknown }).vocab_lines as
      { chunk?: unknown; bytes?: unknown; before?: unknown } | undefined;
    const before = rec?.before;
    if (!rec || rec.chunk !== LINE_CHUNK || rec.bytes !== bytes || !Array.isArray(before)
      || before.length !== Math.ceil(bytes / LINE_CHUNK) + 1 || before[0] !== 0) return null;
    for (let i = 1; i < before.length; i++) {
      const n = before[i] as unknown;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < (before[i - 1] as number) || n - (before[i - 1] as number) > LINE_CHUNK) return null;
    }
    const index = Uint32Array.from(before as number[]);
    return { before: index, total: index[index.length - 1] };
  } catch {
    return null;
  }
}

/** The newlines in text[0, at): the chunk's count, then a count within the chunk (at most 64 KiB). */
function linesBefore(text: Buffer, lines: LineIndex, at: number): number {
  const chunk = Math.floor(at / LINE_CHUNK);
  return lines.before[chunk] + newlines(text, chunk * LINE_CHUNK, at);
}

function readWhole(binFile: string, vocab: number): { scales: Float32Array; rows: Int8Array } {
  const bin = fs.readFileSync(binFile);
  // Copied out, not viewed: a Float32Array view needs 4-byte alignment the Buffer does not promise.
  const scales = new Float32Array(vocab);
  for (let i = 0; i < vocab; i++) scales[i] = bin.readFloatLE(i * 4);
  return { scales, rows: new Int8Array(bin.buffer, bin.byteOffset + vocab * 4, vocab * DIMS) };
}

/** The model's tokens for a text, as its tokenizer.json defines them (truncated like the pipeline). */
export function staticTokens(text: string): string[] {
  const normal = text.replace(BOUNDARY, ' ').normalize('NFKD').replace(MARKS, '').toLowerCase();
  const words = normal.match(WORDS) ?? [];
  return words.length > MAX_TOKENS ? words.slice(0, MAX_TOKENS) : words;
}

class StaticEmbedder implements Embedder {
  readonly key: string;
  readonly dims = DIMS;

  constructor(readonly spec: ModelSpec, private readonly t: StaticTables) {
    this.key = modelKey(spec);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const tokens = texts.map(staticTokens);
    const ids = this.t.ids(new Set(tokens.flat()));
    const rows = this.t.rows(new Set(ids.values()));
    return tokens.map((t) => embedTokens(t, ids, rows));
  }

  async dispose(): Promise<void> {
    /* nothing held outside the JS heap */
  }
}

/** Mean of the rows, L2-normalised, computed as the pipeline does (see the top of this file). */
function embedTokens(tokens: string[], ids: Map<string, number>, rows: Map<number, { scale: number; row: Int8Array }>): Float32Array {
  const out = new Float32Array(DIMS);
  if (!tokens.length) return out;
  const sum = new Float64Array(DIMS);
  for (const word of tokens) {
    const { scale, row } = rows.get(ids.get(word)!)!;
    for (let k = 0; k < DIMS; k++) sum[k] += Math.fround(row[k] * scale);
  }
  let norm = 0;
  for (let k = 0; k < DIMS; k++) {
    out[k] = sum[k] / tokens.length;
    norm += out[k] * out[k];
  }
  // float32, as the pipeline's norm tensor holds it.
  norm = Math.fround(Math.sqrt(norm));
  // Only unknown words: no direction. The pipeline's 0/0 gives NaN there, which the embedder maps to zeros too.
  if (norm === 0) return out;
  for (let k = 0; k < DIMS; k++) out[k] /= norm;
  return out;
}
