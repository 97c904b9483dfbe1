import { languageById } from '../lang/registry.js';
import type { RRef } from './types.js';
import { HOLDER_KINDS, headOf, type Hit, type ResolveContext } from './context.js';

/**
 * Calls: each call site resolved by scope (definitions around it, the file's imports, its package),
 * by the receiver's type (self, declared, constructed, cast or returned types, then supertypes), by
 * paths written in code, and only then by a repository-wide name match; calls of builtins and through
 * dependencies count as external.
 */
export function resolveCall(cx: ResolveContext, r: RRef): void {
  const hit = callTarget(cx, r);
  if (hit === 'external' || hit === 'value' || !hit || !hit.ids.length) {
    cx.refStates.set(r.id, hit === 'external' || hit === 'value' ? hit : 'unresolved');
    return;
  }
  // A call of a dependency's declaration (src/indexer/external.ts) is still a call outside the repository.
  cx.refStates.set(r.id, hit.ids.every((id) => cx.files.get(cx.symbols.get(id)!.fileId)?.external) ? 'external' : hit.tier);
  const conf = cx.confidence(hit, r.inError);
  for (const id of new Set(hit.ids)) if (id !== r.symbolId) cx.edge(r.symbolId, id, 'calls', conf, r.line, r.fileId, null);
}

/**
 * What the extraction recorded about a call (CallSite.local, CallSite.receiverHead): the line of the
 * definition a scope around the call binds its name to (0: a parameter or variable), the type of the
 * receiver chain's first variable.
 */
function callDetail(r: RRef): { local?: number; head?: string } {
  return r.detail ? (JSON.parse(r.detail) as { local?: number; head?: string }) : {};
}

/**
 * Where a call goes: repository symbols (with the tier that found them), 'external' (a builtin, a
 * dependency), 'value' (a parameter or local variable: no definition to link), or null (unknown).
 */
