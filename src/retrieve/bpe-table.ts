/**
 * A byte-pair encoding's ranks as one flat, read-only table: cl100k_base's 100k tokens in ~2.5 MB,
 * read in a few milliseconds. js-tiktoken builds a Map keyed by each token's bytes joined with commas
 * (and a second one for decoding) from its base64 text every time a process starts: ~0.23 s of CPU,
 * then ~0.1 s of garbage collection, and ~60 MiB held, in every `cg query` and `cg context` process and
 * every MCP server's first answer. scripts/copy-runtime-files.mjs writes this table from the same
 * ranks at build time (vendor/cl100k/); src/retrieve/tokens.ts counts with it and falls back to
 * js-tiktoken where it is missing.
 *
 * File ("CGBPE1", little-endian, sections 4-byte aligned): magic (8 bytes), u32 token count n, u32 slot
 * count s (a power of two), u32 byte length b; then u32 offsets[n + 1] into the token bytes, i32
 * ranks[n], i32 slots[s] (a token's index, or -1: open addressing on FNV-1a of the bytes, linear
 * probing), and the tokens' bytes (b).
 */
import fs from 'node:fs';

const MAGIC = 'CGBPE1\0\0';
const HEADER = 20;

export class BpeTable {
  private constructor(
    private readonly offsets: Uint32Array,
    private readonly ranks: Int32Array,
    private readonly slots: Int32Array,
    private readonly bytes: Uint8Array,
  ) {}

  get size(): number {
    return this.ranks.length;
  }

  /** The table in `data`, or null when it is not one (wrong magic or sizes). */
  static fromBuffer(data: Buffer): BpeTable | null {
    if (data.length < HEADER || data.toString('latin1', 0, 8) !== MAGIC) return null;
    const n = data.readUInt32LE(8);
    const s = data.readUInt32LE(12);
    const b = data.readUInt32LE(16);
    const at = layout(n, s);
    if ((s & (s - 1)) !== 0 || s < n || data.length !== at.bytes + b) return null;
    // One aligned copy: a Buffer read from a file may start anywhere in a shared pool.
    const buf = new ArrayBuffer(data.length);
    new Uint8Array(buf).set(data);
    return new BpeTable(new Uint32Array(buf, at.offsets, n + 1), new Int32Array(buf, at.ranks, n), new Int32Array(buf, at.slots, s),
      new Uint8Array(buf, at.bytes, b));
  }

  static load(file: string): BpeTable | null {
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch {
      return null;
    }
    return BpeTable.fromBuffer(data);
  }

  /** Serialises tokens (bytes -> rank) as the table; the same tokens in the same order give the same bytes. */
  static encode(tokens: readonly (readonly [Uint8Array, number])[]): Buffer {
    const n = tokens.length;
    let s = 1;
    while (s < n * 2) s <<= 1;
    const b = tokens.reduce((sum, [t]) => sum + t.length, 0);
    const at = layout(n, s);
    const out = Buffer.alloc(at.bytes + b);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(n, 8);
    out.writeUInt32LE(s, 12);
    out.writeUInt32LE(b, 16);
    const buf = out.buffer.slice(out.byteOffset, out.byteOffset + out.length);
    const offsets = new Uint32Array(buf, at.offsets, n + 1);
    const ranks = new Int32Array(buf, at.ranks, n);
    const slots = new Int32Array(buf, at.slots, s).fill(-1);
    const bytes = new Uint8Array(buf, at.bytes, b);
    let pos = 0;
    tokens.forEach(([t, rank], i) => {
      offsets[i] = pos;
      bytes.set(t, pos);
      pos += t.length;
      ranks[i] = rank;
      let h = hash(t, 0, t.length) & (s - 1);
      while (slots[h] !== -1) h = (h + 1) & (s - 1);
      slots[h] = i;
    });
    offsets[n] = pos;
    return Buffer.from(buf);
  }

  /** The rank of bytes[start, end), or -1 when it is no token. */
  rank(bytes: Uint8Array, start: number, end: number): number {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let h = hash(bytes, start, end) & mask; ; h = (h + 1) & mask) {
      const i = this.slots[h];
      if (i === -1) return -1;
      const from = this.offsets[i];
      if (this.offsets[i + 1] - from !== len) continue;
      let k = 0;
      while (k < len && this.bytes[from + k] === bytes[start + k]) k++;
      if (k === len) return this.ranks[i];
    }
  }

  /** Tokens of one piece the encoding's pattern split off (js-tiktoken's rule; test/retrieve.test.ts compares counts). */
  count(piece: Uint8Array): number {
    return mergedCount(piece.length, (start, end) => this.rank(piece, start, end));
  }
}

/**
 * Byte-pair merging of n bytes, counted: the whole when it is a token, else the adjacent pair of lowest
 * rank joins first, leftmost on a tie, until no adjacent pair is a token; the count is the parts left.
 * `rank(start, end)` is the rank of bytes[start, end), or -1 when they are no token.
 */
export function mergedCount(n: number, rank: (start: number, end: number) => number): number {
  if (n <= 1) return n;
  if (rank(0, n) >= 0) return 1;
  // Part i spans bytes[starts[i]] up to bytes[starts[i + 1]]; starts ends with n.
  const starts: number[] = [];
  for (let i = 0; i <= n; i++) starts.push(i);
  while (starts.length > 2) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 2 < starts.length; i++) {
      const r = rank(starts[i], starts[i + 2]);
      if (r >= 0 && r < bestRank) {
        bestRank = r;
        best = i;
      }
    }
    if (best < 0) break;
    starts.splice(best + 1, 1);
  }
  return starts.length - 1;
}

function layout(n: number, s: number): { offsets: number; ranks: number; slots: number; bytes: number } {
  const offsets = HEADER;
  const ranks = offsets + 4 * (n + 1);
  const slots = ranks + 4 * n;
  return { offsets, ranks, slots, bytes: slots + 4 * s };
}

/** FNV-1a over bytes[start, end). */
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}
