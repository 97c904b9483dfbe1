import { CONTAINER_KINDS, type ImportResolver, type LanguageSpec, type RepoView } from '../lang/types.js';
import { languageById } from '../lang/registry.js';
import type { EdgeRow } from '../store/writer.js';
import type { CallTier, CallStats, RFile, RImport, RRef, RSymbol, ResolveInput, ResolveOutput } from './types.js';

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
const ERROR_FACTOR = 0.5;
/** A global name match with more candidates than this is noise, not an edge. */
const MAX_GLOBAL_CANDIDATES = 3;
const MAX_SUPER_DEPTH = 6;
const TYPE_KINDS = new Set([...CONTAINER_KINDS, 'type']);
const CALLABLE_TOP = new Set(['function', 'class', 'struct', 'enum', 'type', 'constant', 'interface', 'trait']);

type Binding =
  | { kind: 'symbol'; ids: number[] }
  | { kind: 'module'; files: number[] }
  | { kind: 'external'; module: string };

interface FileScope {
  names: Map<string, Binding>;
  wildcards: number[]; // files whose exported names are all visible here
}

interface Hit {
  ids: number[];
  tier: CallTier;
}

const RELATIVE_MODULE = /^(\.|crate::|self::|super::)/;

export function resolveAll(input: ResolveInput, repo: RepoView): ResolveOutput {
  return new Resolver(input, repo).run();
}

class Resolver {
  private readonly files = new Map<number, RFile>();
  private readonly fileByPath = new Map<string, RFile>();
  private readonly symbols = new Map<number, RSymbol>();
  private readonly moduleOf = new Map<number, number>(); // fileId -> module symbol id
  private readonly topLevel = new Map<number, Map<string, number[]>>(); // fileId -> name -> ids
  private readonly members = new Map<number, Map<string, number[]>>(); // parent symbol -> name -> ids
  private readonly byName = new Map<string, number[]>();
  private readonly byQualified = new Map<string, number[]>();
  private readonly sharedKey = new Map<number, string>(); // fileId -> shared scope key
  private readonly implKey = new Map<number, string>(); // fileId -> key of the files whose impls extend its types
  private readonly sharedFiles = new Map<string, number[]>();
  private readonly importsByFile = new Map<number, RImport[]>();
  private readonly scopes = new Map<number, FileScope>();
  private readonly resolving = new Set<number>();
  private readonly resolvers = new Map<string, ImportResolver>();
  private readonly supers = new Map<number, number[]>();
  private readonly edges: EdgeRow[] = [];
  private readonly importStats: ResolveOutput['imports'] = {};

