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
 * load. Here the vocabulary is a hash table over the raw word list and the weights stay in one Buffer
 * (int8 rows, float scales).
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

interface StaticTables {
  vocab: Vocabulary;
  scales: Float32Array;
  rows: Int8Array;
}

/**
 * Word -> id over the raw vocab.txt bytes: an open-addressing table of word indexes (FNV-1a hashes,
 * linear probing) instead of a Map. The Map of 318k strings held ~27 MiB of heap (~50 MiB of RSS) in a
 * long-running server; this holds the 2.7 MB file, its line starts and the slots (~8 MB in all).
 */
class Vocabulary {
  private readonly starts: Uint32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;

  constructor(private readonly text: Buffer) {
    let n = 0;
    for (let i = 0; i < text.length; i++) if (text[i] === 0x0a) n++;
    this.starts = new Uint32Array(n + 1);
    for (let i = 0, w = 1; i < text.length; i++) if (text[i] === 0x0a) this.starts[w++] = i + 1;
    let size = 1;
    while (size < n * 2) size <<= 1;
    this.mask = size - 1;
    this.slots = new Int32Array(size).fill(-1);
    for (let w = 0; w < n; w++) {
      let h = this.hashBytes(this.starts[w], this.starts[w + 1] - 1) & this.mask;
      while (this.slots[h] !== -1) h = (h + 1) & this.mask;
      this.slots[h] = w;
    }
  }

  get size(): number {
    return this.starts.length - 1;
  }

  /** The word's token id, or [UNK]'s. Words are runs of a–z, so one char is one byte. */
  id(word: string): number {
    let h = 0x811c9dc5;
    for (let k = 0; k < word.length; k++) h = Math.imul(h ^ word.charCodeAt(k), 0x01000193);
    for (let slot = (h >>> 0) & this.mask; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
      const w = this.slots[slot];
      if (this.matches(w, word)) return w + FIRST_WORD_ID;
    }
    return UNK_ID;
  }

  private hashBytes(start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let k = start; k < end; k++) h = Math.imul(h ^ this.text[k], 0x01000193);
    return h >>> 0;
  }

  private matches(w: number, word: string): boolean {
    const start = this.starts[w];
    if (this.starts[w + 1] - 1 - start !== word.length) return false;
    for (let k = 0; k < word.length; k++) if (this.text[start + k] !== word.charCodeAt(k)) return false;
    return true;
  }
}

export async function loadStaticEmbedder(spec: ModelSpec): Promise<Embedder> {
  const tables = readTables(builtinModelDir());
  return new StaticEmbedder(spec, tables);
}

function readTables(dir: string): StaticTables {
  let text: Buffer;
  let bin: Buffer;
  try {
    text = fs.readFileSync(path.join(dir, STATIC_FILES[0]));
    bin = fs.readFileSync(path.join(dir, STATIC_FILES[1]));
  } catch (err) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} could not be read: ${errorMessage(err)}`,
      'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  if (text.length && text[text.length - 1] !== 0x0a) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} is damaged: ${STATIC_FILES[0]} is truncated`,
      'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  const words = new Vocabulary(text);
  const vocab = words.size + FIRST_WORD_ID;
  if (bin.length !== vocab * (4 + DIMS)) {
    throw new CgError('model_unavailable', `The built-in embedding model at ${dir} is damaged: ${STATIC_FILES[1]} has ${bin.length} bytes, `
      + `${vocab * (4 + DIMS)} expected for ${vocab} tokens`, 'Rebuild it with `npm run build:model -- --force` in the cg installation.');
  }
  // Copied out, not viewed: a Float32Array view needs 4-byte alignment the Buffer does not promise.
  const scales = new Float32Array(vocab);
  for (let i = 0; i < vocab; i++) scales[i] = bin.readFloatLE(i * 4);
  const rows = new Int8Array(bin.buffer, bin.byteOffset + vocab * 4, vocab * DIMS);
  return { vocab: words, scales, rows };
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
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): Float32Array {
    const out = new Float32Array(DIMS);
    const tokens = staticTokens(text);
    if (!tokens.length) return out;
    const sum = new Float64Array(DIMS);
    const { vocab, scales, rows } = this.t;
    for (const word of tokens) {
      const id = vocab.id(word);
      const scale = scales[id];
      const base = id * DIMS;
      for (let k = 0; k < DIMS; k++) sum[k] += Math.fround(rows[base + k] * scale);
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

  async dispose(): Promise<void> {
    /* nothing held outside the JS heap */
  }
}
