import type Database from 'better-sqlite3';
import type { FileExtract } from '../extract/types.js';
import { tableKey } from '../extract/accesses.js';
import { isDocumentFormat } from '../extract/documents/formats.js';

/**
 * Which files must be re-resolved after some files changed. Resolution of a reference reads only:
 * the imports of its own file (and, through re-exports, of the files they lead to), symbols looked up
 * by name (kind, qualified name and, for return types, signature), and supertypes. So a file outside
 * the changed set can resolve differently only if
 *   - it imports a changed file that gained or lost a wildcard import (its scope may widen or narrow),
 *   - one of its references or imports names a definition that a changed file added, removed or
 *     altered (a new definition can capture a name; a removed one releases it),
 *   - one of its imports names what a changed file's imports bind (re-exports: Python's imported names,
 *     `export { x } from`, `pub use`), or it imports from a file whose imports changed (wildcards).
 *     References never see another file's imports but through their own file's imports, so a new
 *     `use std::task::Poll` in one file does not re-resolve every file that calls something `Poll`, or
 *   - an import of it names an added or removed file's module (an external import can turn internal),
 *   - it defines a method named like a changed definition (the method it overrides may have changed),
 *   - it reads or writes a table that a changed file's class declares, or that a changed class is named like.
 * Editing a function's body changes none of these, so only the edited file is re-resolved. Changes to
 * supertypes reach further (every subtype's method lookups), so the caller re-resolves everything when
 * the changed files' own inheritance edges differ. test/incremental.test.ts checks the result against
 * full builds.
 */
export interface ChangeFootprint {
  /** Names whose definitions changed (names and parts of qualified names). */
  names: Set<string>;
  /** Names bound by imports that were added, removed or altered: other files see them only by importing them. */
  importNames: Set<string>;
  /** Module-like names of added and removed paths: file names without extension, directory names. */
  modules: Set<string>;
  /** Files whose scope may change without a name saying so: importers of removed files and of wildcard changes. */
  importers: Set<number>;
  /** Inheritance edges written in the changed files before the change, as comparable keys. */
  inherits: Set<string>;
  /** Tables that classes of the changed files declared before or declare now (`__tablename__`...). */
  tables: Set<string>;
}

export function emptyFootprint(): ChangeFootprint {
  return { names: new Set(), importNames: new Set(), modules: new Set(), importers: new Set(), inherits: new Set(), tables: new Set() };
}

/** What other files can see of one file: its definitions and its imports, as comparable keys. */
interface FileFace {
  symbols: Map<string, string>; // key -> qualified name
  imports: Map<string, string[]>; // key -> bound names
  tables: Set<string>; // `class:table` of the tables its classes declare
}

function symbolKey(kind: string, qn: string, signature: string, isTest: boolean): string {
  return `${kind}\0${qn}\0${signature}\0${isTest ? 1 : 0}`;
}

function importKey(module: string, names: string, alias: string | null, wildcard: boolean, reexport: boolean): string {
  return `${module}\0${names}\0${alias ?? ''}\0${+wildcard}\0${+reexport}`;
}

function boundNames(names: { name: string; alias?: string }[], alias: string | null): string[] {
  return [...(alias ? [alias] : []), ...names.flatMap((n) => (n.alias ? [n.name, n.alias] : [n.name]))];
}

function faceFromDb(db: Database.Database, fileId: number): FileFace {
  const face: FileFace = { symbols: new Map(), imports: new Map(), tables: new Set() };
  for (const [qn, table] of db.prepare(`SELECT s.qualified_name, r.name FROM refs r JOIN symbols s ON s.id = r.symbol_id
    WHERE r.file_id = ? AND r.kind = 'table'`).raw().all(fileId) as [string, string][]) face.tables.add(`${qn}:${table}`);
  for (const [kind, qn, signature, isTest] of db.prepare('SELECT kind, qualified_name, signature, is_test FROM symbols WHERE file_id = ?')
    .raw().all(fileId) as [string, string, string, number][]) {
    face.symbols.set(symbolKey(kind, qn, signature, isTest === 1), qn);
  }
  for (const [module, names, alias, wildcard, reexport] of db.prepare(
    'SELECT module, names, alias, wildcard, reexport FROM imports WHERE file_id = ?').raw().all(fileId) as
    [string, string, string | null, number, number][]) {
    face.imports.set(importKey(module, names, alias, wildcard === 1, reexport === 1), boundNames(JSON.parse(names), alias));
  }
  return face;
}

