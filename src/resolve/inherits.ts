import type { RRef } from './types.js';
import { push, type ResolveContext } from './context.js';

/**
 * Supertypes: each `extends` / `implements` reference resolved to a repository type, with an edge
 * and an entry in the context's supertype table (method lookups anywhere go through it, so every
 * file's supertypes are resolved, also on an update that re-resolves a few files). A supertype from
 * outside the repository marks its subtypes, so members they do not declare count as external.
 */
export function resolveInherit(cx: ResolveContext, r: RRef): void {
  const subs = subtypesOf(cx, r);
  const hit = cx.resolveType(r.name, r.fileId, r.symbolId);
  // A type never extends itself: `class TestCase extends \PHPUnit\Framework\TestCase` names another one.
  const onlySelf = hit !== null && hit.ids.every((id) => subs.includes(id));
  if (!hit || onlySelf) {
    if (cx.isOutsideType(r.name, r.fileId, r.symbolId)) for (const sub of subs) cx.outsideSupers.add(sub);
    return;
  }
  for (const sub of subs) {
    for (const id of hit.ids) {
      if (id === sub) continue;
      const confidence = cx.confidence(hit, r.inError);
      cx.edge(sub, id, inheritKind(cx, r.kind, sub, id), confidence, r.line, r.fileId, null);
      push(cx.supers, sub, id);
      const key = `${sub}:${id}`;
      cx.superConfidence.set(key, Math.max(cx.superConfidence.get(key) ?? 0, confidence));
    }
  }
}

/**
 * A type "extending" an interface implements it: where the syntax does not tell a superclass from an
 * interface (Swift's `class A: B, P`), the target's kind does.
 */
export function inheritKind(cx: ResolveContext, kind: string, sub: number, sup: number): string {
  const isInterface = (id: number) => cx.symbols.get(id)!.kind === 'interface';
  return kind === 'extends' && isInterface(sup) && !isInterface(sub) ? 'implements' : kind;
}

/** The ref's own symbol, or the type an extension in another file names (`extension Foo: P`). */
export function subtypesOf(cx: ResolveContext, r: RRef): number[] {
  if (!r.receiver) return [r.symbolId];
  return cx.resolveType(r.receiver, r.fileId, r.symbolId)?.ids ?? [];
}
