import type { Node, QueryCapture, Tree } from 'web-tree-sitter';
import { CONTAINER_KINDS, SYMBOL_KINDS, type SymbolKind } from '../lang/types.js';
import type { LoadedLanguage } from '../lang/loader.js';
import type { CallSite, ExtractedImport, ExtractedSymbol, FileExtract, InheritRef } from './types.js';
import { collapse, firstSentence, normalizeTypeName } from './text.js';

/**
 * Capture names the query files use (see queries/README.md). One query holds every role; a match's
 * captures tell which role it plays.
 */
interface DefMatch {
  node: Node;
  kind: string; // a SymbolKind or 'scope'
  name: Node | null;
  doc: Node | null;
  params: Node | null;
  paramList: Node[];
  body: Node | null;
  receiver: Node | null;
}

interface Range {
  start: number;
  end: number;
}

const MAX_MUTATES = 20;
const ERROR_WIDEN_MAX_LINES = 4;

/** Rounds of parsing again what the language calls embedded code (macros inside macros). */
const MAX_EMBED_DEPTH = 3;

/** Parses one file's text and extracts its symbols, imports, call sites and supertypes. */
export function extractSource(lang: LoadedLanguage, path: string, source: string): FileExtract {
  const text = preprocessed(lang, source);
  const tree = lang.parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  const embedded: Tree[] = [];
  const parsedAgain: (Range & { tree: Tree })[] = [];
  try {
    // Signatures quote the file as written; the rewrite keeps offsets, so the tree's positions fit both.
    // Code the grammar saw only as tokens (Rust's `cfg_rt! { pub fn f() {} }`) is parsed again on its own.
    for (let root = tree.rootNode, depth = 0; lang.spec.embeddedRanges && depth < MAX_EMBED_DEPTH; depth++) {
      const includedRanges = lang.spec.embeddedRanges(root);
      if (!includedRanges.length) break;
      const next = lang.parser.parse(text, null, { includedRanges });
      if (!next) break;
      embedded.push(next);
      for (const r of includedRanges) parsedAgain.push({ start: r.startIndex, end: r.endIndex, tree: root.tree });
      root = next.rootNode;
    }
    return new FileExtractor(lang, path, source, tree.rootNode, embedded.map((t) => t.rootNode), parsedAgain).run();
  } finally {
    tree.delete();
    for (const t of embedded) t.delete();
  }
}

/** The language's rewrite of the text, used only when it keeps every offset (positions must stay true). */
function preprocessed(lang: LoadedLanguage, source: string): string {
  const text = lang.spec.preprocess?.(source);
  return text !== undefined && text.length === source.length ? text : source;
}

class FileExtractor {
  private readonly spec;
  private readonly errors: Range[] = [];
  /** Syntax errors in embedded code: what lies there is left out, and the file is not partial for them. */
  private readonly embeddedErrors: Range[] = [];
  private readonly symbols: ExtractedSymbol[] = [];
  /** Byte ranges of the symbols, aligned with `symbols`. */
  private readonly ranges: Range[] = [];
  /** Index of the symbol whose range encloses each symbol (containment, not logical parent). */
  private readonly rangeParent: number[] = [];
  /** Blocks that add members to a type declared elsewhere (extensions, impls), with that type's name. */
  private readonly scopeRanges: (Range & { typeName: string })[] = [];
  private readonly isTestFile: boolean;

  constructor(
    private readonly lang: LoadedLanguage,
    private readonly path: string,
    private readonly source: string,
    private readonly root: Node,
    private readonly embeddedRoots: Node[] = [],
    /** Ranges of a tree that the next embedded tree parsed again: what that tree saw there is superseded. */
    private readonly parsedAgain: (Range & { tree: Tree })[] = [],
  ) {
    this.spec = lang.spec;
    this.isTestFile = this.spec.isTestFile(path);
  }

