import { CONTAINER_KINDS, type ImportResolver, type LanguageSpec, type RepoView } from '../lang/types.js';
import { tableKey } from '../extract/accesses.js';
import { languageById, languageFamily } from '../lang/registry.js';
import { normalizeTypeName } from '../extract/text.js';
import type { EdgeRow } from '../store/writer.js';
import type { CallTier, ImportResolution, RFile, RImport, RRef, RSymbol, RefResolution, ResolveInput } from './types.js';

/**
 * What every resolution step shares: the repository's symbols indexed every way a lookup needs them,
 * each file's import scope (resolved on first use, which emits the import edges), type and member
 * lookup through supertypes, and the edges and states produced so far. The steps themselves
 * (supertypes, calls, tests, ...) are one file each beside this one; src/resolve/resolver.ts runs them.
 */

/**
 * Confidence of an edge by how it was resolved. A name match is weak evidence; the same name in
 * several places is weaker still, so ambiguous matches share the confidence of one.
 */
const CONFIDENCE: Record<CallTier, number> = {
  local: 0.95,
  member: 0.9,
  import: 0.9,
  shared: 0.85,
  inherited: 0.8,
  global: 0.5,
};
/** Edges from code inside a syntax-error region count for less: the parse around them is a guess. */
export const ERROR_FACTOR = 0.5;
/** A global name match with more candidates than this is noise, not an edge. */
const MAX_GLOBAL_CANDIDATES = 3;
/** A receiver that is one variable (`c`, `res`, `$request`), not a chain, a call or a literal. */
const PLAIN_VARIABLE = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;
export const MAX_SUPER_DEPTH = 6;
export const TYPE_KINDS = new Set([...CONTAINER_KINDS, 'type']);
/** Non-type definitions whose members a call can reach by name: namespaces, object constants. */
export const HOLDER_KINDS = new Set(['module', 'constant']);
const CALLABLE_TOP = new Set(['function', 'class', 'struct', 'enum', 'type', 'constant', 'interface', 'trait']);

export type Binding =
  | { kind: 'symbol'; ids: number[] }
  | { kind: 'module'; files: number[] }
  | { kind: 'external'; module: string };

export interface FileScope {
  names: Map<string, Binding>;
  wildcards: number[]; // files whose exported names are all visible here
  exportedWildcards: number[]; // the subset this file re-exports (`export * from`, Python's `import *`)
  memberWildcards: number[]; // types whose members are all visible here (Java `import static a.b.C.*`)
}

export interface Hit {
  ids: number[];
  tier: CallTier;
}

export const RELATIVE_MODULE = /^(\.|crate::|self::|super::)/;

export class ResolveContext {
  readonly files = new Map<number, RFile>();
  readonly fileByPath = new Map<string, RFile>();
  readonly symbols = new Map<number, RSymbol>();
  readonly moduleOf = new Map<number, number>(); // fileId -> module symbol id
  readonly topLevel = new Map<number, Map<string, number[]>>(); // fileId -> name -> ids
  readonly members = new Map<number, Map<string, number[]>>(); // parent symbol -> name -> ids
  readonly byName = new Map<string, number[]>();
  readonly byQualified = new Map<string, number[]>();
  readonly sharedKey = new Map<number, string>(); // fileId -> shared scope key
  readonly implKey = new Map<number, string>(); // fileId -> key of the files whose impls extend its types
  readonly sharedFiles = new Map<string, number[]>();
  readonly importsByFile = new Map<number, RImport[]>();
  readonly scopes = new Map<number, FileScope>();
  readonly resolving = new Set<number>();
  readonly resolvers = new Map<string, ImportResolver>();
  readonly supers = new Map<number, number[]>();
  /** Confidence of each supertype edge, by `sub:sup`. */
  readonly superConfidence = new Map<string, number>();
  /** Classes that declare a table, by the table's name in lower case. */
  readonly tableOwners = new Map<string, number[]>();
  private byTableKey: Map<string, number[]> | null = null;
  readonly returnTypes = new Map<string, Hit | null>();
  /** Types with a supertype from outside the repository (imported from a dependency, or defined nowhere here). */
  readonly outsideSupers = new Set<number>();
  readonly edges: EdgeRow[] = [];
  readonly refStates = new Map<number, RefResolution>();
  readonly importStates = new Map<number, ImportResolution>();

