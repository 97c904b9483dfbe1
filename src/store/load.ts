import type Database from 'better-sqlite3';
import { GLOBAL_REF_KINDS, type ResolveInput, type RFile, type RImport, type RRef, type RSymbol } from '../resolve/types.js';
import { DOCUMENT_FORMATS } from '../extract/documents/formats.js';

const GLOBAL_KINDS = GLOBAL_REF_KINDS.map((k) => `'${k}'`).join(', ');

/**
 * Everything resolution needs, read back from the tables the extraction filled. With `only`, call
 * refs are read for those files alone (the rest is resolved already).
 */
export function loadResolveInput(db: Database.Database, only?: ReadonlySet<number>): ResolveInput {
  return resolveInputFrom(db, loadResolveRows(db), only);
}

/**
 * One file's part of the resolve input: its row, symbols, imports and global refs (supertypes, declared tables). Call refs are
 * not kept: an update reads them for the files it re-resolves only.
 */
export interface FileResolveRows {
  file: RFile;
  symbols: RSymbol[];
  imports: RImport[];
  globalRefs: RRef[];
}

/** The resolve rows of the given files, or of every file. */
export function loadResolveRows(db: Database.Database, only?: ReadonlySet<number>): Map<number, FileResolveRows> {
  const where = (col: string) => (only ? `WHERE ${col} IN (SELECT value FROM json_each(?))` : '');
  const params = only ? [JSON.stringify([...only])] : [];
  const out = new Map<number, FileResolveRows>();
  // Documents have no imports or calls to resolve: only code files (and their rows) take part.
  const code = `language NOT IN (SELECT value FROM json_each('${JSON.stringify(DOCUMENT_FORMATS)}'))`;
  for (const [id, path, language, isTest, external] of db.prepare(`SELECT id, path, language, is_test, external FROM files
      ${only ? `${where('id')} AND ${code}` : `WHERE ${code}`}`).raw().iterate(...params) as Iterable<[number, string, string, number, number]>) {
    out.set(id, { file: { id, path, language, isTest: isTest === 1, external: external === 1 }, symbols: [], imports: [], globalRefs: [] });
  }
  // Within a file, rows come in an order defined by content (lines, names), never by ids where ids
  // differ between an updated index and a fresh build; imports and refs keep their file's order.
  for (const [id, fileId, parentId, name, qualifiedName, kind, exported, isTest, startLine, inError, scoped] of db.prepare(`SELECT id, file_id,
      parent_id, name, qualified_name, kind, exported, is_test, start_line, in_error, scoped FROM symbols ${where('file_id')}
      ORDER BY file_id, start_line, end_line DESC, kind, qualified_name`)
    .raw().iterate(...params) as Iterable<[number, number, number | null, string, string, string, number, number, number, number, number]>) {
    out.get(fileId)?.symbols.push({ id, fileId, parentId, name, qualifiedName, kind, exported: exported === 1, isTest: isTest === 1,
      startLine, inError: inError === 1, scoped: scoped === 1 });
  }
  for (const [id, fileId, module, names, alias, wildcard, reexport, line, inError] of db.prepare(`SELECT id, file_id, module, names, alias,
      wildcard, reexport, line, in_error FROM imports ${where('file_id')} ORDER BY id`).raw().iterate(...params) as
      Iterable<[number, number, string, string, string | null, number, number, number, number]>) {
    out.get(fileId)?.imports.push({
      id, fileId, module, names: JSON.parse(names), alias: alias ?? undefined, wildcard: wildcard === 1,
      reexport: reexport === 1, line, inError: inError === 1,
    });
  }
  for (const ref of refRows(db, `SELECT id, file_id, symbol_id, kind, name, receiver, receiver_type, line, in_error, detail FROM refs
      WHERE kind IN (${GLOBAL_KINDS}) ${only ? `AND file_id IN (SELECT value FROM json_each(?))` : ''} ORDER BY id`, params)) {
    out.get(ref.fileId)?.globalRefs.push(ref);
  }
  return out;
}

/** The previous rows with the given files read again (or dropped, when they are gone). */
export function patchResolveRows(db: Database.Database, previous: Map<number, FileResolveRows>, files: ReadonlySet<number>):
  Map<number, FileResolveRows> {
  const out = new Map(previous);
  for (const id of files) out.delete(id);
  for (const [id, rows] of loadResolveRows(db, files)) out.set(id, rows);
  return out;
}

/** The resolve input from per-file rows, files in path order, with the call refs of `only` (or all) read now. */
export function resolveInputFrom(db: Database.Database, rows: Map<number, FileResolveRows>, only?: ReadonlySet<number>): ResolveInput {
  // Path order as SQLite sorts (bytes), the order a fresh build reads files in.
  const order = (db.prepare('SELECT id FROM files ORDER BY path').pluck().all() as number[]).filter((id) => rows.has(id));
  const files: RFile[] = [];
  const symbols: RSymbol[] = [];
  const imports: RImport[] = [];
  const refs: RRef[] = [];
  for (const id of order) {
    const r = rows.get(id)!;
    files.push(r.file);
    for (const s of r.symbols) symbols.push(s);
    for (const i of r.imports) imports.push(i);
    for (const t of r.globalRefs) refs.push(t);
  }
  const calls = refRows(db, `SELECT id, file_id, symbol_id, kind, name, receiver, receiver_type, line, in_error, detail FROM refs
    WHERE kind NOT IN (${GLOBAL_KINDS}) ${only ? 'AND file_id IN (SELECT value FROM json_each(?))' : ''} ORDER BY id`,
  only ? [JSON.stringify([...only])] : []);
  const pos = new Map(order.map((id, i) => [id, i]));
  // Stable: within a file, call refs keep their row order.
  calls.sort((a, b) => (pos.get(a.fileId) ?? Infinity) - (pos.get(b.fileId) ?? Infinity));
  for (const c of calls) if (pos.has(c.fileId)) refs.push(c);
  const signature = db.prepare('SELECT signature FROM symbols WHERE id = ?').pluck();
  const signatureOf = (id: number) => (signature.get(id) as string | undefined) ?? null;
  const externalModules = new Map<string, Map<string, number[]>>();
  for (const [language, module, fileId] of db.prepare('SELECT language, module, file_id FROM external_modules ORDER BY file_id').raw().all() as
    [string, string, number][]) {
    if (!rows.has(fileId)) continue;
    let byModule = externalModules.get(language);
    if (!byModule) externalModules.set(language, (byModule = new Map()));
    byModule.set(module, [...(byModule.get(module) ?? []), fileId]);
  }
  return { files, symbols, imports, refs, signatureOf, only, externalModules };
}

/** Rows read one at a time (iterate): a whole result of arrays, e.g. Go's 400k references, was most of the read's garbage collection. */
function refRows(db: Database.Database, sql: string, params: unknown[]): RRef[] {
  const out: RRef[] = [];
  for (const [id, fileId, symbolId, kind, name, receiver, receiverType, line, inError, detail] of db.prepare(sql).raw().iterate(...params) as
    Iterable<[number, number, number, RRef['kind'], string, string | null, string | null, number, number, string | null]>) {
    out.push({ id, fileId, symbolId, kind, name, receiver, receiverType, line, inError: inError === 1, detail });
  }
  return out;
}