  run(): FileExtract {
    const defs = new Map<number, DefMatch>();
    const calls: { call: Node; name: Node; receiver: Node | null }[] = [];
    const importNodes: Node[] = [];
    const inherits: { node: Node; kind: 'extends' | 'implements' }[] = [];
    const bindings: Binding[] = [];
    const mutateTargets: Node[] = [];
    const mutateGlobals: Node[] = [];
    const exportNodes = new Set<number>();
    const exportNames = new Set<string>();
    let moduleDoc: Node | null = null;
    const moduleDocLines: Node[] = [];

    for (const root of this.embeddedRoots) if (root.hasError) this.collectErrors(root, new Set(), this.embeddedErrors);
    const matches = [this.root, ...this.embeddedRoots].flatMap((root) => this.lang.query.matches(root));
    for (const match of matches) {
      if (this.embeddedRoots.length && match.captures.some((c) => this.inEmbeddedError(c.node) || this.superseded(c.node))) {
        continue;
      }
      const caps = byName(match.captures);
      if (caps['syntax.error']) {
        for (const n of caps['syntax.error']) this.errors.push({ start: n.startIndex, end: Math.max(n.endIndex, n.startIndex + 1) });
        continue;
      }
      const defName = Object.keys(caps).find((k) => k.startsWith('definition.'));
      if (defName) {
        const node = caps[defName][0];
        const prev = defs.get(node.id);
        const d: DefMatch = prev ?? {
          node, kind: defName.slice('definition.'.length), name: null, doc: null, params: null,
          paramList: [], body: null, receiver: null,
        };
        d.name ??= caps.name?.[0] ?? null;
        d.doc ??= caps.doc?.[0] ?? null;
        d.params ??= caps.params?.[0] ?? null;
        d.body ??= caps.body?.[0] ?? null;
        d.receiver ??= caps.receiver?.[0] ?? null;
        // Grammars without a parameter-list node may give each parameter its own match.
        for (const p of caps.param ?? []) if (!d.paramList.some((q) => q.id === p.id)) d.paramList.push(p);
        defs.set(node.id, d);
      } else if (caps.call) {
        const name = caps['call.name']?.[0];
        if (name) calls.push({ call: caps.call[0], name, receiver: caps['call.receiver']?.[0] ?? null });
      } else if (caps.import) {
        importNodes.push(caps.import[0]);
      } else if (caps.extends || caps.implements) {
        for (const n of caps.extends ?? []) inherits.push({ node: n, kind: 'extends' });
        for (const n of caps.implements ?? []) inherits.push({ node: n, kind: 'implements' });
      } else if ((caps['binding.name'] || caps['binding.field'] || caps['binding.position'])
        && (caps['binding.type'] || caps['binding.call'])) {
        const type = caps['binding.type']?.[0];
        const position = caps['binding.position']?.[0];
        const field = caps['binding.field']?.[0] ?? position;
        const written = position ? String(fieldPosition(position)) : undefined;
        for (const name of field ? [field] : caps['binding.name']) {
          bindings.push({ name, type: type ?? caps['binding.call'][0], fromCall: !type, field: !!field, written });
        }
      } else if (caps['mutate.target'] || caps['mutate.global']) {
        mutateTargets.push(...(caps['mutate.target'] ?? []));
        mutateGlobals.push(...(caps['mutate.global'] ?? []));
      } else if (caps['module.doc']) {
        moduleDoc ??= caps['module.doc'][0];
      } else if (caps['module.doc.line']) {
        moduleDocLines.push(...caps['module.doc.line']);
      } else if (caps.export || caps['export.name']) {
        for (const n of caps.export ?? []) exportNodes.add(n.id);
        for (const n of caps['export.name'] ?? []) exportNames.add(n.text);
      }
    }

    if (this.root.hasError) this.collectErrors(this.root, new Set(defs.keys()));
    for (const n of this.spec.syntaxErrors?.(this.root) ?? []) this.errors.push({ start: n.startIndex, end: Math.max(n.endIndex, n.startIndex + 1) });
    this.buildSymbols([...defs.values()], exportNodes, exportNames, moduleDoc, moduleDocLines);
    const scopes = this.bindingScopes(bindings);
    this.attachMutates(mutateTargets, mutateGlobals);
    const lines = countLines(this.source);
    this.symbols[0].endLine = Math.max(1, lines);
    return {
      path: this.path,
      language: this.spec.id,
      loc: lines,
      partial: this.errors.length > 0,
      errorCount: this.errors.length,
      isTest: this.isTestFile,
      symbols: this.symbols,
      calls: withoutRepeats(calls).map((c) => this.callSite(c, scopes)).sort((a, b) => a.line - b.line),
      inherits: this.inheritRefs(inherits),
      imports: this.imports(importNodes),
    };
  }

  // ---- syntax errors -------------------------------------------------------------------------

