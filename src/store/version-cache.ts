import type Database from 'better-sqlite3';

/**
 * Values derived from an index that stay the same until the index changes (a collection's document
 * lengths, the number of symbols), kept per connection: a long-running server answers many queries
 * from one connection, and reading them again per query was most of a query's time on a large
 * repository. They are computed again once another connection has committed (SQLite's data_version,
 * which changes only then) or the index's generation moved (a commit of this connection).
 */
const byConnection = new WeakMap<Database.Database, { version: string; values: Map<string, unknown> }>();

const versionStatements = new WeakMap<Database.Database, { data: Database.Statement; generation: Database.Statement }>();

export function cachedForVersion<T>(db: Database.Database, key: string, compute: () => T): T {
  let st = versionStatements.get(db);
  if (!st) {
    st = { data: db.prepare('PRAGMA data_version').pluck(), generation: db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck() };
    versionStatements.set(db, st);
  }
  const version = `${st.data.get()}:${st.generation.get() ?? ''}`;
  let entry = byConnection.get(db);
  if (!entry || entry.version !== version) byConnection.set(db, (entry = { version, values: new Map() }));
  if (entry.values.has(key)) return entry.values.get(key) as T;
  const value = compute();
  entry.values.set(key, value);
  return value;
}
