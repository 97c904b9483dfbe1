import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Config } from '../config/config.js';
import { CgError, errorMessage } from '../errors.js';
import { readMeta, type Meta } from '../store/db.js';
import { cachesVectors, deleteSymbolEmbeddings, embedSymbols, pruneEmbeddingCache, saveEmbeddings, storedVectors, type EmbedItem } from '../vectors/cache.js';
import { sharedEmbedder } from '../vectors/embedder.js';
import { BUILTIN_MODEL, modelKey, modelSpecFromConfig, modelStatus, unavailableError, type ModelSpec } from '../vectors/model.js';
import { applyToDelta, deltaChanges, deltaLimit, emptyDelta, LayeredVectors, readDelta, writeDelta } from '../vectors/delta.js';
import { isOlderVectorFormat, pruneVectorFiles, VectorStore } from '../vectors/store.js';
import { embedText, textHash } from '../vectors/text.js';
import { FULL_TEXT_KINDS_SQL, hasFullText, symbolIdBase } from '../store/writer.js';

/**
 * The indexer's side of the vectors: which symbols to embed, and the vector files of each generation.
 * A generation's vectors are a base file (`vectors-<B>.usearch`, B ≤ N, shared by the generations
 * built on it) and, after updates, a delta (`vectors-<N>.delta`: src/vectors/delta.ts). Both are
 * written before the transaction that makes N current commits, and meta names them, so a reader of
 * generation N opens the vectors of generation N (promise 1).
 * Without a usable model the index is still built, without vectors; queries then rank lexically and
 * by the graph, and say so.
 */
export interface VectorSync {
  status: 'ok' | 'unavailable' | 'off';
  model: string | null;
  /** Symbols whose text was embedded now, taken from the cache, or unchanged since the last generation. */
  embedded: number;
  fromCache: number;
  unchanged: number;
  /** Vectors in the generation's file. */
  count: number;
  /** Re-embedded every symbol (new build, another model, or a missing vector file) rather than only changed ones. */
  full: boolean;
  /** Why the previous generation's vector file was not updated in place but rebuilt from the database. */
  rebuiltBecause?: string;
  /**
   * How an update stored its vectors: in a delta beside the previous base, or folded into a new base
   * file (the delta had outgrown deltaLimit). Absent for a rebuild.
   */
  written?: 'delta' | 'base';
  /** Changes (hidden and added vectors) the generation's delta holds; 0 without one. */
  deltaChanges?: number;
  /**
   * How the previous generation's vector file, read from disk, was found to match the database: by the
   * checksum and count committed with it, or by comparing it with every stored vector (openPrevious).
   */
  fileCheck?: 'checksum' | 'compared';
  error?: { code: string; message: string; hint?: string };
  durationMs: number;
}

export interface VectorSyncResult {
  summary: VectorSync;
  /** Meta keys to write in the same transaction as the generation. */
  meta: Record<string, string | number>;
}

const NO_DELTA = { vectors_delta: '', vectors_delta_crc32: '' };
const NO_VECTORS = { vectors_file: '', vectors_count: 0, vectors_crc32: '', ...NO_DELTA };

/**
 * Embeds the symbols of `fileIds` (every symbol when null) whose embedded text changed, and writes the
 * vector file of `generation` into `dir`. Call it inside the writer's open transaction: it writes the
 * embedding cache and reads the symbol rows of that transaction. A model change re-embeds everything.
 */
export async function syncVectors(db: Database.Database, dir: string, config: Config, generation: number, previous: Meta,
  fileIds: number[] | null): Promise<VectorSyncResult> {
  return (await prepareVectors(db, dir, config, generation, previous, fileIds)).finish();
}

export interface PendingVectors {
  /** Writes (or waits for) the generation's vector file; the result's meta goes in the generation's transaction. */
  finish(): Promise<VectorSyncResult>;
}

/**
 * syncVectors in two halves: this one embeds and writes the embedding cache (inside the caller's
 * transaction, which may commit once it returns), and finish() writes the vector file. With
 * `background`, a full rebuild's file is built on a worker thread from the moment this returns, so a
 * full build resolves its edges meanwhile; finish() waits for it.
 */