  /**
   * Error regions: each ERROR or MISSING node, widened to its parent when the parent is a small
   * construct (an expression or statement of a few lines), because the code around a parse error is
   * guessed too. Definitions and large parents are not widened: their other members parse fine.
   */
  private collectErrors(node: Node, defNodes: Set<number>, into: Range[] = this.errors): void {
    if (node.isError || node.isMissing) {
      const p = node.parent;
      const small = p && p.parent && !defNodes.has(p.id) && p.endPosition.row - p.startPosition.row <= ERROR_WIDEN_MAX_LINES;
      const region = small ? p : node;
      into.push({ start: region.startIndex, end: Math.max(region.endIndex, region.startIndex + 1) });
      return;
    }
    for (const child of node.children) if (child && child.hasError) this.collectErrors(child, defNodes, into);
  }

  /**
   * A node of a tree inside a range the next embedded tree parsed again (token-tree guesses in a macro
   * body that now parses as code), unless that parse failed there.
   */
  private superseded(node: Node): boolean {
    for (const r of this.parsedAgain) {
      if (r.tree === node.tree && r.start <= node.startIndex && node.endIndex <= r.end) {
        return !this.embeddedErrors.some((e) => node.startIndex < e.end && e.start < node.endIndex);
      }
    }
    return false;
  }

  /** A node of an embedded tree inside one of its syntax errors (a macro whose body is not plain code). */
  private inEmbeddedError(node: Node): boolean {
    if (node.tree === this.root.tree) return false;
    for (const r of this.embeddedErrors) if (node.startIndex < r.end && r.start < node.endIndex) return true;
    return false;
  }

  private inError(node: Node): boolean {
    for (const r of this.errors) if (node.startIndex < r.end && r.start < node.endIndex) return true;
    return false;
  }

  // ---- symbols --------------------------------------------------------------------------------

  private buildSymbols(defs: DefMatch[], exportNodes: Set<number>, exportNames: Set<string>, moduleDoc: Node | null,
    moduleDocLines: Node[]): void {
    const modName = this.spec.moduleName(this.path);
    // `@module.doc.line`: a module doc written as several comments (Rust's `//!` lines), in source order.
    const lines = moduleDocLines.sort((a, b) => a.startIndex - b.startIndex).map((n) => n.text).join('\n');
    this.symbols.push({
      name: modName, qualifiedName: modName, kind: 'module', parent: -1, startLine: 1, endLine: 1,
      signature: '', doc: moduleDoc ? this.moduleDoc(moduleDoc) : lines ? firstSentence(lines) : null, params: [], visibility: 'public', isAsync: false,
      isStatic: false, mutates: [], annotations: [], exported: true, isTest: this.isTestFile, inError: false,
    });
    this.ranges.push({ start: 0, end: this.source.length + 1 });
    this.rangeParent.push(-1);

    defs = defs.filter((d) => d.name && d.name.text && (d.kind === 'scope' || isSymbolKind(d.kind)));
    defs.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);