  constructor(readonly input: ResolveInput, readonly repo: RepoView) {
    for (const f of input.files) {
      this.files.set(f.id, f);
      this.fileByPath.set(f.path, f);
      const spec = languageById(f.language);
      const key = spec.sharedScopeKey?.(f.path);
      if (key != null) {
        const k = `${f.language}:${key}`;
        this.sharedKey.set(f.id, k);
        push(this.sharedFiles, k, f.id);
      }
      const implKey = spec.implScopeKey ? spec.implScopeKey(f.path) : key;
      if (implKey != null) this.implKey.set(f.id, `${f.language}:${implKey}`);
    }
    for (const s of input.symbols) {
      this.symbols.set(s.id, s);
      if (s.kind === 'module' && s.parentId === null) {
        this.moduleOf.set(s.fileId, s.id);
        continue;
      }
      push(this.byName, s.name, s.id);
      push(this.byQualified, s.qualifiedName, s.id);
    }
    for (const s of input.symbols) {
      if (s.parentId === null) continue;
      if (this.moduleOf.get(s.fileId) === s.parentId && !s.qualifiedName.includes('.')) {
        // Declared in a callback or block: only calls there reach it, through their `local` detail (definedAt).
        if (s.scoped) continue;
        pushIn(this.topLevel, s.fileId, s.name, s.id);
      } else {
        pushIn(this.members, s.parentId, s.name, s.id);
      }
    }
    for (const imp of input.imports) push(this.importsByFile, imp.fileId, imp);
  }


  private readonly sharedNameMaps = new Map<string, Map<string, number[]>>();

  /**
   * The top-level definitions of a shared scope's files (a Go package, a Java package), by name, in the
   * files' order: what looking the name up in each file gives, joined. Built on the scope's first lookup
   * (Go's `runtime` has ~300 files, and a call that resolves no nearer looked through all of them).
   */
  sharedNames(key: string): Map<string, number[]> {
    let names = this.sharedNameMaps.get(key);
    if (!names) {
      names = new Map();
      for (const f of this.sharedFiles.get(key) ?? []) {
        for (const [name, ids] of this.topLevel.get(f) ?? []) {
          const list = names.get(name);
          if (list) list.push(...ids);
          else names.set(name, [...ids]);
        }
      }
      this.sharedNameMaps.set(key, names);
    }
    return names;
  }

  /** Edges and states are produced for this file (an update re-resolves only some files). */
  spec(fileId: number): LanguageSpec {
    return languageById(this.files.get(fileId)!.language);
  }

  /** Classes and structs by tableKey of their name (`User` -> `user`), built on first use. */
  classesByTableKey(): Map<string, number[]> {
    if (!this.byTableKey) {
      this.byTableKey = new Map();
      for (const s of this.symbols.values()) if (s.kind === 'class' || s.kind === 'struct') push(this.byTableKey, tableKey(s.name), s.id);
    }
    return this.byTableKey;
  }

  emits(fileId: number): boolean {
    return !this.input.only || this.input.only.has(fileId);
  }

  // ---- imports and file scopes ------------------------------------------------------------------

  resolverFor(language: string): ImportResolver {
    let r = this.resolvers.get(language);
    if (!r) {
      r = languageById(language).createImportResolver(this.repo);
      this.resolvers.set(language, r);
    }
    return r;
  }