export async function prepareVectors(db: Database.Database, dir: string, config: Config, generation: number, previous: Meta,
  fileIds: number[] | null, opts: { background?: boolean; items?: BuildEmbedItems } = {}): Promise<PendingVectors> {
  const started = performance.now();
  const base = { embedded: 0, fromCache: 0, unchanged: 0, count: 0, full: fileIds === null };
  const done = (summary: Omit<VectorSync, 'durationMs'>, meta: Record<string, string | number>): VectorSyncResult =>
    ({ summary: { ...summary, durationMs: Math.round(performance.now() - started) }, meta });
  const now = (result: VectorSyncResult): PendingVectors => ({ finish: async () => result });
  if (!config.embeddings.enabled) {
    return now(done({ ...base, status: 'off', model: null }, { ...NO_VECTORS, vectors_status: 'off', vectors_model: '', vectors_error: '' }));
  }
  const spec = modelSpecFromConfig(config.embeddings);
  const unavailable = (err: CgError) => now(done({ ...base, status: 'unavailable', model: spec.id, error: err.toJSON() as VectorSync['error'] },
    { ...NO_VECTORS, vectors_status: 'unavailable', vectors_model: spec.id, vectors_error: `${err.message}. ${err.hint ?? ''}`.trim() }));
  const status = modelStatus(spec);
  if (!status.available) return unavailable(unavailableError(spec, status.missing));
  const key = modelKey(spec);
  const opened = fileIds !== null && previous.vectors_status === 'ok' && previous.vectors_model === key
    ? openPrevious(db, dir, previous, key) : { layers: null, reason: null, check: null };
  const layers = opened.layers;
  const full = layers === null;

  try {
    const onWorker = full && opts.background && !cachesVectors(key);
    const collected = onWorker ? opts.items?.done() : undefined;
    const items = collected?.items ?? embedItems(db, full ? null : fileIds);
    if (onWorker && items.length) return embedOnWorker(db, key, spec, items, dir, generation, config, done, collected?.hashes);
    const u = await embedSymbols(db, items, {
      model: key,
      embed: async (texts) => (await sharedEmbedder(spec)).embed(texts),
    });
    const gone = db.prepare('SELECT symbol_id FROM symbol_embeddings WHERE symbol_id NOT IN (SELECT id FROM symbols)').pluck().all() as number[];
    deleteSymbolEmbeddings(db, gone);
    saveEmbeddings(db, u);
    const dims = u.computed.values().next().value?.length ?? storedDims(db, key) ?? layers?.dims
      ?? (u.hashes.size && !cachesVectors(key) ? (await sharedEmbedder(spec)).dims : null);
    const finished = (file: string, count: number, checksum: number | null,
      delta: { name: string; checksum: number; changes: number } | null = null): VectorSyncResult => {
      const summary = { status: 'ok' as const, model: key, embedded: u.stats.embedded, fromCache: u.stats.fromCache,
        unchanged: u.stats.unchanged, count, full, ...(opened.reason ? { rebuiltBecause: opened.reason } : {}),
        ...(opened.check ? { fileCheck: opened.check } : {}),
        ...(layers ? { written: delta ? 'delta' as const : 'base' as const, deltaChanges: delta?.changes ?? 0 } : {}) };
      return done(summary, { vectors_status: 'ok', vectors_file: file, vectors_model: key, vectors_dims: dims ?? 0,
        vectors_quantization: config.embeddings.quantization, vectors_count: count, vectors_error: '',
        vectors_crc32: checksum ?? '', vectors_delta: delta?.name ?? '', vectors_delta_crc32: delta?.checksum ?? '' });
    };
    if (layers) {
      const { base, delta } = layers;
      applyToDelta(delta, (id) => base.has(id), gone, u.changed);
      if (deltaChanges(delta) <= deltaLimit(layers.size)) {
        const written = writeDelta(dir, generation, delta);
        return now(finished(previous.vectors_file!, layers.size, base.checksum, { ...written, changes: deltaChanges(delta) }));
      }
      // The delta has outgrown its limit: fold it into a new base, which the next updates build on.
      const store = VectorStore.open(path.join(dir, previous.vectors_file!));
      store.remove([...delta.hidden]);
      store.upsert([...delta.added.keys()], [...delta.added.values()]);
      const file = store.save(dir, generation);
      keepBase(path.join(dir, file), store);
      return now(finished(file, store.size, store.checksum));
    }
    const storeOpts = { dims: dims ?? 0, quantization: config.embeddings.quantization };
    if (dims !== null && opts.background) {
      // Every stored vector was just embedded or taken from the cache (none was unchanged, none is left
      // over): the rebuild takes them from memory instead of reading back what saveEmbeddings wrote.
      const inMemory = u.stats.unchanged === 0 && !gone.length
        && db.prepare('SELECT COUNT(*) FROM symbol_embeddings').pluck().get() === u.hashes.size;
      const job = VectorStore.rebuildFile(inMemory ? u.changed : await indexVectors(db, key), storeOpts, dir, generation);
      pruneEmbeddingCache(db, key);
      job.catch(() => {}); // awaited by finish(); a failure is its error, not an unhandled rejection meanwhile
      return { finish: async () => {
        const r = await job;
        return finished(r.name, r.size, r.checksum);
      } };
    }
    const store = dims === null ? null : VectorStore.rebuild(await indexVectors(db, key), storeOpts);
    pruneEmbeddingCache(db, key);
    const file = store ? store.save(dir, generation) : '';
    if (store) keepBase(path.join(dir, file), store);
    return now(finished(file, store?.size ?? 0, store?.checksum ?? null));
  } catch (err) {
    if (err instanceof CgError && err.code === 'model_unavailable') return unavailable(err);
    throw err;
  }
}

