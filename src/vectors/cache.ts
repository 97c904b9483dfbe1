/**
 * Embeddings stored in the index database, so an update embeds only symbols whose text changed.
 *
 *   createEmbeddingTables(db)                                   CREATE TABLE IF NOT EXISTS (the DDL is in src/store/schema.ts)
 *   const u = await embedSymbols(db, items, {model, embed})     plan + embed only what the cache lacks (async, no writes)
 *   saveEmbeddings(db, u)                                       write it (sync: call inside the caller's transaction)
 *   deleteSymbolEmbeddings(db, ids)                             symbols that no longer exist
 *   storedVectors(db, model)                                    (id, vector) of every symbol, to rebuild the vector index
 *   copyEmbeddingCache(db, fromDbFile, model?)                  carry the cache into a new full-build database
 *   pruneEmbeddingCache(db, model)                              drop cached vectors nothing refers to
 *
 * `model` is modelKey(spec) (or Embedder.key): vectors of different models never mix, and switching
 * models re-embeds everything once (the old model's rows stay until pruned).
 *
 * The built-in model's vectors are not kept (cachesVectors): it embeds ~100k texts a second, so its
 * texts are embedded again where vectors must be read back (indexVectors, src/indexer/vectors.ts),
 * and their float32 copies were a quarter of an index (42 of Go's standard library's 166 MB). Only
 * the symbols' text hashes are kept for it, which is what tells an update which texts changed.
 *
 * The flow of an update: items = (id, embedText(symbol)) for the symbols of changed files;
 * `await embedSymbols(...)` (the only await); then, in one SQLite transaction: the rows,
 * saveEmbeddings(db, u), and the vector file from store.upsert(u.changed) + store.save(dir, N+1)
 * recorded in meta. embed is only called when some text is missing from the cache, so an
 * update that changes no embedded text never loads the model.
 */
import type Database from 'better-sqlite3';
import { EMBEDDING_DDL } from '../store/schema.js';
import { isBuiltin } from './model.js';
import { textHash } from './text.js';

/** Whether a model's vectors are kept in the embeddings table (a hub model's: slow to compute again); `model` is its key. */
export function cachesVectors(model: string): boolean {
  return !isBuiltin(model.slice(0, model.indexOf(':') < 0 ? model.length : model.indexOf(':')));
}

export function createEmbeddingTables(db: Database.Database): void {
  db.exec(EMBEDDING_DDL);
}

export interface EmbedItem {
  id: number;
  text: string;
}

export interface EmbeddingUpdate {
  model: string;
  /** Symbols whose vector is new or different: upsert these into the vector store. */
  changed: Map<number, Float32Array>;
  /** The text hash of every item, for symbol_embeddings. */
  hashes: Map<number, string>;
  /** Newly computed vectors by text hash, for the cache. */
  computed: Map<string, Float32Array>;
  stats: { items: number; unchanged: number; fromCache: number; embedded: number };
}

export interface EmbedOptions {
  model: string;
  /** Called at most once, with the distinct texts the cache lacks. */
  embed: (texts: string[]) => Promise<Float32Array[]>;
}

export async function embedSymbols(db: Database.Database, items: readonly EmbedItem[], opts: EmbedOptions): Promise<EmbeddingUpdate> {
  const previous = db.prepare<[number], { text_hash: string }>('SELECT text_hash FROM symbol_embeddings WHERE symbol_id = ?');
  const lookup = db.prepare<[string, string], { vector: Buffer }>('SELECT vector FROM embeddings WHERE model = ? AND text_hash = ?');
  const u: EmbeddingUpdate = { model: opts.model, changed: new Map(), hashes: new Map(), computed: new Map(),
    stats: { items: items.length, unchanged: 0, fromCache: 0, embedded: 0 } };
  const missing = new Map<string, { text: string; ids: number[] }>();
  // A new database (a full build without a previous one to copy the cache from) has nothing to look up.
  const caches = cachesVectors(opts.model);
  const anyCached = caches && db.prepare('SELECT 1 FROM embeddings WHERE model = ? LIMIT 1').get(opts.model) !== undefined;
  const anyLinked = db.prepare('SELECT 1 FROM symbol_embeddings LIMIT 1').get() !== undefined;
  for (const { id, text } of items) {
    const hash = textHash(text);
    u.hashes.set(id, hash);
    const cached = anyCached ? lookup.get(opts.model, hash) : undefined;
    // Without a cache, a symbol whose text hash is the one stored kept its vector in the vector file.
    if (!caches && anyLinked && previous.get(id)?.text_hash === hash) {
      u.stats.unchanged++;
    } else if (cached && anyLinked && previous.get(id)?.text_hash === hash) {
      u.stats.unchanged++;
    } else if (cached) {
      u.changed.set(id, fromBlob(cached.vector));
      u.stats.fromCache++;
    } else {
      // Symbols with the same text (overloads, `__init__(self)`) share one embedding.
      const entry = missing.get(hash);
      if (entry) entry.ids.push(id);
      else missing.set(hash, { text, ids: [id] });
    }
  }
  if (missing.size) await embedMissing(u, missing, opts.embed);
  return u;
}