  /** The names a file's imports bind, resolving imported files' own scopes first (for re-exports). */
  scopeOf(fileId: number): FileScope {
    const done = this.scopes.get(fileId);
    if (done) return done;
    const scope: FileScope = { names: new Map(), wildcards: [], exportedWildcards: [], memberWildcards: [] };
    if (this.resolving.has(fileId)) return scope; // an import cycle: the partial scope is enough
    this.resolving.add(fileId);
    const file = this.files.get(fileId)!;
    const resolver = this.resolverFor(file.language);
    const spec = languageById(file.language);
    const state = (imp: RImport, s: ImportResolution) => {
      if (this.emits(fileId)) this.importStates.set(imp.id, s);
    };
    const src = this.moduleOf.get(fileId)!;
    for (const imp of this.importsByFile.get(fileId) ?? []) {
      if (!imp.module) continue; // a local export alias, read by exportedFrom
      const conf = imp.inError ? ERROR_FACTOR : 1;
      const paths = resolver.resolveModule(imp, file.path) ?? [];
      if (paths.length && paths.every((p) => p === file.path)) {
        // The file's own module (Rust `use self::Kind::*`): its names are in scope already.
        state(imp, 'internal');
        this.bindSubmodules(scope, resolver, imp, file.path, src, conf);
        continue;
      }
      let targets = paths
        .map((p) => this.fileByPath.get(p)?.id)
        .filter((id): id is number => id !== undefined && id !== fileId);
      // A dependency installed in the repository: its declaration files stand for the module, as
      // repository files would, but the import stays external in the statistics.
      const installed = targets.length ? undefined : this.input.externalModules?.get(file.language)?.get(imp.module);
      if (installed?.length) targets = installed.filter((id) => this.files.has(id) && id !== fileId);
      if (!targets.length) {
        state(imp, RELATIVE_MODULE.test(imp.module) ? 'unresolved' : 'external');
        this.edge(src, null, 'imports', conf, imp.line, fileId, imp.module);
        const ext: Binding = { kind: 'external', module: imp.module };
        if (imp.alias) scope.names.set(imp.alias, ext);
        for (const n of imp.names) scope.names.set(n.alias ?? n.name, { kind: 'external', module: `${imp.module}.${n.name}` });
        continue;
      }
      // An import that leads only to dependencies' declarations is still an external import.
      state(imp, targets.every((id) => this.files.get(id)!.external) ? 'external' : 'internal');
      const owners = this.importedTypes(resolver, imp, file.path, targets);
      if (imp.alias) scope.names.set(imp.alias, { kind: 'module', files: targets });
      if (imp.wildcard && owners) scope.memberWildcards.push(...owners);
      else if (imp.wildcard) {
        scope.wildcards.push(...targets);
        if (imp.reexport || spec.importedNamesAreExported) scope.exportedWildcards.push(...targets);
      }
      if (!imp.names.length || imp.wildcard) {
        for (const t of targets) this.edge(src, this.moduleOf.get(t)!, 'imports', conf, imp.line, fileId, null);
      }
      for (const n of imp.names) {
        const local = n.alias ?? n.name;
        const ids = owners ? this.memberOf(owners, n.name, false)?.ids ?? []
          : this.exportedFrom(targets, n.name, new Set([fileId]));
        if (ids.length) {
          scope.names.set(local, { kind: 'symbol', ids });
          for (const id of ids) this.edge(src, id, 'imports', conf * 0.95, imp.line, fileId, null);
          continue;
        }
        const sub = resolver.resolveMember?.(imp, n.name, file.path)
          ?.map((p) => this.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined);
        if (sub?.length) {
          scope.names.set(local, { kind: 'module', files: sub });
          for (const t of sub) this.edge(src, this.moduleOf.get(t)!, 'imports', conf, imp.line, fileId, null);
        } else {
          // The module is ours but the name is not found in it (dynamic or generated): link the module.
          for (const t of targets) this.edge(src, this.moduleOf.get(t)!, 'imports', conf * 0.7, imp.line, fileId, null);
        }
      }
    }
    this.resolving.delete(fileId);
    this.scopes.set(fileId, scope);
    return scope;
  }

  /** The types an import's module names (`import static a.b.C.m`), or null when it names files. */
  importedTypes(resolver: ImportResolver, imp: RImport, fromPath: string, targets: number[]): number[] | null {
    const typePath = resolver.memberOf?.(imp, fromPath);
    if (!typePath) return null;
    const files = new Set(targets);
    return (this.byQualified.get(typePath) ?? []).filter((id) => this.isType(id) && files.has(this.symbols.get(id)!.fileId));
  }

  /** Names an import takes from its own file that are submodules of it (`from . import sub`). */
  bindSubmodules(scope: FileScope, resolver: ImportResolver, imp: RImport, fromPath: string, src: number,
    conf: number): void {
    for (const n of imp.names) {
      const sub = resolver.resolveMember?.(imp, n.name, fromPath)
        ?.map((p) => this.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined && id !== imp.fileId);
      if (!sub?.length) continue;
      scope.names.set(n.alias ?? n.name, { kind: 'module', files: sub });
      for (const t of sub) this.edge(src, this.moduleOf.get(t)!, 'imports', conf, imp.line, imp.fileId, null);
    }
  }

  /** Top-level `name` in the given files, following re-exports and wildcard imports a few levels. */
  exportedFrom(files: number[], name: string, seen: Set<number>, depth = 0): number[] {
    const out: number[] = [];
    for (const f of files) {
      const own = this.topLevel.get(f)?.get(name);
      if (own) {
        out.push(...own);
        continue;
      }
      const local = this.localExportAlias(f, name);
      if (local !== null && depth < 3) {
        out.push(...this.exportedFrom([f], local, seen, depth + 1));
        continue;
      }
      if (depth >= 3 || seen.has(f)) continue;
      seen.add(f);
      const scope = this.scopeOf(f);
      const reexported = this.reexportBinding(f, name, scope);
      if (reexported) out.push(...reexported);
      else if (scope.exportedWildcards.length) out.push(...this.exportedFrom(scope.exportedWildcards, name, seen, depth + 1));
    }
    return [...new Set(out)];
  }

