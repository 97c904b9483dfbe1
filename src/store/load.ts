import type Database from 'better-sqlite3';
import type { ResolveInput, RImport, RRef } from '../resolve/types.js';

/**
 * Everything resolution needs, read back from the tables the extraction filled. With `only`, call
 * refs are read for those files alone (the rest is resolved already).
 */
export function loadResolveInput(db: Database.Database, only?: ReadonlySet<number>): ResolveInput {
  const files = (db.prepare('SELECT id, path, language, is_test FROM files').raw().all() as [number, string, string, number][])
    .map(([id, path, language, isTest]) => ({ id, path, language, isTest: isTest === 1 }));
  const symbols = (db.prepare(`SELECT id, file_id, parent_id, name, qualified_name, kind, exported, is_test FROM symbols`)
    .raw().all() as [number, number, number | null, string, string, string, number, number][])
    .map(([id, fileId, parentId, name, qualifiedName, kind, exported, isTest]) => ({
      id, fileId, parentId, name, qualifiedName, kind, exported: exported === 1, isTest: isTest === 1,
    }));
  const imports = (db.prepare(`SELECT id, file_id, module, names, alias, wildcard, reexport, line, in_error FROM imports ORDER BY id`)
    .raw().all() as [number, number, string, string, string | null, number, number, number, number][])
    .map(([id, fileId, module, names, alias, wildcard, reexport, line, inError]): RImport => ({
      id, fileId, module, names: JSON.parse(names), alias: alias ?? undefined, wildcard: wildcard === 1,
      reexport: reexport === 1, line, inError: inError === 1,
    }));
  const filter = only ? `WHERE kind != 'call' OR file_id IN (SELECT value FROM json_each(?))` : '';
  const refs = (db.prepare(`SELECT id, file_id, symbol_id, kind, name, receiver, receiver_type, line, in_error FROM refs
      ${filter} ORDER BY id`)
    .raw().all(...(only ? [JSON.stringify([...only])] : [])) as
      [number, number, number, RRef['kind'], string, string | null, string | null, number, number][])
    .map(([id, fileId, symbolId, kind, name, receiver, receiverType, line, inError]): RRef => ({
      id, fileId, symbolId, kind, name, receiver, receiverType, line, inError: inError === 1,
    }));
  const signature = db.prepare('SELECT signature FROM symbols WHERE id = ?').pluck();
  const signatureOf = (id: number) => (signature.get(id) as string | undefined) ?? null;
  return { files, symbols, imports, refs, signatureOf, only };
}