function faceFromExtract(x: FileExtract): FileFace {
  const face: FileFace = { symbols: new Map(), imports: new Map(), tables: new Set(x.tables.map((t) => `${x.symbols[t.symbol].qualifiedName}:${t.table}`)) };
  for (const s of x.symbols) face.symbols.set(symbolKey(s.kind, s.qualifiedName, s.signature, s.isTest), s.qualifiedName);
  for (const i of x.imports) {
    face.imports.set(importKey(i.module, JSON.stringify(i.names), i.alias ?? null, !!i.wildcard, !!i.reexport),
      boundNames(i.names, i.alias ?? null));
  }
  return face;
}

function addQualified(into: Set<string>, qn: string): void {
  for (const part of qn.split('.')) into.add(part);
}

function importersOf(db: Database.Database, fileId: number): number[] {
  return db.prepare(`SELECT DISTINCT e.file_id FROM edges e JOIN symbols s ON s.id = e.dst_id
    WHERE e.kind = 'imports' AND s.file_id = ?`).pluck().all(fileId) as number[];
}

/** A file about to be removed (deleted, or now skipped): everything it offered changes. Call before removing it. */
export function recordRemoved(db: Database.Database, fileId: number, path: string, fp: ChangeFootprint): void {
  if (isDocumentFormat((db.prepare('SELECT language FROM files WHERE id = ?').pluck().get(fileId) as string | undefined) ?? '')) {
    // A document offers nothing to resolve by name (resolution reads code files only: src/store/load.ts), but an
    // import may have resolved to it (`import data from './data.json'`).
    for (const f of importersOf(db, fileId)) fp.importers.add(f);
    addModule(path, fp);
    return;
  }
  const face = faceFromDb(db, fileId);
  for (const qn of face.symbols.values()) addQualified(fp.names, qn);
  for (const names of face.imports.values()) for (const n of names) fp.importNames.add(n);
  for (const t of face.tables) fp.tables.add(t.slice(t.lastIndexOf(':') + 1));
  for (const f of importersOf(db, fileId)) fp.importers.add(f);
  addModule(path, fp);
  for (const k of inheritanceKeys(db, [fileId])) fp.inherits.add(k);
}

/** A file that is new to the index: everything it offers is new. */
export function recordAdded(x: FileExtract, fp: ChangeFootprint): void {
  addModule(x.path, fp);
  // A document's sections and keys are not definitions code resolves to (see recordRemoved); its path is a module an import may name.
  if (isDocumentFormat(x.language)) return;
  const face = faceFromExtract(x);
  for (const qn of face.symbols.values()) addQualified(fp.names, qn);
  for (const names of face.imports.values()) for (const n of names) fp.importNames.add(n);
  for (const t of face.tables) fp.tables.add(t.slice(t.lastIndexOf(':') + 1));
}

/** A file whose content changed: only what differs between its old and new definitions and imports. Call before replacing it. */
export function recordModified(db: Database.Database, fileId: number, x: FileExtract, fp: ChangeFootprint): void {
  // An edited document changes nothing code resolves (see recordRemoved): its path stays.
  if (isDocumentFormat(x.language)) return;
  const before = faceFromDb(db, fileId);
  const after = faceFromExtract(x);
  // Importers see this file's names through their own imports, so changed names reach them through
  // `names` and `importNames`; an import that brings unnamed things (`import *`, `export * from`)
  // widens their scope without a name, so any import change re-resolves the file's importers.
  let importsChanged = false;
  for (const [a, b] of [[before, after], [after, before]] as const) {
    for (const [key, qn] of a.symbols) if (!b.symbols.has(key)) addQualified(fp.names, qn);
    for (const [key, names] of a.imports) {
      if (b.imports.has(key)) continue;
      for (const n of names) fp.importNames.add(n);
      importsChanged = true;
    }
    for (const t of a.tables) if (!b.tables.has(t)) fp.tables.add(t.slice(t.lastIndexOf(':') + 1));
  }
  if (importsChanged) for (const f of importersOf(db, fileId)) fp.importers.add(f);
  for (const k of inheritanceKeys(db, [fileId])) fp.inherits.add(k);
}