/** After the generation is committed: vector files other than its own and the previous generation's (still open in readers) go. */
export function pruneVectors(dir: string, current: Record<string, string | number>, previous: Meta): void {
  pruneVectorFiles(dir, [current.vectors_file, current.vectors_delta, previous.vectors_file, previous.vectors_delta]
    .map((f) => String(f ?? '')).filter(Boolean));
}

/**
 * The index's vectors no longer match the configuration (another model, or embeddings switched on or
 * off), or their file is in a format this cg no longer reads (`dir`: the build's folder).
 */
export function vectorsOutOfDate(meta: Meta, config: Config, dir?: string): boolean {
  if (!config.embeddings.enabled) return meta.vectors_status !== 'off';
  const spec = modelSpecFromConfig(config.embeddings);
  if (meta.vectors_status === 'ok' && dir && meta.vectors_file && isOlderVectorFormat(path.join(dir, meta.vectors_file))) return true;
  if (meta.vectors_status === 'ok') return !modelStatus(spec).available || meta.vectors_model !== modelKey(spec);
  return modelStatus(spec).available; // unavailable before, and now it is here
}

/**
 * A full build's vectors with a model whose vectors are not kept (the built-in one): this thread writes
 * each symbol's text hash; a worker thread embeds the texts and builds the vector file, beside the
 * build's postings and resolution. finish() then records the texts whose vector is zero, as
 * saveEmbeddings does.
 */
function embedOnWorker(db: Database.Database, key: string, spec: ModelSpec, items: EmbedItem[], dir: string, generation: number,
  config: Config, done: (summary: Omit<VectorSync, 'durationMs'>, meta: Record<string, string | number>) => VectorSyncResult,
  precomputed?: string[]): PendingVectors {
  const hashes = precomputed ?? items.map((i) => textHash(i.text));
  const link = db.prepare('INSERT OR REPLACE INTO symbol_embeddings(symbol_id, text_hash) VALUES (?, ?)');
  items.forEach((item, k) => link.run(item.id, hashes[k]));
  pruneEmbeddingCache(db, key);
  const quantization = config.embeddings.quantization;
  const job = VectorStore.embedAndBuildFile(items.map((i) => i.id), items.map((i) => i.text), spec, { quantization }, dir, generation);
  job.catch(() => {}); // awaited by finish(); a failure is its error, not an unhandled rejection meanwhile
  return { finish: async () => {
    const r = await job;
    const zero = db.prepare('INSERT OR REPLACE INTO embeddings(model, text_hash, dims, vector) VALUES (?, ?, ?, zeroblob(?))');
    // One transaction: a statement each was ~70 µs (Go's standard library has 4k such texts: 0.28 s).
    db.transaction(() => {
      for (const hash of [...new Set(r.zero.map((k) => hashes[k]))].sort()) zero.run(key, hash, r.dims, r.dims * 4);
    })();
    return done({ status: 'ok', model: key, embedded: items.length, fromCache: 0, unchanged: 0, count: r.size, full: true },
      { vectors_status: 'ok', vectors_file: r.name, vectors_model: key, vectors_dims: r.dims, vectors_quantization: quantization,
        vectors_count: r.size, vectors_error: '', vectors_crc32: r.checksum, ...NO_DELTA });
  } };
}

