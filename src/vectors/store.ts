/**
 * The vector index: USearch HNSW, cosine, keyed by symbol id.
 *
 *   const s = VectorStore.create({dims, quantization?})     // empty, writable
 *   VectorStore.rebuild(pairs, {dims, quantization?})        // from (id, vector) pairs, e.g. out of SQLite
 *   VectorStore.open(file, {view?})                          // a saved generation; view = mmap, read-only
 *   s.upsert(ids, vectors)  s.remove(ids)  s.has(id)  s.countPresent(ids)  s.size  s.dims  s.quantization
 *   s.search(query, k)                                       // [{id, score}], best first; score = cosine similarity
 *   s.save(dir, generation)                                  // -> 'vectors-<generation>.usearch' (atomic)
 *   pruneVectorFiles(dir, keep)                              // delete other generations' files (deltas too)
 *
 * Consistency with SQLite, the caller's side: write the new generation's file with save(dir, N+1)
 * *before* committing the transaction that sets generation N+1 and records the returned file name in
 * meta; readers open the name meta gives. A crash between the two leaves an unreferenced file that
 * the next save of N+1 replaces. Readers of N keep their file until pruneVectorFiles removes it.
 * A missing or damaged file is recreated from the database:
 * VectorStore.rebuild(storedVectors(db, model), {dims, quantization}) (see cache.ts).
 *
 * Each index file has a manifest beside it (`<file>.json`: dims, quantization, count, bytes,
 * crc32), because USearch crashes the process (SIGSEGV/abort) on a truncated or foreign file instead
 * of throwing: open() checks size and checksum first and throws CgError `index_corrupt` (exit 3).
 *
 * Reproducible: the same vectors added in the same order with threads = 1 (the default) give a
 * byte-identical file; rebuild() adds in ascending id order.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Index, MetricKind, ScalarKind } from 'usearch';
import type { VectorQuantization } from '../config/config.js';
import { Worker } from 'node:worker_threads';
import { CgError, errorMessage } from '../errors.js';
import { PACKAGE_ROOT } from '../paths.js';
import type { ModelSpec } from './model.js';

export interface VectorStoreOptions {
  dims: number;
  /** Default i8: a quarter of f32's memory and file size; recall loss is small for cosine. */
  quantization?: VectorQuantization;
  /** HNSW graph degree; 16 is USearch's default and enough for code-base sizes. */
  connectivity?: number;
  /** Threads for add(); 1 keeps files reproducible (several threads insert in a racy order). */
  threads?: number;
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
  connectivity: number;
  count: number;
  bytes: number;
  crc32: number;
}

const SCALARS: Record<VectorQuantization, ScalarKind> = { i8: ScalarKind.I8, f16: ScalarKind.F16, f32: ScalarKind.F32 };
const FILE_RE = /^vectors-(\d+)\.(usearch|delta)$/;
/** The compiled worker of rebuildFile, also when this module runs from src/ under the test runner. */
const REBUILD_WORKER = path.join(PACKAGE_ROOT, 'dist', 'vectors', 'rebuild-worker.js');
/** 2: keys are mixed symbol ids (mixKey); files of format 1 held the ids themselves. */
const VECTOR_FORMAT = 'cg-vectors/2';

export function vectorFileName(generation: number): string {
  if (!Number.isInteger(generation) || generation < 0) throw new CgError('internal', `Bad generation ${generation} for a vector file`);
  return `vectors-${generation}.usearch`;
}

export class VectorStore {
  /**
   * The CRC-32 of the file this store was opened from or last saved to (its manifest's), null for a
   * store never on disk or changed since: meta records it with the generation, so an update knows the file it opens
   * is the one committed with the database (src/indexer/vectors.ts).
   */
  checksum: number | null = null;

  private constructor(private index: Index, private readonly opts: Required<VectorStoreOptions>, readonly readonly: boolean) {}

