import type Database from 'better-sqlite3';
import { poolCondition, type Pool } from '../extract/documents/formats.js';
import { postingsOf, type PostingsCollection } from '../store/postings.js';
import { cachedForVersion } from '../store/version-cache.js';

/**
 * Okapi BM25 over the postings written at index time (src/retrieve/terms.ts). SQLite returns the
 * postings of the query's terms only; scoring happens here, so the parameters are ours (FTS5 fixes
 * k1 1.2 and b 0.75; the evaluation found k1 0.9, b 0.4 better for whole files).
 */
export interface Bm25Params {
  k1: number;
  b: number;
}

export const FILE_BM25: Bm25Params = { k1: 0.9, b: 0.4 };
export const UNIT_BM25: Bm25Params = { k1: 0.9, b: 0.4 };

/** One document collection: where its documents' lengths live (its postings: src/store/postings.ts). */
interface Collection {
  /** SQL that yields (key, length) for the documents in the pool. */
  docs: string;
}

const COLLECTIONS = {
  files: { docs: 'SELECT f.id AS k, f.tokens AS len FROM files f WHERE f.is_test = 0' },
  units: {
    docs: `SELECT s.id AS k, s.tokens AS len FROM symbols s JOIN files f ON f.id = s.file_id
      WHERE f.is_test = 0 AND s.kind IN ('function', 'method', 'section', 'key')`,
  },
} satisfies Record<PostingsCollection, Collection>;

export type CollectionName = keyof typeof COLLECTIONS;

/** What a BM25 pass saw besides the scores, for the learned ranker's features (src/retrieve/features.ts). */
export interface TermStats {
  /** Each query term's idf over the collection (terms no document holds are left out). */
  idf: Map<string, number>;
  /** Per document: the sum of the idf of the query terms it holds. */
  covered: Map<number, number>;
}

/**
 * BM25 scores of every document in the collection that contains a query term, by key. `pool` keeps
 * code and documents apart: each is scored with its own statistics (document count, lengths, term
 * frequencies), so indexing a project's Markdown changes nothing in how its code ranks. `stats`
 * receives what the pass saw of the query's terms (idf, coverage).
 */
export function bm25(db: Database.Database, name: CollectionName, query: Map<string, number>, p: Bm25Params, pool: Pool = 'all',
  stats?: TermStats): Map<number, number> {
  const { n, avg, lengths } = collectionStats(db, name, pool);
  const scores = new Map<number, number>();
  if (!n || !query.size) return scores;
  // The query terms' postings (terms in order, documents ascending) of the documents in the pool, with their lengths.
  const rows: [string, number, number, number][] = [];
  const df = new Map<string, number>();
  for (const [t, docs] of postingsOf(db, name, query.keys())) {
    for (let i = 0; i < docs.length; i += 2) {
      const key = docs[i];
      const tf = docs[i + 1];
      const len = lengths.get(key);
      if (len === undefined) continue;
      rows.push([t, key, tf, len]);
      df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const avgLen = avg || 1;
  for (const [t, key, tf, len] of rows) {
    const d = df.get(t)!;
    const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
    const s = query.get(t)! * idf * (tf * (p.k1 + 1)) / (tf + p.k1 * (1 - p.b + (p.b * len) / avgLen));
    scores.set(key, (scores.get(key) ?? 0) + s);
    if (stats) {
      stats.idf.set(t, idf);
      stats.covered.set(key, (stats.covered.get(key) ?? 0) + idf);
    }
  }
  return scores;
}

interface CollectionStats {
  n: number;
  avg: number | null;
  /** Each document of the pool's length, by key. */
  lengths: Map<number, number>;
}

/**
 * A collection's document count, average length and lengths: the same for every query until the
 * index changes (cachedForVersion). Reading them per query took about half of a query's time on Go's
 * standard library (~60k functions' lengths, ~60 ms).
 */
function collectionStats(db: Database.Database, name: CollectionName, pool: Pool): CollectionStats {
  return cachedForVersion(db, `bm25:${name}:${pool}`, () => {
    const docs = COLLECTIONS[name].docs + poolCondition('f.language', pool);
    const [n, avg] = db.prepare(`SELECT COUNT(*), AVG(len) FROM (${docs})`).raw().get() as [number, number | null];
    return { n, avg, lengths: n ? new Map(db.prepare(docs).raw().all() as [number, number][]) : new Map<number, number>() };
  });
}

/**
 * Reads now what the first query of a connection would read for the code pool (a server's warm-up,
 * before its first request): Go's standard library's ~60k function lengths take ~0.1 s.
 */
export function primeCollectionStats(db: Database.Database): void {
  for (const name of Object.keys(COLLECTIONS) as CollectionName[]) collectionStats(db, name, 'code');
}

/** Rows of symbol_fts read per query: the best matches decide a file's score (its best symbol). */
const SYMBOL_MATCHES = 2000;

/**
 * FTS5 over the symbols of non-test files (split names, qualified names, signatures, docs and paths;
 * FTS5's own BM25, columns weighted equally): each file scores its best-matching symbol.
 */
export function symbolSearch(db: Database.Database, query: Map<string, number>, pool: Pool = 'all'): Map<number, number> {
  const scores = new Map<number, number>();
  // Terms are quoted: a query's words are never FTS5 syntax (AND, NEAR, *, ^, column filters).
  const match = [...query.keys()].map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
  if (!match) return scores;
  const rows = db.prepare(`SELECT s.file_id, -bm25(symbol_fts) FROM symbol_fts JOIN symbols s ON s.id = symbol_fts.rowid
    JOIN files f ON f.id = s.file_id WHERE symbol_fts MATCH ? AND f.is_test = 0${poolCondition('f.language', pool)} ORDER BY rank LIMIT ${SYMBOL_MATCHES}`).raw()
    .all(match) as [number, number][];
  for (const [file, score] of rows) if (!(scores.get(file)! >= score)) scores.set(file, score);
  return scores;
}
