import { languageById } from '../lang/registry.js';
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
    for (const o of sameShape(cx, s.id, s.name, overridden(cx, type, s.name))) {
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

/**
 * The candidates whose parameter list has the method's shape. In a language with argument labels the
 * labels are part of the name (Swift's `authenticate(request:)` is not `authenticate(basic:for:)`): only
 * those with the same labels are kept. Elsewhere, among several same-named candidates (Java's or
 * Kotlin's overloads), those with as many parameters; when none has as many (a Python override that
 * adds a keyword argument), all are kept.
 */
function sameShape(cx: ResolveContext, id: number, name: string, hits: { id: number; confidence: number }[]): { id: number; confidence: number }[] {
  const signatureOf = cx.input.signatureOf;
  if (!hits.length || !signatureOf) return hits;
  const labels = !!languageById(cx.files.get(cx.symbols.get(id)!.fileId)!.language).argumentLabels;
  if (hits.length < 2 && !labels) return hits;
  const shape = (sid: number) => {
    const sig = signatureOf(sid);
    return sig === null ? null : parameterShape(sig, name, labels);
  };
  const own = shape(id);
  if (own === null) return hits;
  const kept = hits.filter((h) => { const other = shape(h.id); return other === null || other === own; });
  return kept.length || labels ? kept : hits;
}

/** The parameter count (or, with labels, the labels) of the first parameter list after `name` in a signature. */
export function parameterShape(signature: string, name: string, labels: boolean): string | null {
  const at = signature.indexOf(name);
  const open = signature.indexOf('(', at < 0 ? 0 : at + name.length);
  if (open < 0) return null;
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = open + 1; i < signature.length; i++) {
    const c = signature[i];
    if ('([{<'.includes(c)) depth++;
    else if (')]}'.includes(c) || (c === '>' && signature[i - 1] !== '-' && signature[i - 1] !== '=')) {
      if (depth === 0) {
        if (cur.trim()) parts.push(cur.trim());
        return labels ? parts.map((p) => p.split(/[\s:]/)[0]).join(',') : String(parts.length);
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  return null;
}