    // Open definitions enclosing the current one; `sym` is -1 for scopes (impl blocks, extensions).
    const stack: { end: number; sym: number; qn: string; kind: string; typeName: string | null }[] = [];
    const scopeTyped: { sym: number; typeName: string }[] = [];
    for (const d of defs) {
      while (stack.length && stack[stack.length - 1].end <= d.node.startIndex) stack.pop();
      const frame = stack[stack.length - 1];
      const name = d.name!.text;
      if (d.kind === 'scope') {
        const typeName = normalizeTypeName(name) ?? name;
        const qn = frame ? `${frame.qn}.${typeName}` : typeName;
        // Members belong to the type of that qualified name (an impl inside `mod tests` extends `tests.Fake`).
        stack.push({ end: d.node.endIndex, sym: -1, qn, kind: 'scope', typeName: qn });
        this.scopeRanges.push({ start: d.node.startIndex, end: d.node.endIndex, typeName: qn });
        continue;
      }
      let kind = d.kind as SymbolKind;
      const parentKind = frame ? frame.kind : 'module';
      if (kind === 'function' && (CONTAINER_KINDS.has(parentKind) || parentKind === 'scope')) kind = 'method';
      const receiverType = d.receiver ? normalizeTypeName(d.receiver.text) : null;
      if (receiverType) kind = 'method';
      const qualifier = receiverType ?? (frame ? frame.qn : null);
      const qualifiedName = qualifier ? `${qualifier}.${name}` : name;
      const idx = this.symbols.length;
      const rangeParent = this.enclosingSymbol(stack);
      const parent = frame && frame.sym >= 0 && !receiverType ? frame.sym : 0;
      if (receiverType) scopeTyped.push({ sym: idx, typeName: receiverType });
      else if (frame && frame.sym < 0 && frame.typeName) scopeTyped.push({ sym: idx, typeName: frame.typeName });

      const modifiers = this.modifiers(d.node, d.name!);
      if (this.isAsyncValue(d)) modifiers.add('async');
      for (const m of this.spec.definitionModifiers?.(d.node) ?? []) modifiers.add(m);
      const comments = d.doc ? null : this.docComments(d);
      const annotations = this.annotations(d.node, d.name!, comments);
      const exportedByQuery = this.isExportedByQuery(d.node, exportNodes) || (!frame && exportNames.has(name));
      const visibility = this.spec.visibility({ name, kind, modifiers, parentKind, exportedByQuery, node: d.node });
      const topLevel = parent === 0 && !receiverType && !frame;
      this.symbols.push({
        name,
        qualifiedName,
        kind,
        parent,
        startLine: d.node.startPosition.row + 1,
        endLine: bodyEnd(d).row + 1,
        signature: this.signature(d),
        doc: d.doc ? firstSentence(d.doc.text) : comments ? firstSentence(comments) : null,
        params: this.params(d),
        visibility,
        isAsync: modifiers.has('async'),
        isStatic: modifiers.has('static') || annotations.some((a) => this.spec.staticAnnotations?.includes(a)),
        mutates: [],
        annotations,
        exported: topLevel && visibility === 'public',
        isTest: false,
        inError: this.inError(d.name!),
      });
      this.ranges.push({ start: d.node.startIndex, end: bodyEnd(d).index });
      this.rangeParent.push(rangeParent);
      // Members of an object constant (JavaScript `const api = { get() {} }`) see a `constant` parent.
      const container = CONTAINER_KINDS.has(kind) || kind === 'module' || kind === 'constant' ? kind
        : kind === 'method' ? 'method' : 'function';
      stack.push({ end: bodyEnd(d).index, sym: idx, qn: qualifiedName, kind: container, typeName: null });
    }

