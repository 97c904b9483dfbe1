import v8 from 'node:v8';
import vm from 'node:vm';
import { loadConfig } from '../config/config.js';
import { openReader } from '../store/db.js';
import { tokenCounter } from '../retrieve/tokens.js';
import { vectorMatches } from '../retrieve/vectors.js';
import { primeCollectionStats } from '../retrieve/lexical.js';
import { runQuery } from '../retrieve/query.js';
import { primeSymbolSearch } from '../store/queries.js';
import type Database from 'better-sqlite3';

/**
 * Loads what the first query would otherwise load: the tokenizer tables, and the embedding model and
 * the generation's vector file through the same cache queries use (src/retrieve/vectors.ts), on a
 * handle of its own so the server's request queue is not held.
 */
export async function warmQueryPath(root: string): Promise<void> {
  await tokenCounter();
  let db;
  try {
    db = openReader(root);
  } catch {
    return; // no index yet: the first query after `cg index` pays for the model instead
  }
  try {
    await vectorMatches(db, loadConfig(root), 'warm up', 1);
  } finally {
    db.close();
  }
}

/**
 * What a connection's first query reads for every query (src/store/version-cache.ts), read now, and one
 * query run through it so that its statements are compiled and its code optimized before an agent's
 * first question (Django's first codegraph_query took ~85 ms against ~20 for the next ones).
 */
export async function primeQueryCaches(db: Database.Database, root: string): Promise<void> {
  primeCollectionStats(db);
  primeSymbolSearch(db);
  await runQuery(db, root, { text: 'warm up the query path', recordedSignals: false });
}

/**
 * One full collection, for a server that has just warmed up and has no request yet. The warm-up leaves
 * the young generation full of objects that live on (tables, caches, statements), and the first
 * scavenge after it copies them all: 2.3-3.5 ms of a request's time on rich, against 0.7-1.4 ms for
 * the scavenges after a full collection (README.md, "the tail taken out"). A long-running server pays
 * the ~30-80 ms here, while it waits for its first request, rather than in an answer. V8 exposes
 * collection to code only behind --expose-gc; the flag set at run time installs `gc` in new contexts.
 * Where that fails (another engine, a flag V8 refuses), nothing is collected: it is only a latency aid.
 */
export function collectWarmUpGarbage(): boolean {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc !== 'function') return false;
    gc();
    return true;
  } catch {
    return false;
  }
}
