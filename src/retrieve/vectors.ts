import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Config } from '../config/config.js';
import { CgError, errorMessage } from '../errors.js';
import { readMeta } from '../store/db.js';
import { sharedEmbedder } from '../vectors/embedder.js';
import { modelKey, modelSpecFromConfig } from '../vectors/model.js';
import { layersOver, type LayeredVectors } from '../vectors/delta.js';
import { VectorStore } from '../vectors/store.js';

/**
 * The vector side of a query: the task embedded with the index's model, its nearest symbols in the
 * generation's vector file, and per file the best cosine of its symbols. The model and the opened
 * files stay loaded for the life of the process (a server or the evaluation pays for them once).
 */
export interface VectorMatches {
  status: 'ok' | 'unavailable' | 'off';
  /** Why there are no vector matches, for the answer's warnings. */
  warning?: string;
  /** Best cosine similarity per file id, over the nearest symbols found. */
  files: Map<number, number>;
  /** Cosine similarity of each symbol found. */
  symbols: Map<number, number>;
  /** Each file's symbols among those found, best first, with their cosine. */
  byFile: Map<number, { symbolId: number; score: number }[]>;
}

/** Nearest symbols to look at: enough that every plausible file has its best symbol among them. */
export const VECTOR_NEIGHBOURS = 1000;

const stores = new Map<string, VectorStore>();
const generations = new Map<string, LayeredVectors>();
/**
 * Base files, and generations (a base with its delta), a long-running reader keeps open per index: the
 * current one and a few it may still be finishing. Counted per build directory, so a process that
 * reads many projects' indexes (the registry's federation) keeps each project's current files open
 * instead of reopening them in turn.
 */
const OPEN_STORES = 3;

export async function vectorMatches(db: Database.Database, config: Config, text: string, k = VECTOR_NEIGHBOURS): Promise<VectorMatches> {
  const none = (status: VectorMatches['status'], warning?: string): VectorMatches =>
    ({ status, warning, files: new Map(), symbols: new Map(), byFile: new Map() });
  const meta = readMeta(db);
  if (!config.embeddings.enabled) return none('off');
  if (meta.vectors_status !== 'ok') {
    return none(meta.vectors_status === 'off' ? 'off' : 'unavailable',
      meta.vectors_status === 'unavailable' ? `No vectors in this index: ${meta.vectors_error}` : undefined);
  }
  const spec = modelSpecFromConfig(config.embeddings);
  let key: string;
  try {
    key = modelKey(spec);
  } catch (err) {
    return none('unavailable', errorMessage(err));
  }
  if (key !== meta.vectors_model) {
    return none('unavailable', `The index's vectors were made by ${meta.vectors_model.split(':')[0]}, the configuration names ${spec.id}: `
      + 'run `cg update` to re-embed.');
  }
  if (!meta.vectors_file) return none('ok');
  let store: LayeredVectors;
  let query: Float32Array;
  try {
    store = openGeneration(path.dirname(db.name), meta.vectors_file, meta.vectors_delta ?? '');
    [query] = await (await sharedEmbedder(spec)).embed([text]);
  } catch (err) {
    if (err instanceof CgError && (err.code === 'model_unavailable' || err.code === 'index_corrupt')) {
      return none('unavailable', `${err.message}. ${err.hint ?? ''}`.trim());
    }
    throw err;
  }
  const hits = store.search(query, k);
  const symbols = new Map(hits.map((h) => [h.id, h.score]));
  const files = new Map<number, number>();
  const byFile = new Map<number, { symbolId: number; score: number }[]>();
  if (hits.length) {
    const rows = db.prepare(`SELECT s.id, s.file_id FROM symbols s JOIN files f ON f.id = s.file_id
      WHERE f.is_test = 0 AND s.id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(hits.map((h) => h.id))) as [number, number][];
    for (const [id, file] of rows) {
      const score = symbols.get(id)!;
      files.set(file, Math.max(files.get(file) ?? -1, score));
      (byFile.get(file) ?? byFile.set(file, []).get(file)!).push({ symbolId: id, score });
    }
    for (const list of byFile.values()) list.sort((a, b) => b.score - a.score);
  }
  return { status: 'ok', files, symbols, byFile };
}

/**
 * Vector files never change once written (a base is shared by the generations built on it, a delta
 * belongs to one), so opened ones are reused: a new generation reads its delta only.
 */
function openGeneration(dir: string, baseName: string, deltaName: string): LayeredVectors {
  const key = path.join(dir, `${baseName}+${deltaName}`);
  let g = generations.get(key);
  if (!g) {
    const base = cached(stores, path.join(dir, baseName), (file) => VectorStore.open(file, { view: true }));
    g = cached(generations, key, () => layersOver(base, dir, deltaName));
  }
  return g;
}

function cached<T>(map: Map<string, T>, key: string, open: (key: string) => T): T {
  let v = map.get(key);
  if (v === undefined) {
    v = open(key);
    map.set(key, v);
    const dir = path.dirname(key);
    const sameIndex = [...map.keys()].filter((f) => path.dirname(f) === dir);
    if (sameIndex.length > OPEN_STORES) map.delete(sameIndex[0]);
  }
  return v;
}
