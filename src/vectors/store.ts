/**
 * The vector index: every symbol's vector as a row (cosine, quantized), searched exactly, keyed by symbol id.
 *
 *   const s = VectorStore.create({dims, quantization?})     // empty, writable
 *   VectorStore.rebuild(pairs, {dims, quantization?})        // from (id, vector) pairs, e.g. out of SQLite
 *   VectorStore.open(file, {view?})                          // a saved generation; view = read-only
 *   s.upsert(ids, vectors)  s.remove(ids)  s.has(id)  s.countPresent(ids)  s.size  s.dims  s.quantization
 *   s.search(query, k)                                       // [{id, score}], best first; score = cosine similarity
 *   s.save(dir, generation)                                  // -> 'vectors-<generation>.usearch' (atomic)
 *   pruneVectorFiles(dir, keep)                              // delete other generations' files (deltas too)
 *
 * Why rows and not an HNSW graph (until 2026-11-28 this was a USearch HNSW index): a query compares
 * itself with every row, with USearch's exactSearch (SIMD, one thread): ~0.2 ms for Django's 11.5k
 * vectors of 100 int8s, ~1.5 ms for Go's standard library's 82k, where the graph answered in well under
 * a millisecond but missed neighbours (recall@1000 0.83 on Go against exact cosine), took one thread
 * 7.6 s to build on Go (a fifth of a full index's CPU) and ~130 bytes a vector on disk. The file keeps
 * its name; its format is `cg-vectors/3` (below).
 *
 * Consistency with SQLite, the caller's side: write the new generation's file with save(dir, N+1)
 * *before* committing the transaction that sets generation N+1 and records the returned file name in
 * meta; readers open the name meta gives. A crash between the two leaves an unreferenced file that
 * the next save of N+1 replaces. Readers of N keep their file until pruneVectorFiles removes it.
 * A missing or damaged file is recreated from the database:
 * VectorStore.rebuild(storedVectors(db, model), {dims, quantization}) (see cache.ts).
 *
 * Each index file has a manifest beside it (`<file>.json`: dims, quantization, count, bytes, crc32):
 * open() checks size and checksum first and throws CgError `index_corrupt` (exit 3).
 *
 * Reproducible: save() writes the rows in ascending id order, so the same vectors give a byte-identical
 * file whatever order they were added in.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import type { VectorQuantization } from '../config/config.js';
import { Worker } from 'node:worker_threads';
import { CgError, errorMessage } from '../errors.js';
import { BUILD_DIR } from '../paths.js';
import type { ModelSpec } from './model.js';

type USearch = typeof import('usearch');
let usearch: USearch | null = null;

/**
 * USearch, loaded at the first search: loading it (its native addon) takes ~20 ms, which `cg update`,
 * which writes vectors but never searches them, and the commands that do not search need not pay. Its
 * CommonJS entry, because search() is synchronous.
 */
function usearchLib(): USearch {
  return (usearch ??= createRequire(import.meta.url)('usearch') as USearch);
}

export interface VectorStoreOptions {
  dims: number;
  /** Default i8: a quarter of f32's memory and file size; the loss is small for cosine. */
  quantization?: VectorQuantization;
}

export interface VectorHit {
  id: number;
  /** Cosine similarity, 1 = same direction. */
  score: number;
}

interface Manifest {
  format: string;
  dims: number;
  quantization: VectorQuantization;
  metric: 'cos';
  count: number;
  bytes: number;
  crc32: number;
}

/**
 * The file: a 16-byte header (`CGVEC3\0\0`, dims and count as uint32 little-endian), the ids as
 * float64s in ascending order, then the rows in the same order: int8s (i8: the unit vector × 127,
 * rounded), float16s (f16) or float32s (f32), little-endian.
 */
const VECTOR_FORMAT = 'cg-vectors/3';
const MAGIC = Buffer.from('CGVEC3\0\0', 'latin1');
const HEADER = 16;
const QUANTIZATIONS: readonly VectorQuantization[] = ['i8', 'f16', 'f32'];
const BYTES: Record<VectorQuantization, number> = { i8: 1, f16: 2, f32: 4 };

