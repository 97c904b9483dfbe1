import type { RRef } from './types.js';
import { ERROR_FACTOR, type ResolveContext } from './context.js';
import { callTarget } from './calls.js';

/**
 * Registrations: a route's endpoint, or the code that registers a hook or event handler, -> the
 * callback (`registers`, target `kind:name`); and the code that fires a hook or event by name
 * (`fires`, no callback to resolve: the target links it to the registrations of the same name, when
 * the graph is read). The callback is the decorated or annotated definition itself, or a name looked
 * up as a call of it would be (`'on_init'`, `[$this, 'm']`, `UserController@show`, `self.handle`).
 */

/** A callback named by a string that only a repository-wide match finds (PHP looks such names up globally): one candidate is likely it. */
const UNIQUE_LITERAL_CONFIDENCE = 0.8;

interface Detail {
  target: string;
  handler?: string;
  literal?: boolean;
}

export function resolveRegistration(cx: ResolveContext, r: RRef): void {
  const d = detailOf(r);
  if (!d) return;
  const errorFactor = r.inError ? ERROR_FACTOR : 1;
  if (r.kind === 'fire') {
    cx.edge(r.symbolId, null, 'fires', errorFactor, r.line, r.fileId, d.target);
    return;
  }
  let hit = null;
  if (d.handler) {
    const ids = (cx.byQualified.get(d.handler) ?? []).filter((id) => cx.symbols.get(id)!.fileId === r.fileId);
    hit = ids.length ? { ids: annotatedOne(cx, ids, r.line), tier: 'local' as const } : null;
  } else if (r.name) {
    const t = callTarget(cx, r);
    // A repository-wide name match stands only for a name written as a string (PHP looks such callbacks
    // up globally at run time); a callback written as a name or with its class or object is in scope, or unknown.
    hit = t === 'external' || t === 'value' || (t?.tier === 'global' && (r.receiver || !d.literal)) ? null : t;
    if (hit) hit = { ...hit, ids: nearestInFile(cx, hit.ids, r) };
    cx.refStates.set(r.id, t === 'external' ? 'external' : hit?.ids.length ? hit.tier : 'unresolved');
  }
  if (!hit?.ids.length) {
    // The registration stands, with its name, whatever the callback is (an inline function, something outside).
    cx.edge(r.symbolId, null, 'registers', errorFactor, r.line, r.fileId, d.target);
    return;
  }
  let confidence = cx.confidence(hit, r.inError);
  if (hit.tier === 'global' && hit.ids.length === 1 && d.literal) confidence = Math.round(UNIQUE_LITERAL_CONFIDENCE * errorFactor * 1000) / 1000;
  for (const id of new Set(hit.ids)) if (id !== r.symbolId) cx.edge(r.symbolId, id, 'registers', confidence, r.line, r.fileId, d.target);
}

/**
 * The definition a decorator or annotation on `line` belongs to, among same-named ones (Java overloads:
 * six `validExample` methods, each with its own `@POST @Path`; a Python property and its setter): the
 * first that starts at or after the line, as an annotation is written at or above its definition.
 */
function annotatedOne(cx: ResolveContext, ids: number[], line: number): number[] {
  if (ids.length < 2) return ids;
  const defs = ids.map((id) => cx.symbols.get(id)!).sort((a, b) => a.startLine - b.startLine);
  return [(defs.find((s) => s.startLine >= line) ?? defs[defs.length - 1]).id];
}

/**
 * Several same-named definitions of the registration's own file (a test file's many `const handler`
 * in blocks that are no symbols): the nearest one written before the registration is the one in scope.
 */
function nearestInFile(cx: ResolveContext, ids: number[], r: RRef): number[] {
  const local = ids.map((id) => cx.symbols.get(id)!).filter((s) => s.fileId === r.fileId);
  if (local.length < 2 || local.length !== ids.length) return ids;
  const before = local.filter((s) => s.startLine <= r.line).sort((a, b) => b.startLine - a.startLine);
  return [(before[0] ?? local.sort((a, b) => a.startLine - b.startLine)[0]).id];
}

function detailOf(r: RRef): Detail | null {
  try {
    const d = JSON.parse(r.detail ?? '') as Detail;
    return typeof d?.target === 'string' ? d : null;
  } catch {
    return null;
  }
}