    // Methods in impl blocks, extensions and Go receivers belong to the type when this file defines it.
    if (scopeTyped.length) {
      const types = new Map<string, number>();
      this.symbols.forEach((s, i) => {
        if (CONTAINER_KINDS.has(s.kind) || s.kind === 'type') types.set(s.qualifiedName, i);
      });
      for (const { sym, typeName } of scopeTyped) {
        const t = types.get(typeName);
        if (t !== undefined) this.symbols[sym].parent = t;
      }
    }
    // The file's module symbol (0) is a test when its file is; a nested module (Rust `mod tests`) asks
    // the language, and is a parent name for its members.
    for (const s of this.symbols.slice(1)) {
      const parent = s.parent > 0 ? this.symbols[s.parent] : null;
      s.isTest = this.spec.isTestSymbol({
        name: s.name, kind: s.kind, annotations: s.annotations, parentName: parent ? parent.name : null,
        inTestFile: this.isTestFile, signature: s.signature,
      });
    }
  }

  private enclosingSymbol(stack: { sym: number }[]): number {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i].sym >= 0) return stack[i].sym;
    return 0;
  }

  private isExportedByQuery(node: Node, exportNodes: Set<number>): boolean {
    if (!exportNodes.size) return false;
    let n: Node | null = node;
    for (let depth = 0; n && depth < 4; depth++, n = n.parent) if (exportNodes.has(n.id)) return true;
    return false;
  }

  /** Keyword tokens before the name, including inside modifier lists (`public static`, `pub(crate)`). */
  private modifiers(def: Node, name: Node): Set<string> {
    const out = new Set<string>();
    const visit = (n: Node, inModifiers: boolean) => {
      if (n.startIndex >= name.startIndex) return;
      if (n.childCount === 0) {
        if (!n.isNamed || inModifiers) out.add(n.isNamed ? n.text : n.type);
        return;
      }
      const mod = inModifiers || /modifier|visibility|accessibility/.test(n.type);
      if (!mod && n.isNamed) return; // a nested construct (parameters, annotations): not a modifier
      for (const c of n.children) if (c) visit(c, mod);
    };
    // `public const A = 1, B = 2;`: the modifiers sit on the wrapper, before the definition.
    const wrapper = def.parent && this.spec.wrapperTypes.includes(def.parent.type) ? def.parent : null;
    if (wrapper) for (const c of wrapper.children) if (c && c.endIndex <= def.startIndex) visit(c, false);
    for (const c of def.children) if (c) visit(c, false);
    return out;
  }

  /** Decorators, annotations and attributes: inside the definition, on its wrapper, or just above it. */
  private annotations(def: Node, name: Node, docComments: string | null): string[] {
    const fromDoc = docComments && this.spec.docAnnotations ? this.spec.docAnnotations(docComments) : [];
    const types = this.spec.annotationTypes;
    if (!types.length) return [...new Set(fromDoc)];
    const found: Node[] = [];
    for (const c of def.children) {
      if (!c || c.startIndex >= name.startIndex) break;
      if (types.includes(c.type)) found.push(c);
      else found.push(...c.descendantsOfType(types));
    }
    let outer = def;
    for (const wrapper of this.wrappers(def)) {
      for (const c of wrapper.namedChildren) if (c && types.includes(c.type)) found.push(c);
      outer = wrapper;
    }
    for (let s = outer.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (types.includes(s.type)) found.push(s);
      else if (!this.spec.commentTypes.includes(s.type)) break;
    }
    return [...new Set([...found.map((n) => annotationName(n.text)), ...fromDoc])].filter(Boolean);
  }

  private signature(d: DefMatch): string {
    const node = d.node;
    const end = d.body && d.body.startIndex > node.startIndex ? d.body.startIndex : node.endIndex;
    let text = this.signatureSource(node, d.name!, end);
    if (!d.body) text = text.trimStart().split('\n')[0];
    // Scala and Kotlin write `=` before an expression body: `def key: String = name`.
    return collapse(text.replace(/[\s{:;,]+$/, '').replace(/\s*=>\s*$/, ' =>').replace(/\s+=$/, ''));
  }

  /**
   * The definition's text up to `end` without comments, nor the annotations written before its name
   * (they are listed apart): `@Override // why` is not part of a signature.
   */
  private signatureSource(node: Node, name: Node, end: number): string {
    const cuts: Node[] = [];
    const visit = (n: Node) => {
      if (n.startIndex >= end) return;
      if (this.spec.commentTypes.includes(n.type) || (n.endIndex <= name.startIndex && this.onlyAnnotations(n))) {
        cuts.push(n);
        return;
      }
      for (const c of n.children) if (c) visit(c);
    };
    visit(node);
    let text = '';
    let at = node.startIndex;
    for (const c of cuts) {
      text += this.source.slice(at, c.startIndex);
      at = c.endIndex;
    }
    return text + this.source.slice(at, Math.max(at, end));
  }

  /**
   * An annotation, or a list of them with only punctuation around (PHP's `#[A, B]`), so that cutting
   * it from a signature leaves no empty brackets; Java's `modifiers` also hold keywords, so stay.
   */
  private onlyAnnotations(n: Node): boolean {
    if (this.spec.annotationTypes.includes(n.type)) return true;
    if (!n.namedChildCount) return false;
    return n.children.every((c) => !c || (c.isNamed ? this.onlyAnnotations(c) : /^[^\w\s]+$/.test(c.type)));
  }

  /** The raw text of the comments right above a definition (or its wrapper), or null. */
  private docComments(d: DefMatch): string | null {
    const target = this.wrappers(d.node).pop() ?? d.node;
    const comments = this.commentsAbove(target);
    return comments.length ? comments.join('\n') : null;
  }

  /**
   * A docstring, or a comment captured as the module doc (Go's package comment): then the doc is the
   * whole comment block it ends, and only if that block sits right above the code below it, since a
   * licence header followed by a blank line documents nothing.
   */
  private moduleDoc(node: Node): string | null {
    if (!this.spec.commentTypes.includes(node.type)) return firstSentence(node.text);
    const next = node.nextNamedSibling;
    if (!next || next.startPosition.row > node.endPosition.row + 1) return null;
    const comments = this.commentsAbove(next);
    return comments.length ? firstSentence(comments.join('\n')) : null;
  }

  /** The comment lines right above a node, without a blank line between, not trailing other code. */
  private commentsAbove(target: Node): string[] {
    const comments: string[] = [];
    let expectRow = target.startPosition.row;
    for (let s = target.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (this.spec.annotationTypes.includes(s.type)) {
        expectRow = s.startPosition.row;
        continue;
      }
      if (!this.spec.commentTypes.includes(s.type)) break;
      if (s.endPosition.row < expectRow - 1) break;
      if (!this.startsLine(s)) break; // a trailing comment belongs to the code before it
      expectRow = s.startPosition.row;
      if (this.spec.isDocComment && !this.spec.isDocComment(s.text)) continue; // a note, not documentation
      comments.unshift(s.text);
    }
    return comments;
  }

  /** The wrapper nodes around a definition, innermost first (`const` declaration, then `export`). */
  private wrappers(def: Node): Node[] {
    const out: Node[] = [];
    for (let p = def.parent; p && this.spec.wrapperTypes.includes(p.type); p = p.parent) out.push(p);
    return out;
  }

  /** `const f = async () => …`: the `async` is on the function value that owns the body, after the name. */
  private isAsyncValue(d: DefMatch): boolean {
    const owner = d.body?.parent;
    if (!owner || owner.id === d.node.id || owner.startIndex < d.name!.endIndex) return false;
    for (const c of owner.children) {
      if (!c || c.startIndex >= d.body!.startIndex) break;
      if (!c.isNamed && c.type === 'async') return true;
    }
    return false;
  }

  private startsLine(n: Node): boolean {
    const lineStart = this.source.lastIndexOf('\n', n.startIndex - 1) + 1;
    return this.source.slice(lineStart, n.startIndex).trim() === '';
  }

  private params(d: DefMatch): string[] {
    const nodes = d.paramList.length
      ? [...d.paramList].sort((a, b) => a.startIndex - b.startIndex)
      : d.params ? d.params.namedChildren.filter((n): n is Node => !!n) : [];
    return nodes.filter((n) => !this.spec.commentTypes.includes(n.type)).map((n) => collapse(n.text, 80));
  }

  // ---- references ------------------------------------------------------------------------------

  /** Index of the innermost symbol whose range contains `pos`. */
  private symbolAt(pos: number): number {
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.ranges[mid].start <= pos) lo = mid;
      else hi = mid - 1;
    }
    for (let i = lo; i > 0; i = this.rangeParent[i]) if (pos < this.ranges[i].end && this.ranges[i].start <= pos) return i;
    return 0;
  }

  /**
   * Variable -> type names, per enclosing symbol, in source order. `self.x` bindings and declared
   * fields live on the enclosing type. A name bound several times (`f, err := os.Open(p)`, then `f := &File{}`) takes the
   * type of the last binding before the call.
   */
  private bindingScopes(bindings: Binding[]): BindingScopes {
    const scopes: BindingScopes = new Map();
    for (const b of bindings) {
      const type = normalizeTypeName(b.type.text);
      if (!type) continue;
      const written = b.written ?? b.name.text.replace(/\s+/g, '');
      const name = b.field ? this.spec.fieldAccess?.(written) ?? `${this.spec.selfNames[0]}.${written}` : written;
      let scope = this.symbolAt(b.name.startIndex);
      // A constant's (or package variable's) own binding is visible where the constant is.
      if (scope > 0 && this.symbols[scope].kind === 'constant') scope = this.rangeParent[scope];
      if (b.field || this.isSelfMember(name)) scope = this.containerOf(scope);
      let map = scopes.get(scope);
      if (!map) scopes.set(scope, (map = new Map()));
      const list = map.get(name);
      const entry = { at: b.name.startIndex, type, fromCall: b.fromCall };
      if (list) list.push(entry);
      else map.set(name, [entry]);
    }
    for (const map of scopes.values()) for (const list of map.values()) list.sort((a, b) => a.at - b.at);
    return scopes;
  }

  private isSelfMember(text: string): boolean {
    return this.selfMemberName(text) !== null;
  }

  /** `self.session` -> `session`, `$this->repo` -> `repo`. */
  private selfMemberName(text: string): string | null {
    for (const s of this.spec.selfNames) {
      for (const sep of ['.', '->']) if (text.startsWith(`${s}${sep}`)) return text.slice(s.length + sep.length);
    }
    return null;
  }

  private containerOf(sym: number): number {
    for (let i = sym; i > 0; i = this.symbols[i].parent) if (CONTAINER_KINDS.has(this.symbols[i].kind)) return i;
    return sym;
  }

  private callSite(c: { call: Node; name: Node; receiver: Node | null }, scopes: BindingScopes): CallSite {
    const caller = this.symbolAt(c.call.startIndex);
    const receiver = c.receiver ? collapse(c.receiver.text, 120) : null;
    let receiverType: string | null = null;
    if (receiver && scopes.size) {
      const key = receiver.replace(/\s+/g, '');
      const field = this.selfMemberName(key);
      const start = field !== null ? this.containerOf(caller) : caller;
      const at = c.call.startIndex;
      receiverType = bindingIn(scopes, key, start, this.rangeParent, at);
      // `this.repo` is the field `repo` the class declares (`private Repo repo;`, `let session: Session`).
      if (!receiverType && field !== null) {
        const list = scopes.get(start)?.get(field);
        if (list) receiverType = typeAt(list, at);
      }
      // A type that is itself bound is a generic parameter standing for its constraint (`t: T.Type`, `<T: Command>`).
      if (receiverType) receiverType = bindingIn(scopes, receiverType, caller, this.rangeParent, at) ?? receiverType;
    }
    if (receiver && !receiverType) receiverType = constructedType(receiver) ?? castType(receiver);
    return {
      caller,
      name: c.name.text,
      receiver,
      receiverType,
      line: c.call.startPosition.row + 1,
      inError: this.inError(c.call),
    };
  }

  private inheritRefs(list: { node: Node; kind: 'extends' | 'implements' }[]): InheritRef[] {
    const out: InheritRef[] = [];
    for (const { node, kind } of list) {
      const name = normalizeTypeName(node.text);
      if (!name) continue;
      const line = node.startPosition.row + 1;
      const inError = this.inError(node);
      let owner = this.symbolAt(node.startIndex);
      const scope = this.scopeAround(node, owner);
      if (scope) {
        // `extension Foo: P` / `impl P for Foo`: Foo is the subtype; by name when another file declares it.
        const local = this.symbols.findIndex((s) => s.qualifiedName === scope.typeName && CONTAINER_KINDS.has(s.kind));
        if (local < 0) {
          out.push({ symbol: 0, ownerName: scope.typeName, kind, name, line, inError });
          continue;
        }
        owner = local;
      }
      if (owner === 0 || !CONTAINER_KINDS.has(this.symbols[owner].kind)) continue;
      out.push({ symbol: owner, kind, name, line, inError });
    }
    return out;
  }

  /** The innermost extension-like scope around `node` that lies inside `owner`'s range (or at top level). */
  private scopeAround(node: Node, owner: number): { typeName: string } | null {
    let best: (Range & { typeName: string }) | null = null;
    for (const r of this.scopeRanges) {
      if (r.start <= node.startIndex && node.endIndex <= r.end && (!best || r.start > best.start)) best = r;
    }
    if (!best) return null;
    return owner === 0 || best.start > this.ranges[owner].start ? best : null;
  }

  private attachMutates(targets: Node[], globals: Node[]): void {
    if (!targets.length) return;
    const declared = new Map<number, Set<string>>();
    for (const g of globals) {
      const owner = this.symbolAt(g.startIndex);
      if (!declared.has(owner)) declared.set(owner, new Set());
      declared.get(owner)!.add(g.text);
    }
    for (const t of targets) {
      const owner = this.symbolAt(t.startIndex);
      const sym = this.symbols[owner];
      if (sym.kind !== 'function' && sym.kind !== 'method') continue;
      const text = t.text.replace(/\s+/g, '');
      const isAttribute = /[.]|->|::/.test(text);
      if (!isAttribute && !declared.get(owner)?.has(text)) continue;
      if (!sym.mutates.includes(text) && sym.mutates.length < MAX_MUTATES) sym.mutates.push(text);
    }
  }

  private imports(nodes: Node[]): ExtractedImport[] {
    const out: ExtractedImport[] = [];
    for (const node of nodes) {
      const inError = this.inError(node);
      for (const spec of this.spec.parseImport(node)) out.push({ ...spec, inError });
    }
    return out;
  }
}