  static create(opts: VectorStoreOptions): VectorStore {
    const full = withDefaults(opts);
    return new VectorStore(newIndex(full), full, false);
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
   * meanwhile (a full build resolves its edges): inserting into the HNSW graph takes one thread (several
   * would insert in a racy order, and the file must be reproducible), 0.8 s for Django's 10k vectors
   * and 7.6 s for Go's standard library's 82k. The file is the one rebuild() + save() write.
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
   * Opens a saved file after checking it against its manifest. `view` memory-maps it read-only
   * (cheap for a reader that only searches); otherwise it is loaded and can be updated and saved
   * as the next generation.
   */
  static open(file: string, opts: { view?: boolean; verify?: boolean } = {}): VectorStore {
    const manifest = readManifest(file);
    if (opts.verify !== false) verifyFile(file, manifest);
    const full = withDefaults({ dims: manifest.dims, quantization: manifest.quantization, connectivity: manifest.connectivity });
    const index = newIndex(full);
    try {
      if (opts.view) index.view(file);
      else index.load(file);
    } catch (err) {
      throw corrupt(file, errorMessage(err));
    }
    if (index.dimensions() !== manifest.dims || index.size() !== manifest.count) {
      throw corrupt(file, `it holds ${index.size()} vectors of ${index.dimensions()} dimensions; its manifest says ${manifest.count} of ${manifest.dims}`);
    }
    const store = new VectorStore(index, full, opts.view === true);
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
    return this.index.size();
  }

  has(id: number): boolean {
    return this.index.contains(toKey(id)) as boolean;
  }

  /** How many of `ids` are stored (one batched lookup). */
  countPresent(ids: readonly number[]): number {
    if (!ids.length) return 0;
    return (this.index.contains(BigUint64Array.from(ids, toKey)) as boolean[]).filter(Boolean).length;
  }

  /**
   * Adds vectors, replacing any already stored under the same ids. A zero vector (a text with no
   * known word) is not stored: under cosine it would sit at the same distance from everything, and
   * be the perfect match of an equally empty query.
   */
  upsert(ids: readonly number[], vectors: readonly Float32Array[]): void {
    this.writable();
    if (ids.length !== vectors.length) throw new CgError('internal', `upsert: ${ids.length} ids for ${vectors.length} vectors`);
    if (!ids.length) return;
    const keys = BigUint64Array.from(ids, toKey);
    const present = this.index.contains(keys) as boolean[];
    const stale = keys.filter((_, i) => present[i]);
    if (stale.length) this.index.remove(stale);
    const keep = vectors.map((v, i) => {
      if (v.length !== this.dims) throw new CgError('internal', `upsert: vector ${i} has ${v.length} dimensions, the index ${this.dims}`);
      return !isZero(v);
    });
    const n = keep.filter(Boolean).length;
    if (!n) return;
    const flat = new Float32Array(n * this.dims);
    const addKeys = new BigUint64Array(n);
    let row = 0;
    vectors.forEach((v, i) => {
      if (!keep[i]) return;
      flat.set(v, row * this.dims);
      addKeys[row++] = keys[i];
    });
    this.index.add(addKeys, flat, this.opts.threads);
  }

  /** Removes the ids that are present; returns how many were. */
  remove(ids: readonly number[]): number {
    this.writable();
    if (!ids.length) return 0;
    const counts = this.index.remove(BigUint64Array.from(ids, toKey));
    return Array.isArray(counts) ? counts.reduce((a, b) => a + b, 0) : counts;
  }

  /** The k nearest ids by cosine similarity, best first (fewer when the index is smaller). */
  search(query: Float32Array, k: number): VectorHit[] {
    if (query.length !== this.dims) throw new CgError('internal', `search: query has ${query.length} dimensions, the index ${this.dims}`);
    if (this.size === 0 || k < 1 || isZero(query)) return [];
    const m = this.index.search(query, Math.min(k, this.size), 1);
    const hits: VectorHit[] = [];
    for (let i = 0; i < m.keys.length; i++) hits.push({ id: fromKey(m.keys[i]), score: 1 - m.distances[i] });
    return hits;
  }

  /**
   * Writes `vectors-<generation>.usearch` (and its manifest) into dir atomically: temp files,
   * fsync, rename, manifest first. Returns the file name to record in the database's meta.
   */
  save(dir: string, generation: number): string {
    const name = vectorFileName(generation);
    const file = path.join(dir, name);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      this.index.save(tmp);
      const data = fs.readFileSync(tmp);
      const manifest: Manifest = {
        format: VECTOR_FORMAT, dims: this.dims, quantization: this.quantization, metric: 'cos',
        connectivity: this.opts.connectivity, count: this.size, bytes: data.length, crc32: zlib.crc32(data),
      };
      writeAtomically(`${file}.json`, `${JSON.stringify(manifest)}\n`);
      fsyncFile(tmp);
      fs.renameSync(tmp, file);
      this.checksum = manifest.crc32;
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      if (err instanceof CgError) throw err;
      throw new CgError('io', `Cannot write the vector index ${file}: ${errorMessage(err)}`, 'Check free disk space and permissions of .codegraph/.');
    }
    return name;
  }

