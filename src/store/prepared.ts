import type Database from 'better-sqlite3';

/**
 * Statements compiled once per database handle: graph walks run the same few queries thousands of
 * times, and compiling SQL costs more than running these indexed lookups. The set of texts is fixed by
 * the code; the cap only guards against a caller that builds texts from data.
 */
const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const MAX_STATEMENTS = 500;

export function prepared(db: Database.Database, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    st = db.prepare(sql);
    cache.set(sql, st);
  }
  return st;
}