  /** `export { a as name }`, `export default a`: the local name a file exports as `name`. */
  localExportAlias(fileId: number, name: string): string | null {
    for (const i of this.importsByFile.get(fileId) ?? []) {
      if (i.module || !i.reexport) continue;
      for (const n of i.names) if (n.alias === name && n.name !== name) return n.name;
    }
    return null;
  }

  reexportBinding(fileId: number, name: string, scope: FileScope): number[] | null {
    const b = scope.names.get(name);
    if (!b || b.kind !== 'symbol') return null;
    if (languageById(this.files.get(fileId)!.language).importedNamesAreExported) return b.ids;
    // The local name an export binds: the alias of `export { a as b } from`, the name of `export { a }`.
    const reexports = (this.importsByFile.get(fileId) ?? []).some((i) => i.reexport
      && i.names.some((n) => (i.module ? n.alias ?? n.name : n.name) === name));
    return reexports ? b.ids : null;
  }

  // ---- supertypes --------------------------------------------------------------------------------




  /** A type name as written at `fromSymbol`: nested, same file, imported, same package, or unique. */
  resolveType(name: string, fileId: number, fromSymbol: number): Hit | null {
    const parts = name.split(/\.|::|\\/).filter(Boolean);
    const last = parts[parts.length - 1];
    if (parts.length > 1) {
      const head = this.scopeOf(fileId).names.get(parts[0]);
      // `io.Reader` from an external `io` is not a repository type that happens to be named Reader.
      if (head?.kind === 'external') return null;
      if (head?.kind === 'module') {
        const ids = this.exportedFrom(head.files, last, new Set()).filter((id) => this.isType(id));
        if (ids.length) return { ids, tier: 'import' };
      }
      const family = this.familyOf(fileId);
      const q = this.byQualified.get(parts.join('.'))?.filter((id) => this.isType(id) && this.inFamily(id, family));
      if (q?.length === 1) return { ids: q, tier: 'import' };
      const files = this.qualifiedFiles(name, fileId);
      if (files) {
        const ids = this.exportedFrom(files, last, new Set()).filter((id) => this.isType(id));
        if (ids.length) return { ids, tier: 'import' };
        if (!files.length) return null; // outside the repository: no guess by the last name
      }
      const nested = this.nestedType(parts, fileId, fromSymbol);
      if (nested) return nested;
      if (this.isBuiltin(parts[0], fileId)) return null;
    }
    return this.lookupName(last, fileId, fromSymbol, (id) => this.isType(id));
  }

  /**
   * A receiver bound to what a call returned (`@binding.call`: `F` or `pkg.F`): the type that the one
   * function of that name says it returns, looked up where the function is written.
   */
  returnedType(callee: string, fileId: number, fromSymbol: number): Hit | null {
    const key = `${fileId}\0${callee}`;
    if (this.returnTypes.has(key)) return this.returnTypes.get(key)!;
    let hit: Hit | null = null;
    // `F#1`: the second of F's results (a binding of several names to one call).
    const at = /^(.*)#(\d+)$/.exec(callee);
    const fn = this.calledFunction(at ? at[1] : callee, fileId, fromSymbol);
    const spec = fn && languageById(this.files.get(fn.fileId)!.language);
    const signature = fn && spec?.returnType && this.input.signatureOf?.(fn.id);
    const written = signature ? spec!.returnType!(signature, at ? Number(at[2]) : undefined) : null;
    const typeName = written ? normalizeTypeName(written) : null;
    if (fn && typeName) hit = this.resolveType(typeName, fn.fileId, fn.id);
    this.returnTypes.set(key, hit);
    return hit;
  }