  private writable(): void {
    this.checksum = null; // about to differ from the file it came from
    if (this.readonly) throw new CgError('internal', 'This vector index was opened as a read-only view', 'Open it without { view: true } to update it.');
  }
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
  return { dims: opts.dims, quantization: opts.quantization ?? 'i8', connectivity: opts.connectivity ?? 16, threads: opts.threads ?? 1 };
}

function newIndex(o: Required<VectorStoreOptions>): Index {
  return new Index({ dimensions: o.dims, metric: MetricKind.Cos, quantization: SCALARS[o.quantization], connectivity: o.connectivity,
    expansion_add: 128, expansion_search: 64, multi: false });
}

/** Whether every component is 0 (a text with no known word): such a vector is stored nowhere. */
export function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

/**
 * Symbol ids are `fileId · 2^20 + n` (src/store/writer.ts), and USearch's key table handles keys that
 * share their low bits badly: with 40k such ids, loading an index took 1.3 s and `contains` 0.5 s,
 * against 13 ms and 3 ms for the same count of scattered keys (measured with usearch 2.25). So keys are
 * the ids put through a bijection that spreads every bit over all 64 (SplitMix64's finaliser), and
 * search results are mapped back.
 */
const MASK = (1n << 64n) - 1n;
const MIX1 = 0xbf58476d1ce4e5b9n;
const MIX2 = 0x94d049bb133111ebn;
const UNMIX1 = inverseOdd(MIX1);
const UNMIX2 = inverseOdd(MIX2);

/** The multiplicative inverse of an odd number modulo 2^64 (Newton's iteration doubles the correct bits). */
function inverseOdd(c: bigint): bigint {
  let x = c;
  for (let i = 0; i < 6; i++) x = (x * (2n - ((c * x) & MASK))) & MASK;
  return x;
}

export function mixKey(id: bigint): bigint {
  let z = id;
  z = ((z ^ (z >> 30n)) * MIX1) & MASK;
  z = ((z ^ (z >> 27n)) * MIX2) & MASK;
  return z ^ (z >> 31n);
}

export function unmixKey(key: bigint): bigint {
  let z = key;
  z = z ^ (z >> 31n) ^ (z >> 62n);
  z = (z * UNMIX2) & MASK;
  z = z ^ (z >> 27n) ^ (z >> 54n);
  z = (z * UNMIX1) & MASK;
  return z ^ (z >> 30n) ^ (z >> 60n);
}

function toKey(id: number): bigint {
  if (!Number.isSafeInteger(id) || id < 1) throw new CgError('internal', `Vector ids must be positive integers below 2^53, not ${id}`);
  return mixKey(BigInt(id));
}

function fromKey(key: bigint): number {
  return Number(unmixKey(key));
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
  if (m.format !== VECTOR_FORMAT || !(m.quantization in SCALARS) || !Number.isInteger(m.dims) || !Number.isInteger(m.bytes)) {
    throw corrupt(file, `its manifest ${file}.json is not a cg vector manifest`);
  }
  return m;
}

/** USearch does not validate what it loads; a damaged file must never reach it. */
function verifyFile(file: string, m: Manifest): void {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (err) {
    throw corrupt(file, errorMessage(err));
  }
  if (data.length !== m.bytes) throw corrupt(file, `it has ${data.length} bytes, its manifest says ${m.bytes}`);
  if (zlib.crc32(data) !== m.crc32) throw corrupt(file, 'its checksum does not match its manifest');
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