export function callTarget(cx: ResolveContext, r: RRef): Hit | 'external' | 'value' | null {
  const spec = languageById(cx.files.get(r.fileId)!.language);
  const callable = (id: number) => cx.symbols.get(id)!.kind !== 'module';
  const detail = callDetail(r);
  if (!r.receiver) {
    const local = detail.local;
    if (typeof local === 'number') return local > 0 ? cx.definedAt(r.fileId, r.name, local) : 'value';
    const hit = cx.lookupName(r.name, r.fileId, r.symbolId, callable, false);
    if (hit) return hit;
    if (cx.isExternalName(r.name, r.fileId)) return 'external';
    return inheritedFromOutside(cx, r) ?? cx.globalName(r.name, callable, r.fileId);
  }

  const receiver = r.receiver.replace(/\s+/g, '');
  // `"a b".split(" ")`, `42.toString()`, `Foo.class.getName()`: literals are built-in values.
  if (/^["'`\d]|\.class$/.test(receiver)) return 'external';
  const isSuper = (spec.superReceiver ?? /^super$/).test(receiver);
  if (spec.selfNames.includes(receiver) || isSuper) {
    const type = cx.enclosingType(r.symbolId);
    const guess = () => (spec.builtinMethods?.has(r.name) ? null : cx.globalMember(r.name, r.fileId));
    if (type === null) return guess();
    const m = cx.memberOf([type], r.name, isSuper);
    if (m) return m;
    // `$this->assertSame()` in a PHPUnit TestCase, `self.assertEqual()` in a unittest.TestCase.
    return cx.extendsOutside(type) ? 'external' : guess();
  }
  if (r.receiverType) {
    const t = cx.resolveType(r.receiverType, r.fileId, r.symbolId);
    if (t) {
      const m = cx.memberOf(t.ids, r.name, false);
      if (m) return m;
      if (t.ids.some((id) => cx.extendsOutside(id))) return 'external';
      if (cx.isBuiltin(r.name, r.fileId)) return 'external'; // `product.getClass()`: Object's, not ours
    } else if (cx.isExternalName(headOf(r.receiverType), r.fileId)) {
      // A variable of a dependency's or the language's type (`List<Foo> xs`, `err error`): its methods are not ours.
      return 'external';
    } else {
      const returned = cx.returnedType(r.receiverType, r.fileId, r.symbolId);
      const m = returned && cx.memberOf(returned.ids, r.name, false);
      if (m) return m;
    }
  }
  const bound = cx.scopeOf(r.fileId).names.get(receiver);
  if (bound?.kind === 'external') return 'external';
  if (bound?.kind === 'module') {
    const ids = cx.exportedFrom(bound.files, r.name, new Set());
    return ids.length ? { ids, tier: 'import' } : null;
  }
  let knownType = false;
  if (/^[A-Z]\w*(\.[A-Z]\w*)*$/.test(receiver) || bound?.kind === 'symbol') {
    const t = cx.resolveType(receiver, r.fileId, r.symbolId);
    const m = t && cx.memberOf(t.ids, r.name, false);
    if (m) return m;
    if (!t && cx.isBuiltin(receiver, r.fileId)) return 'external';
    if (t && cx.isBuiltin(r.name, r.fileId)) return 'external';
    knownType = !!t;
  }
  if (!knownType) {
    const path = receiverPath(cx, receiver, r);
    if (path) return path;
  }
  const held = heldMember(cx, receiver, r);
  if (held) return held;
  // `System.out.println()`, `path.posix.join()`, `assertThat(x).isEqualTo(y)`: a chain that starts
  // outside the repository (an external import or a builtin the file does not define);
  // `x.getClass().getName()`: one that goes through a built-in method.
  const head = headOf(receiver);
  if (head && !bound && cx.isExternalName(head, r.fileId) && !cx.topLevel.get(r.fileId)?.has(head)
    && !cx.resolveType(head, r.fileId, r.symbolId)) return 'external';
  const lastCall = /(\w+)\((?:[^()]|\([^()]*\))*\)$/.exec(receiver);
  if (lastCall && cx.isBuiltin(lastCall[1], r.fileId)) return 'external';
  // `w.Body.String()` with `w := httptest.NewRecorder()`: a library value's fields and methods are the library's.
  const chainHead = spec.externalChains && typeof detail.head === 'string' ? detail.head : null;
  if (chainHead && cx.isExternalName(headOf(chainHead), r.fileId) && !cx.resolveType(chainHead, r.fileId, r.symbolId)) return 'external';
  // `list.forEach()`, `re.test()` with an unknown receiver: most likely the built-in, not a same-named method.
  if (spec.builtinMethods?.has(r.name)) return null;
  const guess = cx.globalMember(r.name, r.fileId);
  if (guess) return cx.narrowByUsage(guess, r, receiver);
  return cx.isBuiltin(r.name, r.fileId) ? 'external' : null;
}

/**
 * With implicit self, a bare call in a type whose supertype lies outside the repository may reach a
 * method the repository adds to that outside type (`extension XCTestCase { func assertX() }` called from
 * a test case): as for `self.name()` on an unknown type, a few methods of that name are candidates.
 */
export function inheritedFromOutside(cx: ResolveContext, r: RRef): Hit | null {
  if (!languageById(cx.files.get(r.fileId)!.language).bareCallsReachMembers) return null;
  const type = cx.enclosingType(r.symbolId);
  if (type === null || !cx.extendsOutside(type)) return null;
  return cx.globalMember(r.name, r.fileId);
}

/**
 * A receiver the language reads as a path (`crate::a::b`, `a::Type`, `std::mem`): the named member of
 * the module it reaches or of the type inside that module; 'external' outside the repository.
 */
export function receiverPath(cx: ResolveContext, receiver: string, r: RRef): Hit | 'external' | null {
  const file = cx.files.get(r.fileId)!;
  const resolver = cx.resolverFor(file.language);
  if (!resolver.resolveReceiver) return null;
  const path = resolver.resolveReceiver(receiver, file.path, (name) => {
    const b = cx.scopeOf(r.fileId).names.get(name);
    if (b?.kind === 'external') return 'external';
    return b?.kind === 'module' ? b.files.map((id) => cx.files.get(id)!.path) : null;
  });
  if (path === null || path === 'external') return path;
  const files = path.files.map((p) => cx.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined);
  if (!files.length || path.rest.length > 1) return null;
  if (!path.rest.length) {
    const ids = cx.exportedFrom(files, r.name, new Set());
    return ids.length ? { ids, tier: 'import' } : null;
  }
  const types = cx.exportedFrom(files, path.rest[0], new Set()).filter((id) => cx.isType(id));
  return types.length ? cx.memberOf(types, r.name, false) : null;
}

/**
 * `helpers.trim()`, `NS.f()`: a member of a constant or a namespace that is in scope at the call
 * (defined in the file or imported), not of a type.
 */
export function heldMember(cx: ResolveContext, receiver: string, r: RRef): Hit | null {
  const holds = (id: number) => HOLDER_KINDS.has(cx.symbols.get(id)!.kind) && cx.members.has(id);
  let holders: number[] = [];
  const path = /^([\w$]+)(?:\.([\w$]+))?$/.exec(receiver);
  if (!path) return null;
  if (path[2]) {
    // `util.helpers.shout()` with `util` an imported module.
    const head = cx.scopeOf(r.fileId).names.get(path[1]);
    if (head?.kind === 'module') holders = cx.exportedFrom(head.files, path[2], new Set()).filter(holds);
  } else {
    const hit = cx.lookupName(receiver, r.fileId, r.symbolId, holds);
    if (hit && hit.tier !== 'global') holders = hit.ids;
  }
  const ids = holders.flatMap((id) => cx.members.get(id)?.get(r.name) ?? []);
  return ids.length ? { ids, tier: 'member' } : null;
}