async function embedMissing(u: EmbeddingUpdate, missing: Map<string, { text: string; ids: number[] }>,
  embed: EmbedOptions['embed']): Promise<void> {
  const entries = [...missing];
  const vectors = await embed(entries.map(([, e]) => e.text));
  if (vectors.length !== entries.length) throw new Error(`embed returned ${vectors.length} vectors for ${entries.length} texts`);
  entries.forEach(([hash, e], i) => {
    u.computed.set(hash, vectors[i]);
    for (const id of e.ids) {
      u.changed.set(id, vectors[i]);
      u.stats.embedded++;
    }
  });
}

/** Writes an update's cache rows and symbol hashes. Synchronous: run it inside the caller's transaction. */
export function saveEmbeddings(db: Database.Database, u: EmbeddingUpdate): void {
  const cache = db.prepare('INSERT OR REPLACE INTO embeddings(model, text_hash, dims, vector) VALUES (?, ?, ?, ?)');
  const link = db.prepare('INSERT OR REPLACE INTO symbol_embeddings(symbol_id, text_hash) VALUES (?, ?)');
  // In key order: rows added in a full build then fill their pages (in hash order, a page split leaves half of one empty).
  // A model whose vectors are not kept still records its zero vectors (texts with no known word): the
  // vector file leaves them out, and reconcile must know which symbols those are without embedding again.
  const keep = cachesVectors(u.model) ? () => true : isZero;
  for (const [hash, v] of [...u.computed].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (keep(v)) cache.run(u.model, hash, v.length, toBlob(v));
  }
  for (const [id, hash] of u.hashes) link.run(id, hash);
}

export function deleteSymbolEmbeddings(db: Database.Database, ids: readonly number[]): void {
  const del = db.prepare('DELETE FROM symbol_embeddings WHERE symbol_id = ?');
  for (const id of ids) del.run(id);
}

/** Every symbol's stored vector for a model that caches them (cachesVectors), in id order: the input of VectorStore.rebuild. */
export function* storedVectors(db: Database.Database, model: string): Generator<[number, Float32Array]> {
  const rows = db.prepare<[string], { symbol_id: number; vector: Buffer }>(`SELECT s.symbol_id, e.vector
    FROM symbol_embeddings s JOIN embeddings e ON e.model = ? AND e.text_hash = s.text_hash ORDER BY s.symbol_id`).iterate(model);
  for (const r of rows) yield [r.symbol_id, fromBlob(r.vector)];
}

/**
 * Copies cached vectors from another index database (the previous full build) into this one, so a
 * rebuild re-embeds only texts that changed. Returns the number of rows copied.
 */
export function copyEmbeddingCache(db: Database.Database, fromDbFile: string, model?: string): number {
  createEmbeddingTables(db);
  db.prepare('ATTACH DATABASE ? AS prev').run(fromDbFile);
  try {
    const has = db.prepare("SELECT 1 FROM prev.sqlite_master WHERE type = 'table' AND name = 'embeddings'").get();
    if (!has) return 0;
    const where = model === undefined ? '' : 'WHERE model = ?';
    const res = db.prepare(`INSERT OR IGNORE INTO main.embeddings SELECT model, text_hash, dims, vector FROM prev.embeddings ${where}`)
      .run(...(model === undefined ? [] : [model]));
    return res.changes;
  } finally {
    db.prepare('DETACH DATABASE prev').run();
  }
}

/** Deletes cached vectors of other models and of texts no symbol has any more. Returns rows deleted. */
export function pruneEmbeddingCache(db: Database.Database, model: string): number {
  return db.prepare(`DELETE FROM embeddings WHERE model != ?
    OR text_hash NOT IN (SELECT text_hash FROM symbol_embeddings)`).run(model).changes;
}

function isZero(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function fromBlob(b: Buffer): Float32Array {
  // Copy: SQLite's buffer may not be 4-byte aligned, and the caller may keep the vector.
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
