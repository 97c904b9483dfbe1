import { tableKey } from '../extract/accesses.js';
import type { RRef } from './types.js';
import { ERROR_FACTOR, push, type ResolveContext } from './context.js';

/**
 * Data access: each read or write (src/extract/accesses.ts) -> what holds the data.
 *   field   the type the receiver is (self's enclosing type, a bound type, a class named as receiver),
 *           or the member of that name when the type declares it as a symbol; `target` = the field.
 *           A module receiver (`config.DEBUG`) leads to the module's constant instead.
 *   global  the constant or top-level definition the name is in scope as.
 *   model   the class named.
 *   table   the class that declares the table (`__tablename__`...), else a class named like it
 *           (`users` -> `User`, at lower confidence), else nothing: the edge keeps `table:<name>`.
 * Nothing is guessed from a name alone for fields: a receiver of unknown type is no edge.
 */

/** A class named like a table, without declaring it: likely the model, not certain. */
const NAMED_LIKE_TABLE = 0.6;
/** A global or field read through a name in scope, or a declared table. */
const DECLARED = 0.9;
const MAX_NAMED_LIKE = 2;

export function resolveAccess(cx: ResolveContext, r: RRef): void {
  const what = whatOf(r);
  const kind = r.kind === 'read' ? 'reads' : 'writes';
  const factor = r.inError ? ERROR_FACTOR : 1;
  const emit = (ids: number[], confidence: number, target: string | null) => {
    const c = Math.round(confidence * factor * 1000) / 1000;
    for (const id of new Set(ids)) if (id !== r.symbolId) cx.edge(r.symbolId, id, kind, c, r.line, r.fileId, target);
  };
  if (what === 'table') {
    const declared = cx.tableOwners.get(r.name.toLowerCase());
    if (declared?.length) return emit(declared, DECLARED, `table:${r.name}`);
    const named = cx.classesByTableKey().get(tableKey(r.name)) ?? [];
    if (named.length && named.length <= MAX_NAMED_LIKE) return emit(named, NAMED_LIKE_TABLE / named.length, `table:${r.name}`);
    cx.edge(r.symbolId, null, kind, factor, r.line, r.fileId, `table:${r.name}`);
    return;
  }
  if (what === 'model') {
    const t = cx.resolveType(r.name, r.fileId, r.symbolId);
    if (t) emit(t.ids, cx.confidence(t, false), null);
    return;
  }
  if (what === 'global' || r.receiver === null) {
    const hit = cx.lookupName(r.name, r.fileId, r.symbolId, (id) => cx.symbols.get(id)!.kind === 'constant', false);
    if (hit) emit(hit.ids, cx.confidence(hit, false), null);
    return;
  }
  const field = fieldHolder(cx, r);
  if (field) emit(field.ids, field.confidence, field.target);
}

/** The type or module constant a field access reaches, or null when the receiver's type is not known. */
function fieldHolder(cx: ResolveContext, r: RRef): { ids: number[]; confidence: number; target: string | null } | null {
  const receiver = r.receiver!.replace(/\s+/g, '');
  const spec = cx.spec(r.fileId);
  let types: number[] = [];
  let confidence = DECLARED;
  if (spec.selfNames.includes(receiver)) {
    const t = cx.enclosingType(r.symbolId);
    if (t !== null) types = [t];
  } else {
    const bound = cx.scopeOf(r.fileId).names.get(receiver);
    if (bound?.kind === 'external') return null;
    if (bound?.kind === 'module') {
      const ids = cx.exportedFrom(bound.files, r.name, new Set()).filter((id) => cx.symbols.get(id)!.kind === 'constant');
      return ids.length ? { ids, confidence: DECLARED, target: null } : null;
    }
    const written = r.receiverType ?? (/^[A-Z]\w*$/.test(receiver) ? receiver : null);
    const t = written ? cx.resolveType(written, r.fileId, r.symbolId) : null;
    if (!t) return null;
    types = t.ids;
    confidence = cx.confidence(t, false);
  }
  if (!types.length) return null;
  // A member the type declares as a symbol (a constant, an object member): the access is to it. A
  // method of the name does not make it one: Java fields and methods share names, getters read.
  const member = cx.memberOf(types, r.name, false)?.ids.filter((id) => !['method', 'function'].includes(cx.symbols.get(id)!.kind)) ?? [];
  if (member.length) return { ids: member, confidence, target: null };
  return { ids: types, confidence, target: r.name };
}

function whatOf(r: RRef): string {
  try {
    return (JSON.parse(r.detail ?? '{}') as { what?: string }).what ?? 'field';
  } catch {
    return 'field';
  }
}

/** Declared tables, from every file's `table` refs (loaded with the global refs). */
export function declareTable(cx: ResolveContext, r: RRef): void {
  push(cx.tableOwners, r.name.toLowerCase(), r.symbolId);
}