/** `@binding.type` (declared or constructed) or `@binding.call` (the call whose result the name holds). */
interface Binding {
  name: Node;
  type: Node;
  fromCall: boolean;
  /** A field declared in a type's body (`@binding.field`): methods reach it through self. */
  field: boolean;
  /** The field's name when the source does not write one (`@binding.position`: a tuple struct's `0`). */
  written?: string;
}

/** Per scope symbol: variable -> its bindings in source order. */
type BindingScopes = Map<number, Map<string, { at: number; type: string; fromCall: boolean }[]>>;

/**
 * The last binding before `pos`, or the first one when all come later (a field bound in a later
 * method). A declared or constructed type beats what a call returned: the call names no type.
 */
/** The type bound to `key` (as of `pos`) in the scope `from` or the scopes around it. */
function bindingIn(scopes: BindingScopes, key: string, from: number, rangeParent: number[], pos: number): string | null {
  for (let s = from; s >= 0; s = s === 0 ? -1 : rangeParent[s]) {
    const list = scopes.get(s)?.get(key);
    if (list) return typeAt(list, pos);
  }
  return null;
}

function typeAt(all: { at: number; type: string; fromCall: boolean }[], pos: number): string {
  const typed = all.filter((b) => !b.fromCall);
  const list = typed.length ? typed : all;
  let pick = list[0];
  for (const b of list) {
    if (b.at > pos) break;
    pick = b;
  }
  return pick.type;
}