  calledFunction(callee: string, fileId: number, fromSymbol: number): RSymbol | null {
    const isFunction = (id: number) => this.symbols.get(id)!.kind === 'function';
    const parts = callee.split('.');
    let ids: number[] = [];
    if (parts.length === 1) {
      ids = this.lookupName(parts[0], fileId, fromSymbol, isFunction)?.ids ?? [];
    } else if (parts.length === 2) {
      const head = this.scopeOf(fileId).names.get(parts[0]);
      if (head?.kind === 'module') ids = this.exportedFrom(head.files, parts[1], new Set()).filter(isFunction);
      else {
        // `Engine.allocateContext`: a method of a type (the extraction writes a variable's method call so), or
        // `New.allocateContext` of a variable that holds what New returns.
        const type = this.resolveType(parts[0], fileId, fromSymbol) ?? this.returnedType(parts[0], fileId, fromSymbol);
        if (type) ids = this.memberOf(type.ids, parts[1], false)?.ids.filter((id) => this.symbols.get(id)!.kind === 'method') ?? [];
      }
    }
    return ids.length === 1 ? this.symbols.get(ids[0])! : null;
  }

  /** `Outer.Inner` where `Outer` is a type in scope: its member types, level by level. */
  nestedType(parts: string[], fileId: number, fromSymbol: number): Hit | null {
    const outer = this.lookupName(parts[0], fileId, fromSymbol, (id) => this.isType(id));
    if (!outer) return null;
    let ids = outer.ids;
    for (const part of parts.slice(1)) {
      ids = ids.flatMap((t) => this.ownMembers(t, part)).filter((id) => this.isType(id));
      if (!ids.length) return null;
    }
    return { ids, tier: outer.tier };
  }

  /** The language resolver's answer for a qualified type name: candidate files, [] outside, null unknown. */
  qualifiedFiles(name: string, fileId: number): number[] | null {
    const file = this.files.get(fileId)!;
    const paths = this.resolverFor(file.language).resolveQualified?.(name, file.path);
    if (!paths) return null;
    return paths.map((p) => this.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined);
  }

  /** A type name imported from outside the repository, or that no type of the repository bears. */
  isOutsideType(name: string, fileId: number, except: number): boolean {
    const parts = name.split(/\.|::|\\/).filter(Boolean);
    if (this.importedFromOutside(parts[0], fileId)) return true;
    if (parts.length > 1 && this.qualifiedFiles(name, fileId)?.length === 0) return true;
    const family = this.familyOf(fileId);
    return !(this.byName.get(parts[parts.length - 1]) ?? []).some((id) => id !== except && this.isType(id) && this.inFamily(id, family));
  }

  /** The type, or one of its ancestors, extends something from outside: unknown members may be its. */
  extendsOutside(typeId: number): boolean {
    return this.outsideSupers.has(typeId) || this.ancestors(typeId).some((a) => this.outsideSupers.has(a));
  }

  /** The file imports `name` from a module outside the repository (`io` in `io.Reader`, a composer package). */
  importedFromOutside(name: string, fileId: number): boolean {
    return this.scopeOf(fileId).names.get(name)?.kind === 'external';
  }

  isType(id: number): boolean {
    return TYPE_KINDS.has(this.symbols.get(id)!.kind);
  }

  /** The supertypes of a type, nearest first, without repeats. */
  ancestors(typeId: number): number[] {
    const out: number[] = [];
    const seen = new Set([typeId]);
    let frontier = [typeId];
    for (let d = 0; d < MAX_SUPER_DEPTH && frontier.length; d++) {
      const next: number[] = [];
      for (const t of frontier) for (const s of this.supers.get(t) ?? []) if (!seen.has(s)) {
        seen.add(s);
        out.push(s);
        next.push(s);
      }
      frontier = next;
    }
    return out;
  }

  // ---- calls ---------------------------------------------------------------------------------