  constructor(private readonly input: ResolveInput, private readonly repo: RepoView) {
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
        pushIn(this.topLevel, s.fileId, s.name, s.id);
      } else {
        pushIn(this.members, s.parentId, s.name, s.id);
      }
    }
    for (const imp of input.imports) push(this.importsByFile, imp.fileId, imp);
  }

  run(): ResolveOutput {
    for (const f of this.input.files) this.scopeOf(f.id);
    for (const r of this.input.refs) if (r.kind !== 'call') this.resolveInherit(r);
    const calls: Record<string, CallStats> = {};
    for (const r of this.input.refs) if (r.kind === 'call') this.resolveCall(r, calls);
    this.addTestEdges();
    return { edges: this.edges, calls, imports: this.importStats };
  }

  // ---- imports and file scopes ------------------------------------------------------------------

  private resolverFor(language: string): ImportResolver {
    let r = this.resolvers.get(language);
    if (!r) {
      r = languageById(language).createImportResolver(this.repo);
      this.resolvers.set(language, r);
    }
    return r;
  }

  /** The names a file's imports bind, resolving imported files' own scopes first (for re-exports). */
  private scopeOf(fileId: number): FileScope {
    const done = this.scopes.get(fileId);
    if (done) return done;
    const scope: FileScope = { names: new Map(), wildcards: [] };
    if (this.resolving.has(fileId)) return scope; // an import cycle: the partial scope is enough
    this.resolving.add(fileId);
    const file = this.files.get(fileId)!;
    const resolver = this.resolverFor(file.language);
    const stats = (this.importStats[file.language] ??= { total: 0, internal: 0, external: 0, unresolved: 0 });
    const src = this.moduleOf.get(fileId)!;
    for (const imp of this.importsByFile.get(fileId) ?? []) {
      stats.total++;
      const conf = imp.inError ? ERROR_FACTOR : 1;
      const paths = resolver.resolveModule(imp, file.path) ?? [];
      if (paths.length && paths.every((p) => p === file.path)) {
        // The file's own module (Rust `use super::*` in an inline test module): its names are in scope already.
        stats.internal++;
        this.bindSubmodules(scope, resolver, imp, file.path, src, conf);
        continue;
      }
      const targets = paths
        .map((p) => this.fileByPath.get(p)?.id)
        .filter((id): id is number => id !== undefined && id !== fileId);
      if (!targets.length) {
        if (RELATIVE_MODULE.test(imp.module)) stats.unresolved++;
        else stats.external++;
        this.edge(src, null, 'imports', conf, imp.line, fileId, imp.module);
        const ext: Binding = { kind: 'external', module: imp.module };
        if (imp.alias) scope.names.set(imp.alias, ext);
        for (const n of imp.names) scope.names.set(n.alias ?? n.name, { kind: 'external', module: `${imp.module}.${n.name}` });
        continue;
      }
      stats.internal++;
      if (imp.alias) scope.names.set(imp.alias, { kind: 'module', files: targets });
      if (imp.wildcard) scope.wildcards.push(...targets);
      if (!imp.names.length || imp.wildcard) {
        for (const t of targets) this.edge(src, this.moduleOf.get(t)!, 'imports', conf, imp.line, fileId, null);
      }
      for (const n of imp.names) {
        const local = n.alias ?? n.name;
        const ids = this.exportedFrom(targets, n.name, new Set([fileId]));
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

  /** Names an import takes from its own file that are submodules of it (`from . import sub`). */
  private bindSubmodules(scope: FileScope, resolver: ImportResolver, imp: RImport, fromPath: string, src: number,
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
  private exportedFrom(files: number[], name: string, seen: Set<number>, depth = 0): number[] {
    const out: number[] = [];
    for (const f of files) {
      const own = this.topLevel.get(f)?.get(name);
      if (own) {
        out.push(...own);
        continue;
      }
      if (depth >= 3 || seen.has(f)) continue;
      seen.add(f);
      const scope = this.scopeOf(f);
      const reexported = this.reexportBinding(f, name, scope);
      if (reexported) out.push(...reexported);
      else if (scope.wildcards.length) out.push(...this.exportedFrom(scope.wildcards, name, seen, depth + 1));
    }
    return [...new Set(out)];
  }

  private reexportBinding(fileId: number, name: string, scope: FileScope): number[] | null {
    const b = scope.names.get(name);
    if (!b || b.kind !== 'symbol') return null;
    if (languageById(this.files.get(fileId)!.language).importedNamesAreExported) return b.ids;
    const reexports = (this.importsByFile.get(fileId) ?? []).some((i) => i.reexport && i.names.some((n) => (n.alias ?? n.name) === name));
    return reexports ? b.ids : null;
  }

  // ---- supertypes --------------------------------------------------------------------------------

  private resolveInherit(r: RRef): void {
    const hit = this.resolveType(r.name, r.fileId, r.symbolId);
    if (!hit) return;
    for (const sub of this.subtypesOf(r)) {
      for (const id of hit.ids) {
        if (id === sub) continue;
        this.edge(sub, id, r.kind, this.confidence(hit, r.inError), r.line, r.fileId, null);
        push(this.supers, sub, id);
      }
    }
  }

  /** The ref's own symbol, or the type an impl-like block names when another file declares it. */
  private subtypesOf(r: RRef): number[] {
    if (!r.receiver) return [r.symbolId];
    return this.resolveType(r.receiver, r.fileId, r.symbolId)?.ids ?? [];
  }

  /** A type name as written at `fromSymbol`: nested, same file, imported, same package, or unique. */
  private resolveType(name: string, fileId: number, fromSymbol: number): Hit | null {
    const parts = name.split(/\.|::|\\/).filter(Boolean);
    const last = parts[parts.length - 1];
    if (parts.length > 1) {
      const head = this.scopeOf(fileId).names.get(parts[0]);
      if (head?.kind === 'module') {
        const ids = this.exportedFrom(head.files, last, new Set()).filter((id) => this.isType(id));
        if (ids.length) return { ids, tier: 'import' };
      }
      const viaPath = this.typeByPath(parts, fileId);
      if (viaPath === 'external') return null;
      if (viaPath) return viaPath;
      const q = this.byQualified.get(parts.join('.'))?.filter((id) => this.isType(id));
      if (q?.length === 1) return { ids: q, tier: 'import' };
    }
    return this.lookupName(last, fileId, fromSymbol, (id) => this.isType(id));
  }

  /** `super::Solid`, `crate::a::Foo`: the type in the module a path prefix names (languages with resolveReceiver). */
  private typeByPath(parts: string[], fileId: number): Hit | 'external' | null {
    const file = this.files.get(fileId)!;
    const resolver = this.resolverFor(file.language);
    if (!resolver.resolveReceiver) return null;
    const path = resolver.resolveReceiver(parts.slice(0, -1).join('::'), file.path, (n) => this.boundFiles(fileId, n));
    if (path === null || path === 'external') return path;
    if (path.rest.length) return null;
    const files = path.files.map((p) => this.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined);
    const ids = this.exportedFrom(files, parts[parts.length - 1], new Set()).filter((id) => this.isType(id));
    return ids.length ? { ids, tier: 'import' } : null;
  }

  /** What a name is bound to by a file's imports, for language hooks: module files, 'external' or null. */
  private boundFiles(fileId: number, name: string): string[] | 'external' | null {
    const b = this.scopeOf(fileId).names.get(name);
    if (b?.kind === 'external') return 'external';
    return b?.kind === 'module' ? b.files.map((id) => this.files.get(id)!.path) : null;
  }

  private isType(id: number): boolean {
    return TYPE_KINDS.has(this.symbols.get(id)!.kind);
  }

  /** The supertypes of a type, nearest first, without repeats. */
  private ancestors(typeId: number): number[] {
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

  private resolveCall(r: RRef, stats: Record<string, CallStats>): void {
    const lang = this.files.get(r.fileId)!.language;
    const st = (stats[lang] ??= { total: 0, resolved: 0, external: 0, unresolved: 0, byTier: {} });
    st.total++;
    const hit = this.callTarget(r);
    if (hit === 'external') {
      st.external++;
      return;
    }
    if (!hit || !hit.ids.length) {
      st.unresolved++;
      return;
    }
    st.resolved++;
    st.byTier[hit.tier] = (st.byTier[hit.tier] ?? 0) + 1;
    const conf = this.confidence(hit, r.inError);
    for (const id of new Set(hit.ids)) if (id !== r.symbolId) this.edge(r.symbolId, id, 'calls', conf, r.line, r.fileId, null);
  }

  private callTarget(r: RRef): Hit | 'external' | null {
    const spec = languageById(this.files.get(r.fileId)!.language);
    const callable = (id: number) => this.symbols.get(id)!.kind !== 'module';
    if (!r.receiver) {
      const hit = this.lookupName(r.name, r.fileId, r.symbolId, callable, true, false);
      if (hit) return hit;
      if (spec.builtins?.has(r.name) || this.scopeOf(r.fileId).names.get(r.name)?.kind === 'external') return 'external';
      return this.globalName(r.name, callable);
    }

    const receiver = r.receiver.replace(/\s+/g, '');
    const isSuper = (spec.superReceiver ?? /^super$/).test(receiver);
    if (spec.selfNames.includes(receiver) || isSuper) {
      const type = this.enclosingType(r.symbolId);
      if (type === null) return this.unknownMember(r.name, spec);
      return this.memberOf([type], r.name, isSuper) ?? this.unknownMember(r.name, spec);
    }
    if (r.receiverType) {
      const t = this.resolveType(r.receiverType, r.fileId, r.symbolId);
      if (t) {
        const m = this.memberOf(t.ids, r.name, false);
        if (m) return m;
      }
    }
    const bound = this.scopeOf(r.fileId).names.get(receiver);
    if (bound?.kind === 'external') return 'external';
    if (bound?.kind === 'module') {
      const ids = this.exportedFrom(bound.files, r.name, new Set());
      return ids.length ? { ids, tier: 'import' } : null;
    }
    let knownType = false;
    if (/^[A-Z][\w]*$/.test(receiver) || bound?.kind === 'symbol') {
      const t = this.resolveType(receiver, r.fileId, r.symbolId);
      const m = t && this.memberOf(t.ids, r.name, false);
      if (m) return m;
      knownType = !!t;
    }
    if (!knownType) {
      const path = this.receiverPath(receiver, r);
      if (path) return path;
      // A declared or constructed type from outside the repository (`let m = HashMap::new()`, `x: u32`).
      if (r.receiverType && (this.boundFiles(r.fileId, r.receiverType.split(/\.|::|\\/)[0]) === 'external'
        || this.receiverPath(r.receiverType, r) === 'external')) return 'external';
    }
    return this.unknownMember(r.name, spec);
  }

  /**
   * A receiver the language reads as a path (`crate::a::b`, `a::Type`, `std::mem`): the named member of
   * the module it reaches or of the type inside that module; 'external' outside the repository.
   */
  private receiverPath(receiver: string, r: RRef): Hit | 'external' | null {
    const file = this.files.get(r.fileId)!;
    const resolver = this.resolverFor(file.language);
    if (!resolver.resolveReceiver) return null;
    const path = resolver.resolveReceiver(receiver, file.path, (name) => this.boundFiles(r.fileId, name));
    if (path === null || path === 'external') return path;
    const files = path.files.map((p) => this.fileByPath.get(p)?.id).filter((id): id is number => id !== undefined);
    if (!files.length || path.rest.length > 1) return null;
    if (!path.rest.length) {
      const ids = this.exportedFrom(files, r.name, new Set());
      return ids.length ? { ids, tier: 'import' } : null;
    }
    const types = this.exportedFrom(files, path.rest[0], new Set()).filter((id) => this.isType(id));
    return types.length ? this.memberOf(types, r.name, false) : null;
  }

  /**
   * A bare name at `fromSymbol`: enclosing definitions outward, the file's top level, its imports,
   * its package, wildcard imports, then a repository-wide match.
   */
  private lookupName(name: string, fileId: number, fromSymbol: number, accept: (id: number) => boolean,
    bareCall = false, global = true): Hit | null {
    const spec = languageById(this.files.get(fileId)!.language);
    // Functions nested in the calling function come first.
    const from = this.symbols.get(fromSymbol);
    if (from && (from.kind === 'function' || from.kind === 'method')) {
      const ids = this.members.get(fromSymbol)?.get(name)?.filter(accept);
      if (ids?.length) return { ids, tier: 'local' };
    }
    for (let s = this.symbols.get(fromSymbol); s && s.parentId !== null; s = this.symbols.get(s.parentId)) {
      const parent = this.symbols.get(s.parentId)!;
      if (parent.parentId === null) break; // the file's module; a nested one (Rust `mod tests`) is a scope
      if (CONTAINER_KINDS.has(parent.kind) && !(bareCall && spec.bareCallsReachMembers)) continue;
      const ids = this.members.get(parent.id)?.get(name)?.filter(accept);
      if (ids?.length) return { ids, tier: 'local' };
      if (CONTAINER_KINDS.has(parent.kind)) {
        const inherited = this.memberOf([parent.id], name, true);
        if (inherited) return inherited;
      }
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
      const ids = (this.sharedFiles.get(key) ?? []).flatMap((f) => this.topLevel.get(f)?.get(name) ?? []).filter(accept);
      if (ids.length) return { ids, tier: 'shared' };
    }
    if (scope.wildcards.length) {
      const ids = this.exportedFrom(scope.wildcards, name, new Set()).filter(accept);
      if (ids.length) return { ids, tier: 'import' };
    }
    return global ? this.globalName(name, accept) : null;
  }

  /** Top-level definitions of that name anywhere in the repository, if there are few. */
  private globalName(name: string, accept: (id: number) => boolean): Hit | null {
    const ids = (this.byName.get(name) ?? []).filter((id) => accept(id) && CALLABLE_TOP.has(this.symbols.get(id)!.kind)
      && this.isTopLevel(id));
    return ids.length && ids.length <= MAX_GLOBAL_CANDIDATES ? { ids, tier: 'global' } : null;
  }

  private isTopLevel(id: number): boolean {
    const s = this.symbols.get(id)!;
    return s.parentId === this.moduleOf.get(s.fileId);
  }

  /** The type a method belongs to: its parent container, or the type its qualified name names (Go receivers). */
  private enclosingType(symbolId: number): number | null {
    for (let s = this.symbols.get(symbolId); s; s = s.parentId === null ? undefined : this.symbols.get(s.parentId)) {
      if (CONTAINER_KINDS.has(s.kind)) return s.id;
      if (s.kind === 'method' && s.qualifiedName.includes('.')) {
        const typeName = s.qualifiedName.slice(0, s.qualifiedName.lastIndexOf('.'));
        const candidates = (this.byQualified.get(typeName) ?? []).filter((id) => this.isType(id));
        const sameScope = candidates.filter((id) => this.sameScope(this.symbols.get(id)!.fileId, s!.fileId));
        const pick = sameScope.length ? sameScope : candidates;
        if (pick.length === 1) return pick[0];
      }
    }
    return null;
  }

  /** Files whose methods may belong to each other's types (a Go package, a Rust crate). */
  private sameScope(a: number, b: number): boolean {
    if (a === b) return true;
    const ka = this.implKey.get(a);
    return ka !== undefined && ka === this.implKey.get(b);
  }

  /** Method `name` of the given types, then of their supertypes. */
  private memberOf(types: number[], name: string, supersOnly: boolean): Hit | null {
    if (!supersOnly) {
      const own = types.flatMap((t) => this.ownMembers(t, name));
      if (own.length) return { ids: own, tier: 'member' };
    }
    for (const t of types) {
      for (const sup of this.ancestors(t)) {
        const ids = this.ownMembers(sup, name);
        if (ids.length) return { ids, tier: 'inherited' };
      }
    }
    return null;
  }

  /** Members declared in the type's body, plus methods declared apart from it (Go receivers, extensions). */
  private ownMembers(typeId: number, name: string): number[] {
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

  /** A method call the receiver does not explain: the language's own method, or a name match. */
  private unknownMember(name: string, spec: LanguageSpec): Hit | 'external' | null {
    return spec.builtinMethods?.has(name) ? 'external' : this.globalMember(name);
  }

  /** Last resort for `x.name()` with an unknown `x`: methods of that name anywhere, if few. */
  private globalMember(name: string): Hit | null {
    const ids = (this.byName.get(name) ?? []).filter((id) => this.symbols.get(id)!.kind === 'method');
    return ids.length && ids.length <= MAX_GLOBAL_CANDIDATES ? { ids, tier: 'global' } : null;
  }

  private confidence(hit: Hit, inError: boolean): number {
    let c = CONFIDENCE[hit.tier];
    if (hit.ids.length > 1) c /= hit.ids.length;
    if (inError) c *= ERROR_FACTOR;
    return Math.round(c * 1000) / 1000;
  }

  // ---- tests ---------------------------------------------------------------------------------

  /**
   * Test code -> the code it exercises: every call from a test file or a test symbol (Rust's unit tests
   * sit beside the code) into non-test code, attributed to the test function (or the test file's module
   * for module-level suites), and every import of a non-test file by a test file, at lower confidence.
   */
  private addTestEdges(): void {
    const best = new Map<string, EdgeRow>();
    const add = (src: number, dst: number, conf: number, line: number | null, fileId: number) => {
      const key = `${src}:${dst}`;
      const prev = best.get(key);
      if (!prev || prev.confidence < conf) best.set(key, { src, dst, kind: 'tests', confidence: conf, line, fileId, target: null });
    };
    for (const e of this.edges) {
      if (e.dst === null || (e.kind !== 'calls' && e.kind !== 'imports')) continue;
      const from = this.files.get(e.fileId)!;
      const target = this.symbols.get(e.dst)!;
      if (this.files.get(target.fileId)!.isTest || this.testSymbolAround(target.id) !== null) continue;
      if (e.kind === 'calls') {
        const test = this.testSymbolAround(e.src);
        if (!from.isTest && test === null) continue;
        add(test ?? this.moduleOf.get(from.id)!, e.dst, Math.round(e.confidence * 0.9 * 1000) / 1000, e.line, e.fileId);
      } else if (from.isTest) {
        add(e.src, this.moduleOf.get(target.fileId)!, 0.6, e.line, e.fileId);
      }
    }
    this.edges.push(...best.values());
  }

  /** The innermost test symbol (a test function, a test module) a symbol sits in, or null. */
  private testSymbolAround(symbolId: number): number | null {
    for (let s = this.symbols.get(symbolId); s; s = s.parentId === null ? undefined : this.symbols.get(s.parentId)) {
      if (s.isTest) return s.id;
    }
    return null;
  }

  private edge(src: number, dst: number | null, kind: string, confidence: number, line: number | null, fileId: number,
    target: string | null): void {
    this.edges.push({ src, dst, kind, confidence, line, fileId, target });
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function pushIn<K, K2, V>(map: Map<K, Map<K2, V[]>>, key: K, key2: K2, value: V): void {
  let inner = map.get(key);
  if (!inner) map.set(key, (inner = new Map()));
  push(inner, key2, value);
}
