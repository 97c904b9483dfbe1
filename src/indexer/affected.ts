import type Database from 'better-sqlite3';

/**
 * Which files must be re-resolved after some files changed. Resolution of a reference reads only:
 * the imports of its own file (and, through re-exports, of the files they lead to), symbols looked up
 * by name, and supertypes. So a file outside the changed set can resolve differently only if
 *   - it imported a changed file (its scope may change), or
 *   - one of its references or imports names something a changed file defines or imports, before or
 *     after the change (a new definition can capture a name; a removed one release it), or
 *   - an import of it names a changed file's module (a new file can turn an external import internal).
 * Changes to supertypes reach further (every subtype's method lookups), so the caller re-resolves
 * everything when the changed files' own inheritance edges differ. The property test in
 * test/incremental.test.ts checks the result against full builds.
 */
export interface ChangeFootprint {
  /** Names defined or imported by the changed files (names and parts of qualified names). */
  names: Set<string>;
  /** Module-like names of the changed paths: file names without extension, directory names. */
  modules: Set<string>;
  /** Files that imported one of the changed files. */
  importers: Set<number>;
  /** Inheritance edges written in the changed files, as comparable keys. */
  inherits: Set<string>;
}

export function emptyFootprint(): ChangeFootprint {
  return { names: new Set(), modules: new Set(), importers: new Set(), inherits: new Set() };
}

/** Adds what the given files (by id) currently define, import and inherit, and who imports them. */
export function recordFootprint(db: Database.Database, fileIds: number[], paths: string[], into: ChangeFootprint): void {
  if (!fileIds.length && !paths.length) return;
  const ids = JSON.stringify(fileIds);
  for (const [name, qn] of db.prepare(`SELECT name, qualified_name FROM symbols WHERE file_id IN (SELECT value FROM json_each(?))`)
    .raw().all(ids) as [string, string][]) {
    into.names.add(name);
    for (const part of qn.split('.')) into.names.add(part);
  }
  for (const [names, alias] of db.prepare(`SELECT names, alias FROM imports WHERE file_id IN (SELECT value FROM json_each(?))`)
    .raw().all(ids) as [string, string | null][]) {
    if (alias) into.names.add(alias);
    for (const n of JSON.parse(names) as { name: string; alias?: string }[]) {
      into.names.add(n.name);
      if (n.alias) into.names.add(n.alias);
    }
  }
  for (const [fileId] of db.prepare(`SELECT DISTINCT e.file_id FROM edges e JOIN symbols s ON s.id = e.dst_id
      WHERE e.kind = 'imports' AND s.file_id IN (SELECT value FROM json_each(?))`).raw().all(ids) as [number][]) {
    into.importers.add(fileId);
  }
  for (const p of paths) {
    const parts = p.split('/');
    const base = parts.pop()!;
    into.modules.add(base.replace(/\..*$/, ''));
    for (const d of parts) into.modules.add(d);
  }
  for (const key of inheritanceKeys(db, fileIds)) into.inherits.add(key);
}

/** The extends/implements edges written in these files, keyed by qualified names and files. */
export function inheritanceKeys(db: Database.Database, fileIds: number[]): string[] {
  if (!fileIds.length) return [];
  return (db.prepare(`SELECT e.kind || ' ' || sf.path || ':' || s.qualified_name || ' -> ' || df.path || ':' || d.qualified_name
      FROM edges e JOIN symbols s ON s.id = e.src_id JOIN files sf ON sf.id = s.file_id
      JOIN symbols d ON d.id = e.dst_id JOIN files df ON df.id = d.file_id
      WHERE e.kind IN ('extends', 'implements') AND e.file_id IN (SELECT value FROM json_each(?))`)
    .pluck().all(JSON.stringify(fileIds)) as string[]);
}

/** The files to re-resolve: the changed ones and every file whose resolution may depend on them. */
export function affectedFiles(db: Database.Database, changed: number[], fp: ChangeFootprint): Set<number> {
  const out = new Set<number>(changed);
  for (const f of fp.importers) out.add(f);
  const last = (s: string) => s.split(/\.|::|->|\\|\//).pop() ?? s;
  const head = (s: string) => s.split(/[.(<[]|::|->|\\/)[0];
  for (const [fileId, name, receiver, receiverType] of db.prepare(
    'SELECT file_id, name, receiver, receiver_type FROM refs').raw().all() as [number, string, string | null, string | null][]) {
    if (out.has(fileId)) continue;
    if (fp.names.has(name) || (receiverType && (fp.names.has(last(receiverType)) || fp.names.has(head(receiverType))))
      || (receiver && (fp.names.has(head(receiver)) || fp.names.has(last(receiver))))) out.add(fileId);
  }
  for (const [fileId, module, names] of db.prepare('SELECT file_id, module, names FROM imports').raw().all() as
    [number, string, string][]) {
    if (out.has(fileId)) continue;
    const tail = last(module.replace(/\.(js|ts|mjs|cjs|jsx|tsx|php|py)$/, ''));
    if (fp.modules.has(tail) || fp.names.has(tail)
      || (JSON.parse(names) as { name: string }[]).some((n) => fp.names.has(n.name))) out.add(fileId);
  }
  // Only files that still exist.
  const live = new Set(db.prepare('SELECT id FROM files').pluck().all() as number[]);
  for (const f of out) if (!live.has(f)) out.delete(f);
  return out;
}