  /**
   * A bare name at `fromSymbol`: enclosing definitions outward, the file's top level, its imports,
   * its package, wildcard imports, then a repository-wide match.
   */
  lookupName(name: string, fileId: number, fromSymbol: number, accept: (id: number) => boolean,
    global = true): Hit | null {
    const spec = languageById(this.files.get(fileId)!.language);
    let inType = false;
    // The definitions around the reference, innermost first: a function's nested definitions (Java's
    // local classes), then, where members are in scope, each enclosing type and its supertypes.
    // Nested modules (Rust `mod tests { .. }`) are scopes too; the file's module (no parent) is not.
    for (let s = this.symbols.get(fromSymbol); s && s.parentId !== null; s = this.symbols.get(s.parentId)) {
      const container = CONTAINER_KINDS.has(s.kind);
      inType ||= container;
      if (container && !spec.bareCallsReachMembers) continue;
      // A member named like its type is a constructor; the name itself means the type, found further out.
      if (name === s.name) continue;
      const ids = this.members.get(s.id)?.get(name)?.filter(accept);
      if (ids?.length) return { ids, tier: 'local' };
      if (container) {
        const inherited = this.memberOf([s.id], name, true);
        const ok = inherited?.ids.filter((id) => accept(id) && !this.isConstructorLike(id));
        if (ok?.length) return { ids: ok, tier: inherited!.tier };
      }
    }
    if (spec.bareCallsReachMembers && !inType) {
      const hit = this.implicitSelfOutsideType(fromSymbol, name, accept);
      if (hit) return hit;
    }
    const own = this.topLevel.get(fileId)?.get(name)?.filter(accept);
    if (own?.length) return { ids: own, tier: 'local' };
    const scope = this.scopeOf(fileId);
    const bound = scope.names.get(name);
    if (bound?.kind === 'symbol') {
      const ids = bound.ids.filter(accept);
      if (ids.length) return { ids, tier: 'import' };
    }
    if (bound?.kind === 'external') return null;
    const key = this.sharedKey.get(fileId);
    if (key) {
      const ids = (this.sharedNames(key).get(name) ?? []).filter(accept);
      if (ids.length) return { ids, tier: 'shared' };
    }
    if (scope.wildcards.length) {
      const ids = this.exportedFrom(scope.wildcards, name, new Set()).filter(accept);
      if (ids.length) return { ids, tier: 'import' };
    }
    if (scope.memberWildcards.length) {
      const ids = (this.memberOf(scope.memberWildcards, name, false)?.ids ?? []).filter(accept);
      if (ids.length) return { ids, tier: 'import' };
    }
    if (!global || this.isBuiltin(name, fileId)) return null;
    return this.globalName(name, accept, fileId);
  }


  /**
   * `self` in a method of an extension that is not written inside its type: the type another file
   * declares, or, for a type from outside the repository, the other methods the repository adds to it.
   */
  implicitSelfOutsideType(fromSymbol: number, name: string, accept: (id: number) => boolean): Hit | null {
    const type = this.enclosingType(fromSymbol);
    if (type !== null) {
      const m = this.memberOf([type], name, false);
      const ids = m?.ids.filter(accept) ?? [];
      return ids.length ? { ids, tier: m!.tier } : null;
    }
    const method = this.enclosingMethod(fromSymbol);
    if (!method) return null;
    const typeName = method.qualifiedName.slice(0, method.qualifiedName.lastIndexOf('.'));
    const ids = (this.byQualified.get(`${typeName}.${name}`) ?? [])
      .filter((id) => accept(id) && this.sameScope(this.symbols.get(id)!.fileId, method.fileId));
    return ids.length ? { ids, tier: 'member' } : null;
  }

  /** The outermost method around a symbol whose qualified name names a type (`XCTest.assertHelp`). */
  enclosingMethod(symbolId: number): RSymbol | null {
    let found: RSymbol | null = null;
    for (let s = this.symbols.get(symbolId); s && s.kind !== 'module'; s = s.parentId === null ? undefined : this.symbols.get(s.parentId)) {
      if (s.kind === 'method' && s.qualifiedName.includes('.')) found = s;
    }
    return found;
  }

  /** A member named like the type it belongs to. */
  isConstructorLike(id: number): boolean {
    const s = this.symbols.get(id)!;
    return s.parentId !== null && this.symbols.get(s.parentId)?.name === s.name;
  }

  /** Bound to an import from outside the repository, or a language built-in (java.lang, Python's len). */
  isExternalName(name: string, fileId: number): boolean {
    return this.importedFromOutside(name, fileId) || this.isBuiltin(name, fileId);
  }

  isBuiltin(name: string, fileId: number): boolean {
    return !!languageById(this.files.get(fileId)!.language).builtins?.has(name);
  }

  /** The file's definitions of `name` that start on `line` (a helper declared in a test's callback); null when none does. */
  definedAt(fileId: number, name: string, line: number): Hit | null {
    const ids = (this.byName.get(name) ?? []).filter((id) => {
      const s = this.symbols.get(id)!;
      return s.fileId === fileId && s.startLine === line;
    });
    return ids.length ? { ids, tier: 'local' } : null;
  }

  /** A repository-wide match for a bare name written in `fileId`: the callable top-level definitions of its language family, if few. */
  globalName(name: string, accept: (id: number) => boolean, fileId: number): Hit | null {
    const ids = this.topCallables(name, this.familyOf(fileId)).filter(accept);
    return ids.length && ids.length <= MAX_GLOBAL_CANDIDATES ? { ids, tier: 'global' } : null;
  }

  private readonly topCallablesByName = new Map<string, number[]>();

