import type Database from 'better-sqlite3';
import type { ResolveInput, RImport, RRef } from '../resolve/types.js';

/**
 * Everything resolution needs, read back from the tables the extraction filled. With `only`, call
 * refs are read for those files alone (the rest is resolved already).
 */
export function loadResolveInput(db: Database.Database, only?: ReadonlySet<number>): ResolveInput {
  // Rows come in an order defined by content (paths, lines), never by ids: an incrementally updated index
  // and a fresh build number things differently, and resolution must not notice.
  const files = (db.prepare('SELECT id, path, language, is_test FROM files ORDER BY path').raw().all() as [number, string, string, number][])
    .map(([id, path, language, isTest]) => ({ id, path, language, isTest: isTest === 1 }));
  const symbols = (db.prepare(`SELECT s.id, s.file_id, s.parent_id, s.name, s.qualified_name, s.kind, s.exported, s.is_test
      FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.start_line, s.end_line DESC, s.kind, s.qualified_name`)
    .raw().all() as [number, number, number | null, string, string, string, number, number][])
    .map(([id, fileId, parentId, name, qualifiedName, kind, exported, isTest]) => ({
      id, fileId, parentId, name, qualifiedName, kind, exported: exported === 1, isTest: isTest === 1,
    }));
  const imports = (db.prepare(`SELECT i.id, i.file_id, i.module, i.names, i.alias, i.wildcard, i.reexport, i.line, i.in_error
      FROM imports i JOIN files f ON f.id = i.file_id ORDER BY f.path, i.id`)
    .raw().all() as [number, number, string, string, string | null, number, number, number, number][])
    .map(([id, fileId, module, names, alias, wildcard, reexport, line, inError]): RImport => ({
      id, fileId, module, names: JSON.parse(names), alias: alias ?? undefined, wildcard: wildcard === 1,
      reexport: reexport === 1, line, inError: inError === 1,
    }));
  const filter = only ? `WHERE kind != 'call' OR file_id IN (SELECT value FROM json_each(?))` : '';
  const refs = (db.prepare(`SELECT r.id, r.file_id, r.symbol_id, r.kind, r.name, r.receiver, r.receiver_type, r.line, r.in_error
      FROM refs r JOIN files f ON f.id = r.file_id ${filter.replace(/kind|file_id/g, (c) => `r.${c}`)} ORDER BY f.path, r.id`)
    .raw().all(...(only ? [JSON.stringify([...only])] : [])) as
      [number, number, number, RRef['kind'], string, string | null, string | null, number, number][])
    .map(([id, fileId, symbolId, kind, name, receiver, receiverType, line, inError]): RRef => ({
      id, fileId, symbolId, kind, name, receiver, receiverType, line, inError: inError === 1,
    }));
  const signature = db.prepare('SELECT signature FROM symbols WHERE id = ?').pluck();
  const signatureOf = (id: number) => (signature.get(id) as string | undefined) ?? null;
  return { files, symbols, imports, refs, signatureOf, only };
}