/** The file is little-endian, and so are typed arrays on every platform Node runs cg on (x86-64, arm64); checked once. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
if (!LITTLE_ENDIAN) throw new CgError('internal', 'cg\'s vector files need a little-endian machine');

const REBUILD_WORKER = path.join(BUILD_DIR, 'vectors', 'rebuild-worker.js');
const FILE_RE = /^vectors-(\d+)\.(usearch|delta)$/;

/** The file name of a generation's vector index (its manifest is `<name>.json`). */
export function vectorFileName(generation: number): string {
  if (!Number.isInteger(generation) || generation < 0) throw new CgError('internal', `Bad generation ${generation} for a vector file`);
  return `vectors-${generation}.usearch`;
}

type Rows = Int8Array | Float32Array;

export class VectorStore {
  /**
   * The CRC-32 of the file this store was opened from or last saved to (its manifest's), null for a
   * store never on disk or changed since: meta records it with the generation, so an update knows the file it opens
   * is the one committed with the database (src/indexer/vectors.ts).
   */
  checksum: number | null = null;
  /** Row r's id; rows 0..count-1 are in use, in no particular order (save() sorts them). */
  private ids: Float64Array;
  private rows: Rows;
  private count = 0;
  /**
   * Row of each id, made when first changed: until then the rows are a file's, in ascending id order, and
   * a lookup is a binary search (an update asks about a few ids of Go's 82k; the map costs ~10-15 ms).
   */
  private rowMap: Map<number, number> | null = null;

  private constructor(private readonly opts: Required<VectorStoreOptions>, readonly readonly: boolean, capacity = 64) {
    this.ids = new Float64Array(capacity);
    this.rows = opts.quantization === 'i8' ? new Int8Array(capacity * opts.dims) : new Float32Array(capacity * opts.dims);
  }

  static create(opts: VectorStoreOptions): VectorStore {
    const store = new VectorStore(withDefaults(opts), false);
    store.rowMap = new Map();
    return store;
  }

  /** Ids need not be sorted or unique (the last vector of a repeated id wins); files come out the same either way. */
  static rebuild(pairs: Iterable<readonly [number, Float32Array]>, opts: VectorStoreOptions): VectorStore {
    const latest = new Map<number, Float32Array>();
    for (const [id, v] of pairs) latest.set(id, v);
    const store = VectorStore.create(opts);
    const ids = [...latest.keys()].sort((a, b) => a - b);
    store.upsert(ids, ids.map((id) => latest.get(id)!));
    return store;
  }

  /**
   * rebuild() and save(dir, generation) on a worker thread, for a caller with other work to do
   * meanwhile (a full build resolves its edges). The file is the one rebuild() + save() write.
   */
  static async rebuildFile(pairs: Iterable<readonly [number, Float32Array]>, opts: VectorStoreOptions, dir: string, generation: number):
    Promise<{ name: string; size: number; checksum: number }> {
    const latest = new Map<number, Float32Array>();
    for (const [id, v] of pairs) latest.set(id, v);
    const sorted = [...latest.keys()].sort((a, b) => a - b);
    const ids = Float64Array.from(sorted);
    const flat = new Float32Array(sorted.length * opts.dims);
    sorted.forEach((id, i) => {
      const v = latest.get(id)!;
      if (v.length !== opts.dims) throw new CgError('internal', `rebuildFile: vector ${i} has ${v.length} dimensions, the index ${opts.dims}`);
      flat.set(v, i * opts.dims);
    });
    return onWorker({ ids, flat, opts, dir, generation }, [ids.buffer, flat.buffer]);
  }

  /**
   * rebuildFile for texts (ids ascending, one text each) that the worker embeds first with `spec`'s
   * model: a full build's embedding then runs beside its resolution too. Also says the vectors'
   * dimensions and which texts (by position) embedded to a zero vector, which the file leaves out.
   */
  static async embedAndBuildFile(ids: number[], texts: string[], spec: ModelSpec, opts: Omit<VectorStoreOptions, 'dims'>, dir: string,
    generation: number): Promise<{ name: string; size: number; checksum: number; dims: number; zero: number[] }> {
    const idArray = Float64Array.from(ids);
    return onWorker({ ids: idArray, texts, spec, opts: { ...opts, dims: 1 }, dir, generation }, [idArray.buffer]);
  }