function addModule(path: string, fp: ChangeFootprint): void {
  const parts = path.split('/');
  fp.modules.add(parts.pop()!.replace(/\..*$/, ''));
  for (const d of parts) fp.modules.add(d);
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
  const names = [...fp.names];
  if (names.length) {
    const last = (s: string) => s.split(/\.|::|->|\\|\//).pop() ?? s;
    const head = (s: string) => s.split(/[.(<[]|::|->|\\/)[0];
    // SQLite narrows to rows whose text contains a changed name at all; the exact test follows.
    for (const [fileId, name, receiver, receiverType] of candidates(db,
      'SELECT file_id, name, receiver, receiver_type FROM refs', ['name', 'receiver', 'receiver_type'], names) as
      [number, string, string | null, string | null][]) {
      if (out.has(fileId)) continue;
      if (fp.names.has(name) || (receiverType && (fp.names.has(last(receiverType)) || fp.names.has(head(receiverType))))
        || (receiver && (fp.names.has(head(receiver)) || fp.names.has(last(receiver))))) out.add(fileId);
    }
  }
  if (names.length) {
    // An override links a method to the same-named method of a supertype: a definition of that name
    // added, removed or altered anywhere may change the overrides of the methods so named.
    // One indexed lookup per name (symbols_name is case-insensitive); a scan when there are many.
    const exact = new Set(names);
    const byName = db.prepare("SELECT file_id, name FROM symbols WHERE name = ? COLLATE NOCASE AND kind = 'method'").raw();
    const rows = names.length > 40
      ? db.prepare("SELECT file_id, name FROM symbols WHERE kind = 'method'").raw().all() as [number, string][]
      : names.flatMap((n) => byName.all(n) as [number, string][]);
    for (const [fileId, name] of rows) if (exact.has(name)) out.add(fileId);
  }
  // A table access resolves to the class that declares the table, or to one named like it.
  const keys = new Set([...fp.tables, ...names].map(tableKey));
  if (keys.size) {
    for (const [fileId, name] of db.prepare(`SELECT file_id, name FROM refs WHERE detail = '{"what":"table"}'`).raw().all() as [number, string][]) {
      if (keys.has(tableKey(name))) out.add(fileId);
    }
  }
  const words = [...new Set([...names, ...fp.importNames, ...fp.modules])];
  if (words.length) {
    for (const [fileId, module, importNames] of candidates(db, 'SELECT file_id, module, names FROM imports',
      ['module', 'names'], words) as [number, string, string][]) {
      if (out.has(fileId)) continue;
      const tail = module.split(/\.|::|->|\\|\//).filter(Boolean).pop() ?? '';
      const stem = module.replace(/\.(js|ts|mjs|cjs|jsx|tsx|php|py)$/, '').split(/\.|::|->|\\|\//).filter(Boolean).pop() ?? '';
      if (fp.modules.has(tail) || fp.modules.has(stem) || fp.names.has(stem)
        || (JSON.parse(importNames) as { name: string }[]).some((n) => fp.names.has(n.name) || fp.importNames.has(n.name))) out.add(fileId);
    }
  }
  // Only files that still exist.
  const live = new Set(db.prepare('SELECT id FROM files').pluck().all() as number[]);
  for (const f of out) if (!live.has(f)) out.delete(f);
  return out;
}

/** Rows of `select` whose columns contain one of the words (all rows when there are many words). */
function candidates(db: Database.Database, select: string, columns: string[], words: string[]): unknown[][] {
  if (words.length > 40) return db.prepare(select).raw().all() as unknown[][];
  const conds = words.flatMap(() => columns.map((c) => `instr(${c}, ?) > 0`));
  const params = words.flatMap((w) => columns.map(() => w));
  return db.prepare(`${select} WHERE ${conds.join(' OR ')}`).raw().all(...params) as unknown[][];
}
