import type Database from 'better-sqlite3';
import type { FileExtract } from '../extract/types.js';
import { tableKey } from '../extract/accesses.js';
import { isDocumentFormat } from '../extract/documents/formats.js';
import type { EdgeRow } from '../store/writer.js';

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
 * supertypes reach further: every lookup on a type whose supertypes changed, or on one of its subtypes,
 * goes another way (supertypeFiles). test/incremental.test.ts checks the result against full builds.
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
  /** Supertype edges written in the changed and removed files before the change: [subtype, supertype] symbol ids. */
  supers: [number, number][];
  /** The bases each type of the modified files names, as written before the change (`extends Foo`, `class A(B)`), by symbol id. */
  bases: Map<number, string>;
  /** Tables that classes of the changed files declared before or declare now (`__tablename__`...). */
  tables: Set<string>;
}

export function emptyFootprint(): ChangeFootprint {
  return { names: new Set(), importNames: new Set(), modules: new Set(), importers: new Set(), supers: [], bases: new Map(), tables: new Set() };
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

/**
 * A definition into the face, the n-th of identical ones keyed apart: two `def load(self)` in one class
 * are two candidates of a name match, so removing one of them is a change (it was invisible to a map of
 * keys, and a call matched to it kept an edge to a symbol that no longer existed).
 */
function addSymbol(face: FileFace, key: string, qn: string): void {
  let n = 0;
  while (face.symbols.has(`${key}\0${n}`)) n++;
  face.symbols.set(`${key}\0${n}`, qn);
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
    addSymbol(face, symbolKey(kind, qn, signature, isTest === 1), qn);
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
  for (const s of x.symbols) addSymbol(face, symbolKey(s.kind, s.qualifiedName, s.signature, s.isTest), s.qualifiedName);
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
  fp.supers.push(...supertypeEdges(db, fileId));
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
  fp.supers.push(...supertypeEdges(db, fileId));
  for (const [id, written] of basesOf(db, [fileId])) fp.bases.set(id, written);
}

function addModule(path: string, fp: ChangeFootprint): void {
  const parts = path.split('/');
  fp.modules.add(parts.pop()!.replace(/\..*$/, ''));
  for (const d of parts) fp.modules.add(d);
}

/** The extends/implements edges written in a file (an extension's may start at a type of another file). */
function supertypeEdges(db: Database.Database, fileId: number): [number, number][] {
  return db.prepare(`SELECT src_id, dst_id FROM edges WHERE file_id = ? AND kind IN ('extends', 'implements') AND dst_id IS NOT NULL`)
    .raw().all(fileId) as [number, number][];
}

/** Per type of these files, the bases it names as written (kind, name, and the extended type's name for an extension). */
export function basesOf(db: Database.Database, fileIds: number[]): Map<number, string> {
  const out = new Map<number, string[]>();
  for (const [id, kind, name, owner] of db.prepare(`SELECT symbol_id, kind, name, receiver FROM refs
      WHERE kind IN ('extends', 'implements') AND file_id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(fileIds)) as
      [number, string, string, string | null][]) {
    (out.get(id) ?? out.set(id, []).get(id)!).push(`${kind} ${name} ${owner ?? ''}`);
  }
  return new Map([...out].map(([id, list]) => [id, list.sort().join('\n')]));
}

/**
 * The files to re-resolve, beyond `only` (affectedFiles'), because supertypes changed. A type's supertypes
 * change only where its base names resolve differently, so only in files already in `only` (the modified
 * ones, and those whose references name what changed): their supertype edges before (the database's, and
 * `fp.supers` for the files rewritten) are compared with the resolver's `edges`, and every type's supertypes
 * after the change are `supers`. A lookup goes through a type's supertypes only for a receiver of that type
 * (declared, constructed, cast, returned by a function, or named as in `Type.create()`), `self`/`this`/
 * `super` in its methods, its methods' overrides and members imported from it: so for the types whose
 * supertypes or written bases changed and their subtypes (before and after), the files that define them or
 * methods of them, and the files whose references, receivers or imports name one of them or a function whose
 * signature does. Changing a base class of Django's `Q` re-resolved all 882 files (751 ms) before this.
 */
export function supertypeFiles(db: Database.Database, fp: ChangeFootprint, only: ReadonlySet<number>, modifiedIds: number[],
  edges: EdgeRow[], supers: Map<number, number[]>): Set<number> {
  const add = (m: Map<number, Set<number>>, k: number, v: number) => (m.get(k) ?? m.set(k, new Set()).get(k)!).add(v);
  const isSuper = (kind: string) => kind === 'extends' || kind === 'implements';
  const modified = new Set(modifiedIds);
  const before = new Map<number, Set<number>>();
  // Indexed by file (edges_file): a scan of every edge took 1.2 s on Go's standard library.
  for (const [src, dst] of db.prepare(`SELECT src_id, dst_id FROM edges WHERE file_id IN (SELECT value FROM json_each(?))
      AND kind IN ('extends', 'implements') AND dst_id IS NOT NULL`).raw().all(JSON.stringify([...only].filter((f) => !modified.has(f)))) as
      [number, number][]) add(before, src, dst);
  for (const [src, dst] of fp.supers) add(before, src, dst);
  const now = new Map<number, Set<number>>();
  for (const e of edges) if (isSuper(e.kind) && e.dst !== null) add(now, e.src, e.dst);
  const changed = new Set<number>();
  for (const id of new Set([...before.keys(), ...now.keys()])) {
    const a = before.get(id) ?? new Set<number>();
    const b = now.get(id) ?? new Set<number>();
    if (a.size !== b.size || [...a].some((x) => !b.has(x))) changed.add(id);
  }
  const after = basesOf(db, modifiedIds);
  for (const id of new Set([...fp.bases.keys(), ...after.keys()])) if (fp.bases.get(id) !== after.get(id)) changed.add(id);
  const out = new Set<number>();
  if (!changed.size) return out;
  // Their subtypes, through the supertype edges before the change (the database's, by supertype: edges_dst; and
  // those of the files rewritten) and after it.
  const subs = new Map<number, Set<number>>();
  for (const [src, dsts] of before) for (const d of dsts) add(subs, d, src);
  for (const [src, dsts] of supers) for (const d of dsts) add(subs, d, src);
  const subtypesBefore = db.prepare(`SELECT src_id FROM edges WHERE dst_id = ? AND kind IN ('extends', 'implements')`).pluck();
  const types = new Set(changed);
  for (let frontier = [...changed]; frontier.length;) {
    const next: number[] = [];
    for (const t of frontier) for (const s of [...(subs.get(t) ?? []), ...(subtypesBefore.all(t) as number[])]) if (!types.has(s)) {
      types.add(s);
      next.push(s);
    }
    frontier = next;
  }
  const qualified = new Set<string>();
  const names = new Set<string>();
  const row = db.prepare('SELECT file_id, name, qualified_name FROM symbols WHERE id = ?').raw();
  for (const id of types) {
    const r = row.get(id) as [number, string, string] | undefined;
    if (!r) continue; // gone with its file or renamed: the names of removed definitions reach its users (affectedFiles)
    out.add(r[0]);
    names.add(r[1]);
    qualified.add(r[2]);
    addQualified(names, r[2]);
  }
  // Methods declared apart from their type (Go receivers, Swift extensions), and functions that say they return one of the types.
  const returning = new Set<string>();
  for (const [fileId, name, qn, signature] of db.prepare(`SELECT file_id, name, qualified_name, signature FROM symbols
      WHERE kind IN ('method', 'function')`).raw().all() as [number, string, string, string][]) {
    const dot = qn.lastIndexOf('.');
    if (dot > 0 && qualified.has(qn.slice(0, dot))) out.add(fileId);
    if (signature.split(/[^\w$]+/).some((w) => names.has(w))) returning.add(name);
  }
  addRefsNaming(db, new Set([...names, ...returning]), out);
  // Members imported from a type (Java's `import static pkg.Type.member`).
  if (names.size) for (const [fileId, module, importNames] of candidates(db, 'SELECT file_id, module, names FROM imports', ['module', 'names'], [...names]) as
    [number, string, string][]) {
    if (module.split(/[^\w$]+/).some((w) => names.has(w)) || (JSON.parse(importNames) as { name: string }[]).some((n) => names.has(n.name))) out.add(fileId);
  }
  return out;
}

/** The files to re-resolve: the changed ones and every file whose resolution may depend on them. */
export function affectedFiles(db: Database.Database, changed: number[], fp: ChangeFootprint): Set<number> {
  const out = new Set<number>(changed);
  for (const f of fp.importers) out.add(f);
  const names = [...fp.names];
  if (names.length) {
    addRefsNaming(db, fp.names, out);
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

/** Adds the files with a reference named one of `names`, or whose receiver or its type is one (its first or last part). */
function addRefsNaming(db: Database.Database, names: Set<string>, out: Set<number>): void {
  if (!names.size) return;
  // A receiver type `F#1` is the second result of a call of F (src/extract/extract.ts, bindingScopes).
  const last = (s: string) => s.replace(/#\d+$/, '').split(/\.|::|->|\\|\//).pop() ?? s;
  const head = (s: string) => s.replace(/#\d+$/, '').split(/[.(<[]|::|->|\\/)[0];
  // SQLite narrows to rows whose text contains a name at all; the exact test follows.
  for (const [fileId, name, receiver, receiverType] of candidates(db,
    'SELECT file_id, name, receiver, receiver_type FROM refs', ['name', 'receiver', 'receiver_type'], [...names]) as
    [number, string, string | null, string | null][]) {
    if (out.has(fileId)) continue;
    if (names.has(name) || (receiverType && (names.has(last(receiverType)) || names.has(head(receiverType))))
      || (receiver && (names.has(head(receiver)) || names.has(last(receiver))))) out.add(fileId);
  }
}

/** Rows of `select` whose columns contain one of the words (all rows when there are many words). */
function candidates(db: Database.Database, select: string, columns: string[], words: string[]): unknown[][] {
  if (words.length > 40) return db.prepare(select).raw().all() as unknown[][];
  const conds = words.flatMap(() => columns.map((c) => `instr(${c}, ?) > 0`));
  const params = words.flatMap((w) => columns.map(() => w));
  return db.prepare(`${select} WHERE ${conds.join(' OR ')}`).raw().all(...params) as unknown[][];
}