  /**
   * Opens a saved file after checking it against its manifest (size and checksum; `verify: false`
   * skips the checksum for a caller that checked the file itself). `view` opens it read-only (a reader
   * that only searches); otherwise it can be updated and saved as the next generation.
   */
  static open(file: string, opts: { view?: boolean; verify?: boolean } = {}): VectorStore {
    const manifest = readManifest(file);
    let data: Buffer;
    try {
      data = fs.readFileSync(file);
    } catch (err) {
      throw corrupt(file, errorMessage(err));
    }
    if (data.length !== manifest.bytes) throw corrupt(file, `it has ${data.length} bytes, its manifest says ${manifest.bytes}`);
    if (opts.verify !== false && zlib.crc32(data) !== manifest.crc32) throw corrupt(file, 'its checksum does not match its manifest');
    const { dims, quantization } = manifest;
    if (data.length < HEADER || !data.subarray(0, 8).equals(MAGIC)) throw corrupt(file, 'it is not a cg vector file');
    const fileDims = data.readUInt32LE(8);
    const count = data.readUInt32LE(12);
    if (fileDims !== dims || count !== manifest.count || data.length !== HEADER + count * (8 + dims * BYTES[quantization])) {
      throw corrupt(file, `it holds ${count} vectors of ${fileDims} dimensions in ${data.length} bytes; its manifest says ${manifest.count} of ${dims} (${quantization})`);
    }
    const store = new VectorStore(withDefaults({ dims, quantization }), opts.view === true, Math.max(count, 1));
    const body = new Uint8Array(data.buffer, data.byteOffset, data.length);
    const idBytes = body.slice(HEADER, HEADER + count * 8);
    store.ids.set(new Float64Array(idBytes.buffer, 0, count));
    const rowStart = HEADER + count * 8;
    if (quantization === 'i8') (store.rows as Int8Array).set(new Int8Array(body.buffer, body.byteOffset + rowStart, count * dims));
    else if (quantization === 'f32') (store.rows as Float32Array).set(new Float32Array(body.slice(rowStart).buffer, 0, count * dims));
    else {
      const halves = new Uint16Array(body.slice(rowStart).buffer, 0, count * dims);
      for (let i = 0; i < halves.length; i++) store.rows[i] = fromHalf(halves[i]);
    }
    for (let r = 0; r < count; r++) {
      const id = store.ids[r];
      if (!Number.isSafeInteger(id) || id < 1 || (r > 0 && id <= store.ids[r - 1])) throw corrupt(file, `its ids are not ascending positive integers (row ${r})`);
    }
    store.count = count;
    store.checksum = manifest.crc32;
    return store;
  }

  get dims(): number {
    return this.opts.dims;
  }

  get quantization(): VectorQuantization {
    return this.opts.quantization;
  }

  get size(): number {
    return this.count;
  }

  has(id: number): boolean {
    return this.rowMap ? this.rowMap.has(id) : this.sortedRow(id) >= 0;
  }

  /** How many of `ids` are stored. */
  countPresent(ids: readonly number[]): number {
    let n = 0;
    for (const id of ids) if (this.has(id)) n++;
    return n;
  }

  /**
   * Adds vectors, replacing any already stored under the same ids. A zero vector (a text with no
   * known word) is not stored: under cosine it would sit at the same distance from everything, and
   * be the perfect match of an equally empty query.
   */
  upsert(ids: readonly number[], vectors: readonly Float32Array[]): void {
    this.writable();
    if (ids.length !== vectors.length) throw new CgError('internal', `upsert: ${ids.length} ids for ${vectors.length} vectors`);
    ids.forEach((id, i) => {
      const v = vectors[i];
      checkId(id);
      if (v.length !== this.dims) throw new CgError('internal', `upsert: vector ${i} has ${v.length} dimensions, the index ${this.dims}`);
      if (isZero(v)) {
        this.removeOne(id);
        return;
      }
      let row = this.rowOf.get(id);
      if (row === undefined) {
        row = this.count++;
        this.reserve(this.count);
        this.ids[row] = id;
        this.rowOf.set(id, row);
      }
      quantize(v, this.opts.quantization, this.rows, row * this.dims);
    });
  }

  /** Removes the ids that are present; returns how many were. */
  remove(ids: readonly number[]): number {
    this.writable();
    let n = 0;
    for (const id of ids) if (this.removeOne(id)) n++;
    return n;
  }

