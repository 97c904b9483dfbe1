import type Database from 'better-sqlite3';
import { prepared } from '../store/queries.js';
import { cachedForVersion } from '../store/version-cache.js';
import { postingsOf } from '../store/postings.js';
import { pathText } from './terms.js';
import { tokenize } from './tokenize.js';

/**
 * Places at the right grain. Nested functions, lambdas and closures (`applyIncremental.lap`) are units
 * of their own in the index, and a short closure whose qualified name carries its parent's words
 * outscores the parent it lives in (BM25 favours short documents): "how is an incremental update
 * applied" showed `applyIncremental.lap` and `.key`, not `applyIncremental`. A nested function is
 * therefore shown as its enclosing function unless it matches the task on its own: by its own name or
 * its own lines, not only through the words of the functions around it or the file's path.
 */
const FUNCTION_KINDS = new Set(['function', 'method']);

/** The outermost function or method around each symbol (through classes nested in functions too), for those nested in one. */
export function enclosingFunctions(db: Database.Database, ids: Iterable<number>): Map<number, number> {
  const parentOf = prepared(db, 'SELECT parent_id, kind FROM symbols WHERE id = ?');
  // A symbol's enclosing function does not depend on the task: walked once per symbol while the index
  // stays as it is (a query asks about its hundreds of ranked units; ~4 ms a query on Django).
  const known = cachedForVersion(db, 'nesting:enclosing', () => new Map<number, number | null>());
  const out = new Map<number, number>();
  for (const id of ids) {
    let top = known.get(id);
    if (top === undefined) {
      top = null;
      let cur = (parentOf.raw().get(id) as [number | null, string] | undefined)?.[0] ?? null;
      // Parents come before their children in a file, so the walk ends; the bound guards a damaged index.
      for (let hops = 0; cur !== null && hops < 64; hops++) {
        const row = parentOf.raw().get(cur) as [number | null, string] | undefined;
        if (!row) break;
        if (FUNCTION_KINDS.has(row[1])) top = cur;
        cur = row[0];
      }
      known.set(id, top);
    }
    if (top !== null) out.set(id, top);
  }
  return out;
}

/**
 * Of the nested units given, those that match a query term on their own: the unit's indexed count of
 * the term (its qualified name, the file's path and its own lines; src/retrieve/terms.ts) is more than
 * the enclosing functions' names and the path account for.
 */
export function matchOnTheirOwn(db: Database.Database, nested: number[], query: Map<string, number>): Set<number> {
  const own = new Set<number>();
  if (!nested.length || !query.size) return own;
  const wanted = new Set(nested);
  const names = prepared(db, 'SELECT s.name, s.qualified_name, f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?');
  const rows: [number, string, number, string, string, string][] = [];
  for (const [term, docs] of postingsOf(db, 'units', query.keys())) {
    for (let i = 0; i < docs.length; i += 2) {
      const id = docs[i];
      const tf = docs[i + 1];
      const row = wanted.has(id) ? names.raw().get(id) as [string, string, string] | undefined : undefined;
      if (row) rows.push([id, term, tf, ...row]);
    }
  }
  const tally = (terms: string[]) => {
    const m = new Map<string, number>();
    for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  for (const [id, term, tf, name, qualified, path] of rows) {
    if (own.has(id)) continue;
    const fromName = tally(tokenize(qualified.replace(/\./g, ' '))).get(term) ?? 0;
    const ownName = tally(tokenize(name)).get(term) ?? 0;
    const fromPath = tally(tokenize(pathText(path))).get(term) ?? 0;
    // What the enclosing names and the path put in the unit's count; the rest is the unit's own.
    if (tf - (fromName - ownName) - fromPath > 0) own.add(id);
  }
  return own;
}