/**
 * Every vector of the index, by symbol id: read from the embeddings table, or, for a model whose
 * vectors are not kept (the built-in one, cachesVectors), the symbols' texts embedded again (Go's
 * standard library's 82k texts: ~1 s). `key` must be the installed model's.
 */
export async function indexVectors(db: Database.Database, key: string): Promise<Iterable<[number, Float32Array]>> {
  if (cachesVectors(key)) return storedVectors(db, key);
  const spec = builtinSpecOf(key);
  const items = embedItems(db, null);
  const vectors = items.length ? await (await sharedEmbedder(spec)).embed(items.map((i) => i.text)) : [];
  return items.map((i, k) => [i.id, vectors[k]] as [number, Float32Array]);
}

/** The built-in model's spec that has this key; an error when the installed model is another (its vectors would differ). */
function builtinSpecOf(key: string): ModelSpec {
  const [, , pooling, norm] = key.split(':');
  const spec: ModelSpec = { ...BUILTIN_MODEL, pooling: pooling as ModelSpec['pooling'], normalize: norm === 'norm' };
  if (modelKey(spec) !== key) {
    throw new CgError('index_corrupt', `The index's vectors were made by another build of the built-in model (${key}; this cg has ${modelKey(spec)})`,
      'Run `cg update` (or `cg index --full`) to embed its symbols with this one.');
  }
  return spec;
}

/**
 * What embedItems(db, null) gives after a full build, gathered while its files are stored (the
 * extraction's phase, with both cores busy) instead of read back at the end, when this thread is all
 * that runs (Go's standard library: ~0.5 s of symbols read, texts made and hashed): the same symbols
 * (full-text kinds of the repository's files), texts and order.
 */
export class BuildEmbedItems {
  private items: EmbedItem[] = [];
  private hashes: string[] = [];

  /** A stored file's symbols, ids as addFile gave them (fileId · 2^20 + position). */
  add(fileId: number, symbols: { name: string; qualifiedName: string; signature: string; doc: string | null; mutates: string[]; kind: string }[]): void {
    const base = symbolIdBase(fileId);
    symbols.forEach((s, i) => {
      if (!hasFullText(s.kind)) return;
      const text = embedText(s);
      this.items.push({ id: base + i, text });
      this.hashes.push(textHash(text));
    });
  }

  /** The items in id order, with their texts' hashes. */
  done(): { items: EmbedItem[]; hashes: string[] } {
    const order = this.items.map((_, k) => k).sort((a, b) => this.items[a].id - this.items[b].id);
    return { items: order.map((k) => this.items[k]), hashes: order.map((k) => this.hashes[k]) };
  }
}

/** Symbols to embed: everything but modules (their text is a file name), of the given files or all. */
function embedItems(db: Database.Database, fileIds: number[] | null): EmbedItem[] {
  const where = fileIds === null ? '' : 'AND file_id IN (SELECT value FROM json_each(?))';
  const rows = db.prepare(`SELECT id, name, qualified_name AS qualifiedName, signature, doc, mutates FROM symbols
    WHERE ${FULL_TEXT_KINDS_SQL} AND file_id NOT IN (SELECT id FROM files WHERE external = 1) ${where} ORDER BY id`).all(...(fileIds === null ? [] : [JSON.stringify(fileIds)])) as
    { id: number; name: string; qualifiedName: string; signature: string; doc: string | null; mutates: string }[];
  return rows.map((r) => ({ id: r.id, text: embedText({ ...r, mutates: JSON.parse(r.mutates) as string[] }) }));
}

function storedDims(db: Database.Database, key: string): number | null {
  return (db.prepare('SELECT dims FROM embeddings WHERE model = ? LIMIT 1').pluck().get(key) as number | undefined) ?? null;
}

/**
 * The base file this process opened or wrote last, as it was on disk then: a long-running applier
 * (`cg watch`, `cg serve`) builds every update on the same base, and need not read and checksum it
 * again while the file is the one it checked (same inode, size and modification time; a base is
 * never rewritten in place, only replaced by a rename).
 */
let lastBase: { file: string; stamp: string; store: VectorStore } | null = null;