  /** The k nearest ids by cosine similarity, best first (fewer when the index is smaller). */
  search(query: Float32Array, k: number): VectorHit[] {
    if (query.length !== this.dims) throw new CgError('internal', `search: query has ${query.length} dimensions, the index ${this.dims}`);
    if (this.count === 0 || k < 1 || isZero(query)) return [];
    const dims = this.dims;
    const q = this.opts.quantization === 'i8' ? new Int8Array(dims) : new Float32Array(dims);
    quantize(query, this.opts.quantization, q, 0);
    const { exactSearch, MetricKind } = usearchLib();
    const m = exactSearch(this.rows.subarray(0, this.count * dims), q, dims, Math.min(k, this.count), MetricKind.Cos, 1);
    const keys = m.keys as BigUint64Array;
    const distances = m.distances as Float32Array;
    const hits: VectorHit[] = [];
    for (let i = 0; i < keys.length; i++) hits.push({ id: this.ids[Number(keys[i])], score: 1 - distances[i] });
    // Equal scores in id order, so that an answer does not depend on the order rows were added in.
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /**
   * Writes `vectors-<generation>.usearch` (and its manifest) into dir atomically: temp files,
   * fsync, rename, manifest first. Returns the file name to record in the database's meta.
   */
  save(dir: string, generation: number): string {
    const name = vectorFileName(generation);
    const file = path.join(dir, name);
    try {
      const data = this.serialize();
      const manifest: Manifest = {
        format: VECTOR_FORMAT, dims: this.dims, quantization: this.quantization, metric: 'cos',
        count: this.count, bytes: data.length, crc32: zlib.crc32(data),
      };
      writeAtomically(`${file}.json`, `${JSON.stringify(manifest)}\n`);
      writeAtomically(file, data);
      this.checksum = manifest.crc32;
    } catch (err) {
      if (err instanceof CgError) throw err;
      throw new CgError('io', `Cannot write the vector index ${file}: ${errorMessage(err)}`, 'Check free disk space and permissions of .codegraph/.');
    }
    return name;
  }

  /** The file's bytes: header, ids ascending, rows in the same order (typed arrays are little-endian here: see LITTLE_ENDIAN). */
  private serialize(): Buffer {
    const { dims, quantization } = this.opts;
    const order = Array.from({ length: this.count }, (_, r) => r).sort((a, b) => this.ids[a] - this.ids[b]);
    const ids = Float64Array.from(order, (r) => this.ids[r]);
    let rows: Int8Array | Float32Array | Uint16Array;
    if (quantization === 'f16') {
      rows = new Uint16Array(this.count * dims);
      order.forEach((r, i) => {
        for (let j = 0; j < dims; j++) rows[i * dims + j] = toHalf(this.rows[r * dims + j]);
      });
    } else {
      rows = quantization === 'i8' ? new Int8Array(this.count * dims) : new Float32Array(this.count * dims);
      order.forEach((r, i) => rows.set(this.rows.subarray(r * dims, (r + 1) * dims), i * dims));
    }
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header, 0);
    header.writeUInt32LE(dims, 8);
    header.writeUInt32LE(this.count, 12);
    return Buffer.concat([header, Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength), Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength)]);
  }

  private removeOne(id: number): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    // The last row moves into the hole.
    const last = --this.count;
    this.rowOf.delete(id);
    if (row !== last) {
      const moved = this.ids[last];
      this.ids[row] = moved;
      this.rowOf.set(moved, row);
      this.rows.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
    }
    return true;
  }

  private reserve(count: number): void {
    if (count <= this.ids.length) return;
    const capacity = Math.max(count, this.ids.length * 2);
    const ids = new Float64Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
    const rows = this.rows instanceof Int8Array ? new Int8Array(capacity * this.dims) : new Float32Array(capacity * this.dims);
    rows.set(this.rows);
    this.rows = rows;
  }

  /** The row of an id while the rows are in ascending id order (no map yet), or -1. */
  private sortedRow(id: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.ids[mid];
      if (at === id) return mid;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private get rowOf(): Map<number, number> {
    if (!this.rowMap) {
      this.rowMap = new Map();
      for (let r = 0; r < this.count; r++) this.rowMap.set(this.ids[r], r);
    }
    return this.rowMap;
  }

  private writable(): void {
    this.checksum = null; // about to differ from the file it came from
    if (this.readonly) throw new CgError('internal', 'This vector index was opened as a read-only view', 'Open it without { view: true } to update it.');
  }
}

/**
 * A vector as stored: i8 scales the unit vector by 127 (cosine does not depend on length) and rounds;
 * f16 rounds each component to a half float (kept as a float32 in memory); f32 as it is.
 */