/**
 * `new JsonReader(in)` as a whole receiver (`new JsonReader(in).peek()`) has the type it constructs;
 * `new Builder().named(x)` does not (its type is what `named` returns).
 */
function constructedType(receiver: string): string | null {
  const m = /^new\s+([\w.$]+)\s*(<[^(]*>)?\s*\(/.exec(receiver);
  if (!m || closingParen(receiver, m[0].length - 1) !== receiver.trimEnd().length - 1) return null;
  return normalizeTypeName(m[1]);
}

/** `((JsonTreeReader) reader)` as a whole receiver has the type it is cast to. */
function castType(receiver: string): string | null {
  const m = /^\(\s*\(\s*([A-Za-z_][\w.$]*)\s*(<[^()]*>)?\s*\)/.exec(receiver);
  if (!m || closingParen(receiver, 0) !== receiver.trimEnd().length - 1) return null;
  return normalizeTypeName(m[1]);
}

/** Index of the parenthesis closing the one at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * One call per called name: when patterns overlap (a name inside a Rust macro's token tree matches both
 * the bare and the `recv.name(` pattern, and again in the embedded parse of the macro), the capture
 * with the longest receiver wins.
 */
function withoutRepeats<T extends { name: Node; receiver: Node | null }>(calls: T[]): T[] {
  const byStart = new Map<number, T>();
  const receiverLength = (c: T) => (c.receiver ? c.receiver.endIndex - c.receiver.startIndex : -1);
  for (const c of calls) {
    const prev = byStart.get(c.name.startIndex);
    if (!prev || receiverLength(c) > receiverLength(prev)) byStart.set(c.name.startIndex, c);
  }
  return byStart.size === calls.length ? calls : [...byStart.values()];
}

/** A positional field's index: how many earlier children of its parent have the same field name. */
function fieldPosition(node: Node): number {
  const parent = node.parent;
  if (!parent) return 0;
  let field: string | null = null;
  const earlier: (string | null)[] = [];
  for (let i = 0; i < parent.childCount; i++) {
    const c = parent.child(i);
    if (c && c.startIndex === node.startIndex && c.endIndex === node.endIndex) {
      field = parent.fieldNameForChild(i);
      break;
    }
    earlier.push(parent.fieldNameForChild(i));
  }
  return field === null ? 0 : earlier.filter((f) => f === field).length;
}

/**
 * Where a definition ends: its node, or the body captured with it when the body follows the node
 * instead of lying inside it (Dart: a method's signature and its body are sibling nodes).
 */
function bodyEnd(d: DefMatch): { index: number; row: number } {
  const last = d.body && d.body.endIndex > d.node.endIndex ? d.body : d.node;
  return { index: last.endIndex, row: last.endPosition.row };
}

function byName(captures: QueryCapture[]): Record<string, Node[]> {
  const out: Record<string, Node[]> = {};
  for (const c of captures) (out[c.name] ??= []).push(c.node);
  return out;
}

function isSymbolKind(k: string): k is SymbolKind {
  return (SYMBOL_KINDS as readonly string[]).includes(k);
}

function annotationName(text: string): string {
  return text.replace(/^[@#!\[\s]+/, '').replace(/[\]\s]+$/, '').split(/[(\s]/)[0];
}

export function countLines(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}