  /** The callable top-level definitions of a name in a family (in byName's order), once per name: common names (`String`, `Close`) have thousands of symbols. */
  private topCallables(name: string, family: string): number[] {
    const key = `${family}\0${name}`;
    let ids = this.topCallablesByName.get(key);
    if (!ids) {
      ids = (this.byName.get(name) ?? []).filter((id) => CALLABLE_TOP.has(this.symbols.get(id)!.kind) && this.isTopLevel(id)
        && this.inFamily(id, family));
      this.topCallablesByName.set(key, ids);
    }
    return ids;
  }

  private readonly fileFamilies = new Map<number, string>();

  /** The language family of a file: what its code can call by name (LanguageSpec.family). */
  familyOf(fileId: number): string {
    let family = this.fileFamilies.get(fileId);
    if (family === undefined) {
      family = languageFamily(this.files.get(fileId)!.language);
      this.fileFamilies.set(fileId, family);
    }
    return family;
  }

  /** The symbol is written in a file of that family. */
  inFamily(id: number, family: string): boolean {
    return this.familyOf(this.symbols.get(id)!.fileId) === family;
  }

  isTopLevel(id: number): boolean {
    const s = this.symbols.get(id)!;
    return s.parentId === this.moduleOf.get(s.fileId) && !s.scoped;
  }

  /** The type a method belongs to: its parent container, or the type its qualified name names (Go receivers). */
  enclosingType(symbolId: number): number | null {
    for (let s = this.symbols.get(symbolId); s; s = s.parentId === null ? undefined : this.symbols.get(s.parentId)) {
      if (CONTAINER_KINDS.has(s.kind)) return s.id;
      if (s.kind === 'method' && s.qualifiedName.includes('.')) {
        const typeName = s.qualifiedName.slice(0, s.qualifiedName.lastIndexOf('.'));
        const family = this.familyOf(s.fileId);
        const candidates = (this.byQualified.get(typeName) ?? []).filter((id) => this.isType(id) && this.inFamily(id, family));
        const sameScope = candidates.filter((id) => this.sameScope(this.symbols.get(id)!.fileId, s!.fileId));
        const pick = sameScope.length ? sameScope : candidates;
        if (pick.length === 1) return pick[0];
      }
    }
    return null;
  }

  /** Files whose methods may belong to each other's types (a Go package, a Rust crate). */
  sameScope(a: number, b: number): boolean {
    if (a === b) return true;
    const ka = this.implKey.get(a);
    return ka !== undefined && ka === this.implKey.get(b);
  }

  /** Method `name` of the given types, then of their supertypes. */
  memberOf(types: number[], name: string, supersOnly: boolean): Hit | null {
    if (!supersOnly) {
      const own = types.flatMap((t) => this.ownMembers(t, name));
      if (own.length) return { ids: own, tier: 'member' };
    }
    // Level by level up the supertypes, all candidates of the nearest level at once: which of two
    // same-level supertypes is "first" is not something the code says.
    const seen = new Set(types);
    let level = types;
    for (let d = 0; d < MAX_SUPER_DEPTH && level.length; d++) {
      const next = [...new Set(level.flatMap((t) => this.supers.get(t) ?? []))].filter((t) => !seen.has(t));
      for (const t of next) seen.add(t);
      const ids = next.flatMap((t) => this.ownMembers(t, name));
      if (ids.length) return { ids, tier: 'inherited' };
      level = next;
    }
    return null;
  }

  /** Members declared in the type's body, plus methods declared apart from it (Go receivers, extensions). */
  ownMembers(typeId: number, name: string): number[] {
    const t = this.symbols.get(typeId)!;
    const inBody = this.members.get(typeId)?.get(name) ?? [];
    // Apart: not attached to a type in its own file (that would be another type of the same name).
    const apart = (this.byQualified.get(`${t.qualifiedName}.${name}`) ?? []).filter((id) => {
      const m = this.symbols.get(id)!;
      const parent = m.parentId === null ? undefined : this.symbols.get(m.parentId);
      return m.parentId !== typeId && !(parent && TYPE_KINDS.has(parent.kind)) && this.sameScope(m.fileId, t.fileId);
    });
    return apart.length ? [...inBody, ...apart] : inBody;
  }



  /** Last resort for `x.name()` with an unknown `x` in `fileId`: methods of that name anywhere in its language family, if few. */
  globalMember(name: string, fileId: number): Hit | null {
    const family = this.familyOf(fileId);
    const key = `${family}\0${name}`;
    let ids = this.methodsByName.get(key);
    if (!ids) {
      ids = (this.byName.get(name) ?? []).filter((id) => this.symbols.get(id)!.kind === 'method' && this.inFamily(id, family));
      this.methodsByName.set(key, ids);
    }
    return ids.length && ids.length <= MAX_GLOBAL_CANDIDATES ? { ids: [...ids], tier: 'global' } : null;
  }