function quantize(v: Float32Array, q: VectorQuantization, out: Rows, at: number): void {
  if (q === 'f32') {
    out.set(v, at);
    return;
  }
  if (q === 'f16') {
    for (let j = 0; j < v.length; j++) out[at + j] = fromHalf(toHalf(v[j]));
    return;
  }
  let norm = 0;
  for (let j = 0; j < v.length; j++) norm += v[j] * v[j];
  const scale = 127 / Math.sqrt(norm);
  for (let j = 0; j < v.length; j++) out[at + j] = Math.max(-127, Math.min(127, Math.round(v[j] * scale)));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 half precision, rounded to nearest even. */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0];
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // infinity, NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // too large: infinity
  if (e <= 0) {
    if (e < -10) return sign; // too small: zero
    mant |= 0x800000; // subnormal: the implicit bit becomes explicit
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let m = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && (m & 1))) m++;
    return sign | m;
  }
  let m = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (m & 1))) {
    m++;
    if (m === 0x400) {
      m = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | m;
}

export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const e = (h >>> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 0x1f) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

function checkId(id: number): void {
  if (!Number.isSafeInteger(id) || id < 1) throw new CgError('internal', `Vector ids must be positive integers below 2^53, not ${id}`);
}

/**
 * Deletes vector files (bases with their manifests, and deltas: src/vectors/delta.ts) not in keep, e.g.
 * all but the current and previous generation's.
 */
export function pruneVectorFiles(dir: string, keep: readonly string[]): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const base = name.endsWith('.json') ? name.slice(0, -5) : name;
    if (!FILE_RE.test(base) || keep.includes(base)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Runs the rebuild worker on a job; the worker's answer, or an error when it fails or exits without one. */
function onWorker<T>(job: Record<string, unknown> & { generation: number }, transferList: ArrayBuffer[]): Promise<T> {
  const worker = new Worker(REBUILD_WORKER, { workerData: job, transferList });
  return new Promise((resolve, reject) => {
    let result: T | null = null;
    worker.once('message', (m: T) => (result = m));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result)
      : reject(new CgError('internal', `The vector index build (a worker thread) exited with code ${code} before writing ${vectorFileName(job.generation)}`))));
  });
}

function withDefaults(opts: VectorStoreOptions): Required<VectorStoreOptions> {
  if (!Number.isInteger(opts.dims) || opts.dims < 1) throw new CgError('internal', `Bad vector dimension ${opts.dims}`);
  return { dims: opts.dims, quantization: opts.quantization ?? 'i8' };
}

/** Whether every component is 0 (a text with no known word): such a vector is stored nowhere. */
export function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

/**
 * Whether a vector file's manifest names an older format than this cg reads (a USearch HNSW file of
 * `cg-vectors/2`): the vectors must be embedded again. False for a current, missing or unreadable one.
 */
export function isOlderVectorFormat(file: string): boolean {
  try {
    const format = (JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as { format?: unknown }).format;
    return typeof format === 'string' && format.startsWith('cg-vectors/') && format !== VECTOR_FORMAT;
  } catch {
    return false;
  }
}

function readManifest(file: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as Manifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(file)) {
      throw new CgError('index_corrupt', `The vector index ${file} is missing`, 'Run `cg index` to rebuild the index.');
    }
    throw corrupt(file, `its manifest ${file}.json is unreadable (${errorMessage(err)})`);
  }
  if (typeof m.format === 'string' && m.format.startsWith('cg-vectors/') && m.format !== VECTOR_FORMAT) {
    // cg-vectors/2 was a USearch HNSW file: the vectors cannot be read back out of it, only embedded again.
    throw new CgError('index_corrupt', `The vector index ${file} is in an older format (${m.format}; this cg reads ${VECTOR_FORMAT})`,
      'Run `cg update` (or `cg index`): it writes the vectors again; until then answers use no vectors.');
  }
  if (m.format !== VECTOR_FORMAT || !QUANTIZATIONS.includes(m.quantization) || !Number.isInteger(m.dims) || !Number.isInteger(m.bytes)) {
    throw corrupt(file, `its manifest ${file}.json is not a cg vector manifest`);
  }
  return m;
}

function corrupt(file: string, why: string): CgError {
  return new CgError('index_corrupt', `The vector index ${file} is damaged: ${why}`,
    'Run `cg index` to rebuild it (vectors are rebuilt from the embeddings stored in the database).');
}

/** Writes `file` so a reader sees the old content or the new, never part of it: a temporary file, fsync, rename. */
export function writeAtomically(file: string, data: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fsyncFile(tmp);
  fs.renameSync(tmp, file);
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
