import type Database from 'better-sqlite3';
import { prepared } from './prepared.js';

/**
 * Values derived from an index that stay the same until the index changes (a collection's document
 * lengths, the number of symbols), kept per connection: a long-running server answers many queries
 * from one connection, and reading them again per query was most of a query's time on a large
 * repository. They are computed again once another connection has committed (SQLite's data_version,
 * which changes only then) or the index's generation moved (a commit of this connection).
 */
const byConnection = new WeakMap<Database.Database, { version: string; values: Map<string, unknown> }>();

export function cachedForVersion<T>(db: Database.Database, key: string, compute: () => T): T {
  const version = `${prepared(db, 'PRAGMA data_version').pluck().get()}:${prepared(db, "SELECT value FROM meta WHERE key = 'generation'").pluck().get() ?? ''}`;
  let entry = byConnection.get(db);
  if (!entry || entry.version !== version) byConnection.set(db, (entry = { version, values: new Map() }));
  if (entry.values.has(key)) return entry.values.get(key) as T;
  const value = compute();
  entry.values.set(key, value);
  return value;
}