  /** Methods of each family and name looked up so far (globalMember runs for every call on an unknown receiver). */
  private readonly methodsByName = new Map<string, number[]>();

  /**
   * Of a repository-wide guess for `receiver.name()` on a plain variable of unknown type, the methods
   * whose types declare the most of the other members the same function uses on that variable (duck
   * typing): `c.text()` beside `c.header()` in a hono handler is Context's, not a response's or a
   * request's `text`. (Property reads and writes count where the extraction records them.) The guess is kept whole when the variable is used with nothing
   * else, or when no candidate's type declares any of it. Only members declared in a type's own body
   * (or beside it: Go receivers, extensions) count, so an update re-resolves this call whenever what it
   * read changes: a definition named like one of those members (src/indexer/affected.ts).
   */
  narrowByUsage(hit: Hit, r: RRef, receiver: string): Hit {
    if (hit.ids.length < 2 || !PLAIN_VARIABLE.test(receiver)) return hit;
    const others = this.membersUsed(r.fileId, r.symbolId, receiver);
    if (!others || others.size < 2) return hit;
    let best = 0;
    const covered = hit.ids.map((id) => {
      const holders = this.holdersOf(id);
      let n = 0;
      for (const m of others) if (m !== r.name && holders.some((t) => this.ownMembers(t, m).length > 0)) n++;
      best = Math.max(best, n);
      return n;
    });
    if (best === 0) return hit;
    const ids = hit.ids.filter((_, i) => covered[i] === best);
    return ids.length < hit.ids.length ? { ids, tier: hit.tier } : hit;
  }

  /** The types a method is a member of: its parent type, or the types it is declared beside (ownMembers). */
  private holdersOf(id: number): number[] {
    const m = this.symbols.get(id)!;
    const parent = m.parentId === null ? undefined : this.symbols.get(m.parentId);
    if (parent && TYPE_KINDS.has(parent.kind)) return [parent.id];
    const dot = m.qualifiedName.lastIndexOf('.');
    if (dot <= 0) return [];
    return (this.byQualified.get(m.qualifiedName.slice(0, dot)) ?? []).filter((t) => this.isType(t) && this.ownMembers(t, m.name).includes(id));
  }

  /** Per file, function and plain variable: the member names called, read or written on it there. */
  private usage: Map<string, Set<string>> | null = null;

  private membersUsed(fileId: number, symbolId: number, receiver: string): Set<string> | undefined {
    if (!this.usage) {
      this.usage = new Map();
      for (const x of this.input.refs) {
        if (!x.receiver || (x.kind !== 'call' && x.kind !== 'read' && x.kind !== 'write')) continue;
        const v = x.receiver.replace(/\s+/g, '');
        if (!PLAIN_VARIABLE.test(v)) continue;
        const key = `${x.fileId}\0${x.symbolId}\0${v}`;
        let set = this.usage.get(key);
        if (!set) this.usage.set(key, (set = new Set()));
        set.add(x.name);
      }
    }
    return this.usage.get(`${fileId}\0${symbolId}\0${receiver}`);
  }

  confidence(hit: Hit, inError: boolean): number {
    let c = CONFIDENCE[hit.tier];
    // Overloads (one qualified name, several symbols) are one method: which of them is called is
    // not a doubt about what is called.
    if (hit.ids.length > 1) c /= new Set(hit.ids.map((id) => this.symbols.get(id)!.qualifiedName)).size;
    if (inError) c *= ERROR_FACTOR;
    return Math.round(c * 1000) / 1000;
  }

  // ---- tests ---------------------------------------------------------------------------------



  edge(src: number, dst: number | null, kind: string, confidence: number, line: number | null, fileId: number,
    target: string | null): void {
    if (!this.emits(fileId)) return;
    this.edges.push({ src, dst, kind, confidence, line, fileId, target });
  }
}

/** `System.out` -> `System`, `Map.Entry<K, V>` -> `Map`. */
export function headOf(text: string): string {
  return text.split(/[.<\[(]|::/)[0].trim();
}

export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function pushIn<K, K2, V>(map: Map<K, Map<K2, V[]>>, key: K, key2: K2, value: V): void {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  push(inner, key2, value);
}