function fileStamp(file: string): string {
  const st = fs.statSync(file);
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

function keepBase(file: string, store: VectorStore): void {
  lastBase = { file, stamp: fileStamp(file), store };
}

/** The base file as a read-only view, checked against its manifest (read whole and checksummed) unless it is lastBase. */
function openBase(file: string): VectorStore {
  if (lastBase?.file === file && lastBase.stamp === fileStamp(file)) return lastBase.store;
  const store = VectorStore.open(file, { view: true });
  keepBase(file, store);
  return store;
}

/**
 * The previous generation's vectors (its base file and delta), to build this generation's on, or null
 * with the reason to rebuild them from the database instead: a file is missing or damaged, another
 * writer has committed a generation since this update read the meta (its files are not the ones to
 * build on), or the files do not hold exactly the vectors the database says they do (a vector lost by
 * an interrupted or overlapping writer would otherwise stay lost: an update only records what
 * changed). Called inside the update's transaction, before this generation's embeddings are written.
 *
 * The last check (reconcile) reads every stored vector, so it runs only when the files are not the
 * ones committed with the database: meta records the base's and the delta's checksums and the count
 * in the transaction that makes their generation current, and VectorStore.open and readDelta have
 * checked each file against its own checksum. A file written by a writer that died before its commit,
 * or rewritten by another, has another checksum (or none recorded, as in an index made before this
 * check) and gets the full comparison.
 */
function openPrevious(db: Database.Database, dir: string, previous: Meta, model: string):
  { layers: LayeredVectors | null; reason: string | null; check: VectorSync['fileCheck'] | null } {
  const meta = readMeta(db);
  const file = previous.vectors_file;
  const deltaFile = previous.vectors_delta ?? '';
  if (meta.vectors_file !== file || (meta.vectors_delta ?? '') !== deltaFile) {
    const theirs = [meta.vectors_file, meta.vectors_delta].filter(Boolean).join(' + ') || 'no vector file';
    const ours = [file, deltaFile].filter(Boolean).join(' + ') || 'none';
    return { layers: null, reason: `another writer committed ${theirs} after this update read ${ours}`, check: null };
  }
  if (!file || !fs.existsSync(path.join(dir, file))) return { layers: null, reason: file ? `${file} is missing` : null, check: null };
  let layers: LayeredVectors;
  let deltaChecksum = '';
  try {
    const base = openBase(path.join(dir, file));
    if (deltaFile) {
      const read = readDelta(path.join(dir, deltaFile));
      deltaChecksum = String(read.checksum);
      layers = new LayeredVectors(base, read.delta);
    } else {
      layers = new LayeredVectors(base, emptyDelta(base.dims));
    }
  } catch (err) {
    return { layers: null, reason: errorMessage(err), check: null };
  }
  if (meta.vectors_crc32 && meta.vectors_crc32 === String(layers.base.checksum) && (meta.vectors_delta_crc32 ?? '') === deltaChecksum
    && Number(meta.vectors_count) === layers.size) {
    return { layers, reason: null, check: 'checksum' };
  }
  const mismatch = reconcile(db, layers, model);
  const named = [file, deltaFile].filter(Boolean).join(' + ');
  return mismatch ? { layers: null, reason: `${named} ${mismatch}`, check: 'compared' } : { layers, reason: null, check: 'compared' };
}

/**
 * Whether a vector file holds exactly the symbols the database has a (non-zero) vector for; null when
 * it does, else what differs. With kept vectors it reads every one (to leave out the zero ones, which
 * files do not hold): 30-70 ms on Django, ~0.7 s on Go's standard library; without, the zero ones are
 * the only rows there are.
 */
export function reconcile(db: Database.Database, store: Pick<VectorStore, 'size' | 'countPresent'>, model: string): string | null {
  // Without kept vectors (cachesVectors), the table holds the zero ones only: every other symbol has a vector.
  const expected = (cachesVectors(model)
    ? db.prepare(`SELECT s.symbol_id FROM symbol_embeddings s JOIN embeddings e ON e.model = ? AND e.text_hash = s.text_hash
        WHERE e.vector != zeroblob(length(e.vector))`).pluck().all(model)
    : db.prepare(`SELECT s.symbol_id FROM symbol_embeddings s WHERE NOT EXISTS (SELECT 1 FROM embeddings e
        WHERE e.model = ? AND e.text_hash = s.text_hash AND e.vector = zeroblob(length(e.vector)))`).pluck().all(model)) as number[];
  const present = store.countPresent(expected);
  if (present === expected.length && store.size === expected.length) return null;
  return `holds ${store.size} vectors; the database has ${expected.length}, of which ${expected.length - present} are missing from it`;
}
