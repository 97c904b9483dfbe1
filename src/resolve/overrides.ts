import { ERROR_FACTOR, MAX_SUPER_DEPTH, type ResolveContext } from './context.js';

/**
 * Overrides: a method -> the method of the same name that it overrides or implements in its nearest
 * supertypes (a subclass's `display_name` -> the base class's, a class's method -> the interface's or
 * trait's declaration, a Go method of a struct -> the one of a struct it embeds, which it shadows).
 * Where two supertypes of the same level declare the name, the method overrides both.
 *
 * Confidence: the supertype edges' on the way up (how surely the supertype is that type) times
 * NAME_MATCH, since a same-named method of a known supertype is an override in every one of the
 * languages but for overloads and private methods, which the index does not tell apart.
 */
const NAME_MATCH = 0.95;
const OVERRIDABLE = new Set(['method', 'function']);

export function addOverrides(cx: ResolveContext): void {
  for (const s of cx.input.symbols) {
    if (s.kind !== 'method' || !cx.emits(s.fileId) || cx.isConstructorLike(s.id)) continue;
    const type = cx.enclosingType(s.id);
    if (type === null || !cx.supers.has(type)) continue;
    for (const o of overridden(cx, type, s.name)) {
      if (o.id === s.id) continue;
      const confidence = Math.round(o.confidence * NAME_MATCH * (s.inError ? ERROR_FACTOR : 1) * 1000) / 1000;
      cx.edge(s.id, o.id, 'overrides', confidence, s.startLine, s.fileId, null);
    }
  }
}

/** Methods named `name` in the nearest level of supertypes that has any, with the confidence of the way there. */
function overridden(cx: ResolveContext, type: number, name: string): { id: number; confidence: number }[] {
  const seen = new Set([type]);
  let level = [{ id: type, confidence: 1 }];
  for (let d = 0; d < MAX_SUPER_DEPTH && level.length; d++) {
    const next: { id: number; confidence: number }[] = [];
    for (const t of level) {
      for (const sup of cx.supers.get(t.id) ?? []) {
        if (seen.has(sup)) continue;
        seen.add(sup);
        next.push({ id: sup, confidence: t.confidence * (cx.superConfidence.get(`${t.id}:${sup}`) ?? 0) });
      }
    }
    const hits = next.flatMap((t) => cx.ownMembers(t.id, name)
      .filter((id) => OVERRIDABLE.has(cx.symbols.get(id)!.kind))
      .map((id) => ({ id, confidence: t.confidence })));
    if (hits.length) return hits;
    level = next;
  }
  return [];
}
