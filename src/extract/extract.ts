import type { Node, QueryCapture, Tree } from 'web-tree-sitter';
import { CONTAINER_KINDS, SYMBOL_KINDS, type SymbolKind } from '../lang/types.js';
import type { LoadedLanguage } from '../lang/loader.js';
import type { CallSite, ExtractedImport, ExtractedSymbol, FileExtract, InheritRef } from './types.js';
import { collapse, firstSentence, normalizeTypeName } from './text.js';
import { callbackRef, hookKind, literalText, routeName, type FireSite, type Registration } from './registrations.js';
import { isConstantName, MAX_ACCESSES_PER_SYMBOL, methodAccess, sqlTables, type Access, type AccessKind, type TableDeclaration } from './accesses.js';
import { appendAll } from '../arrays.js';

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
  /** The symbol's name when no node spells it (an endpoint: `GET /users/{id}`). */
  nameText?: string;
}

/** A registration's captures, merged over the patterns that match the same `@register` node. */
interface RegMatch {
  node: Node;
  routes: Node[];
  /** A route with no path of its own (`@PostMapping`, `@Get()`): the prefix of its type, or `/`. */
  bare: Node | null;
  hook: Node | null;
  event: Node | null;
  verb: Node | null;
  methods: Node | null;
  callback: Node | null;
  handler: Node | null;
}

interface Range {
  start: number;
  end: number;
}

/**
 * A range of a tree that another parse read again: embedded code (a macro body parsed as code) or the
 * inside of a syntax error (`recovery`). What the first tree saw there is superseded by the new parse.
 */
interface ParsedAgain extends Range {
  tree: Tree;
  recovery: boolean;
}

const MAX_MUTATES = 20;
const ERROR_WIDEN_MAX_LINES = 4;

/** Rounds of parsing again what the language calls embedded code (macros inside macros). */
const MAX_EMBED_DEPTH = 3;
/** Rounds of parsing again the inside of syntax errors (an error inside the re-parsed text, and so on). */
const MAX_RECOVERY_DEPTH = 3;
/** Error regions parsed again per file and round; a file with more is mostly noise. */
const MAX_RECOVERED_ERRORS = 50;

/** Parses one file's text and extracts its symbols, imports, call sites and supertypes. */
export function extractSource(lang: LoadedLanguage, path: string, source: string): FileExtract {
  const text = preprocessed(lang, source);
  const tree = lang.parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  const embedded: Tree[] = [];
  const parsedAgain: ParsedAgain[] = [];
  try {
    // Signatures quote the file as written; the rewrite keeps offsets, so the tree's positions fit both.
    // Code the grammar saw only as tokens (Rust's `cfg_rt! { pub fn f() {} }`) is parsed again on its own.
    for (let root = tree.rootNode, depth = 0; lang.spec.embeddedRanges && depth < MAX_EMBED_DEPTH; depth++) {
      const includedRanges = lang.spec.embeddedRanges(root);
      if (!includedRanges.length) break;
      const next = lang.parser.parse(text, null, { includedRanges });
      if (!next) break;
      embedded.push(next);
      for (const r of includedRanges) parsedAgain.push({ start: r.startIndex, end: r.endIndex, tree: root.tree, recovery: false });
      root = next.rootNode;
    }
    const recovered = recoverErrors(lang, text, tree.rootNode, parsedAgain);
    return new FileExtractor(lang, path, source, tree.rootNode, embedded.map((t) => t.rootNode), parsedAgain,
      recovered.map((t) => t.rootNode)).run();
  } finally {
    tree.delete();
    for (const t of embedded) t.delete();
  }
}

/**
 * Error recovery. Tree-sitter wraps what follows a syntax error in an ERROR node, and may swallow
 * well-formed code after it there (a class whose first method has a broken parameter list loses its
 * other methods). The text of each multi-line ERROR, from the line after the one it starts on, is
 * parsed again on its own (positions kept); what that parse finds supersedes what the ERROR held. An
 * error in the new parse is recovered the same way, a few rounds deep. Returns the new trees, which
 * the caller deletes (they are also in the result's trees, via `parsedAgain`).
 */
function recoverErrors(lang: LoadedLanguage, text: string, root: Node, parsedAgain: ParsedAgain[]): Tree[] {
  const trees: Tree[] = [];
  let roots = [root];
  for (let depth = 0; depth < MAX_RECOVERY_DEPTH && roots.length; depth++) {
    const next: Node[] = [];
    for (const r of roots) {
      if (!r.hasError) continue;
      for (const err of outermostErrors(r).slice(0, MAX_RECOVERED_ERRORS)) {
        const lineEnd = text.indexOf('\n', err.startIndex);
        if (lineEnd < 0 || lineEnd + 1 >= err.endIndex) continue; // a one-line error hides nothing
        const start = lineEnd + 1;
        const t = lang.parser.parse(text, null, { includedRanges: [{
          startIndex: start, endIndex: err.endIndex, startPosition: { row: err.startPosition.row + 1, column: 0 }, endPosition: err.endPosition,
        }] });
        if (!t) continue;
        trees.push(t);
        parsedAgain.push({ start, end: err.endIndex, tree: r.tree, recovery: true });
        next.push(t.rootNode);
      }
    }
    roots = next;
  }
  return trees;
}

/**
 * The starts of every supported language's comments (`//`, `/*`, `#`, `--`, `{-`, `=begin`) and
 * annotations (`@`, `#[`): a header without any of them has nothing signatureSource would cut.
 * Annotations written in brackets (C#'s `[HttpGet]`) add `[`, which elsewhere is mostly types (`[]byte`).
 */
const CUT_MARKERS = /\/[/*]|#|@|--|\{-|=begin/;
const CUT_MARKERS_BRACKETS = /\/[/*]|#|@|--|\{-|=begin|\[/;
const BRACKETED_ANNOTATIONS = new Set(['attribute_list']);

/** The ERROR nodes of a tree that are not inside another one. */
function outermostErrors(root: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: Node) => {
    if (n.isError) {
      out.push(n);
      return;
    }
    for (const c of n.children) if (c && c.hasError) visit(c);
  };
  visit(root);
  return out;
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
  /** Symbol index by the node id of its definition, and of its name (registrations find their endpoints and handlers). */
  private readonly symbolOfDef = new Map<number, number>();
  private readonly symbolOfName = new Map<number, number>();
  private readonly isTestFile: boolean;
  /** What a comment or an annotation of any supported language starts with (signatureSource's quick test). */
  private readonly cutMarkers: RegExp;

  constructor(
    private readonly lang: LoadedLanguage,
    private readonly path: string,
    private readonly source: string,
    private readonly root: Node,
    private readonly embeddedRoots: Node[] = [],
    /** Ranges of a tree that the next embedded tree parsed again: what that tree saw there is superseded. */
    private readonly parsedAgain: ParsedAgain[] = [],
    /** Trees of the inside of syntax errors, parsed again (see recoverErrors). */
    private readonly recoveredRoots: Node[] = [],
  ) {
    this.spec = lang.spec;
    this.isTestFile = this.spec.isTestFile(path);
    this.cutMarkers = this.spec.annotationTypes.some((t) => BRACKETED_ANNOTATIONS.has(t)) ? CUT_MARKERS_BRACKETS : CUT_MARKERS;
  }

  run(): FileExtract {
    const defs = new Map<number, DefMatch>();
    const calls: { call: Node; name: Node; receiver: Node | null }[] = [];
    const importNodes: Node[] = [];
    const inherits: { node: Node; kind: 'extends' | 'implements' }[] = [];
    const bindings: Binding[] = [];
    const localNames: Node[] = [];
    const localDefinitions: Node[] = [];
    const localProperties: Node[] = [];
    const mutateTargets: Node[] = [];
    const mutateGlobals: Node[] = [];
    const exportNodes = new Set<number>();
    const exportNames = new Set<string>();
    let moduleDoc: Node | null = null;
    const moduleDocLines: Node[] = [];
    const regs = new Map<number, RegMatch>();
    /** Route prefixes of types (`@RequestMapping("/users")` on a class), by the type's node id. */
    const prefixes = new Map<number, Node>();
    const fires: { node: Node; literal: Node; verb: Node | null; kind: 'hook' | 'event' }[] = [];
    const access: AccessNodes = { reads: [], writes: [], sql: [], models: [], tables: [], declared: [] };

    for (const root of this.embeddedRoots) if (root.hasError) this.collectErrors(root, new Set(), this.embeddedErrors);
    const matches = [this.root, ...this.embeddedRoots, ...this.recoveredRoots].flatMap((root) => this.lang.query.matches(root));
    for (const match of matches) {
      // Embedded code supersedes any match that touches it; a recovered error region only the matches wholly
      // inside it (a class whose header precedes the error keeps its match, body and all).
      if (this.parsedAgain.length && (match.captures.some((c) => this.inEmbeddedError(c.node) || this.superseded(c.node, false))
        || match.captures.every((c) => this.superseded(c.node, true)))) {
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
      } else if (caps['local.name'] || caps['local.definition'] || caps['local.property']) {
        localNames.push(...(caps['local.name'] ?? []));
        localDefinitions.push(...(caps['local.definition'] ?? []));
        localProperties.push(...(caps['local.property'] ?? []));
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
      } else if (caps.register) {
        const node = caps.register[0];
        const r: RegMatch = regs.get(node.id) ?? {
          node, routes: [], bare: null, hook: null, event: null, verb: null, methods: null, callback: null, handler: null,
        };
        for (const n of caps['register.route'] ?? []) if (!r.routes.some((x) => x.id === n.id)) r.routes.push(n);
        r.bare ??= caps['register.bare']?.[0] ?? null;
        r.hook ??= caps['register.hook']?.[0] ?? null;
        r.event ??= caps['register.event']?.[0] ?? null;
        r.verb ??= caps['register.verb']?.[0] ?? null;
        r.methods ??= caps['register.methods']?.[0] ?? null;
        r.callback ??= caps['register.callback']?.[0] ?? null;
        r.handler ??= caps['register.handler']?.[0] ?? null;
        regs.set(node.id, r);
      } else if (caps['register.prefix'] && caps['register.scope']) {
        prefixes.set(caps['register.scope'][0].id, caps['register.prefix'][0]);
      } else if (caps.fire && (caps['fire.hook'] || caps['fire.event'])) {
        const literal = (caps['fire.hook'] ?? caps['fire.event'])[0];
        fires.push({ node: caps.fire[0], literal, verb: caps['fire.verb']?.[0] ?? null, kind: caps['fire.hook'] ? 'hook' : 'event' });
      } else if (caps['access.read'] || caps['access.write']) {
        access.reads.push(...(caps['access.read'] ?? []));
        access.writes.push(...(caps['access.write'] ?? []));
      } else if (caps['access.sql']) {
        access.sql.push(caps['access.sql'][0]);
      } else if (caps['access.model']) {
        access.models.push({ node: caps['access.model'][0], method: caps['access.method']?.[0] ?? null });
      } else if (caps['access.table']) {
        access.tables.push({ node: caps['access.table'][0], method: caps['access.method']?.[0] ?? null });
      } else if (caps['access.declare']) {
        access.declared.push({ node: caps['access.declare'][0], owner: caps['access.owner']?.[0] ?? null });
      } else if (caps['module.doc']) {
        moduleDoc ??= caps['module.doc'][0];
      } else if (caps['module.doc.line']) {
        moduleDocLines.push(...caps['module.doc.line']);
      } else if (caps.export || caps['export.name']) {
        for (const n of caps.export ?? []) exportNodes.add(n.id);
        for (const n of caps['export.name'] ?? []) exportNames.add(n.text);
      }
    }

    for (const root of [this.root, ...this.recoveredRoots]) if (root.hasError) this.collectErrors(root, new Set(defs.keys()));
    // Errors the grammar parses without an ERROR node. One that holds an ERROR node is left to that node
    // (and to recovery above): a class whose body the ERROR swallowed looks like a header with no body.
    for (const n of this.spec.syntaxErrors?.(this.root) ?? []) {
      if (!n.hasError) this.errors.push({ start: n.startIndex, end: Math.max(n.endIndex, n.startIndex + 1) });
    }
    for (const r of regs.values()) {
      if (!isRoute(r)) continue;
      // A route is an endpoint symbol: the registration's node, named by method and path.
      const routes = [...r.routes].sort((a, b) => a.startIndex - b.startIndex);
      const nameText = routeName(r.verb?.text ?? null, r.methods?.text ?? null, routes.map((n) => n.text), prefixOf(r.node, prefixes)?.text ?? null);
      defs.set(r.node.id, { node: r.node, kind: 'endpoint', name: routes[0] ?? r.bare, doc: null, params: null, paramList: [], body: null,
        receiver: null, nameText });
    }
    this.buildSymbols([...defs.values()], exportNodes, exportNames, moduleDoc, moduleDocLines);
    const scopes = this.bindingScopes(bindings);
    const locals = this.localBindings(localNames, localDefinitions, localProperties);
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
      calls: withoutRepeats(calls).map((c) => this.callSite(c, scopes, locals)).sort((a, b) => a.line - b.line),
      inherits: this.inheritRefs(inherits),
      imports: this.imports(importNodes),
      registrations: this.registrations([...regs.values()], scopes),
      accesses: this.accesses(access, calls, [...regs.values()].flatMap((r) => (r.callback ? [r.callback] : [])), scopes, mutateGlobals),
      tables: this.tableDeclarations(access.declared),
      fires: fires.map((f) => this.fireSite(f)).filter((f): f is FireSite => f !== null),
    };
  }

  // ---- syntax errors -------------------------------------------------------------------------

  /**
   * Error regions: each ERROR or MISSING node, widened to its parent when the parent is a small
   * construct (an expression or statement of a few lines), because the code around a parse error is
   * guessed too. Definitions and large parents are not widened: their other members parse fine.
   */
  private collectErrors(node: Node, defNodes: Set<number>, into: Range[] = this.errors): void {
    const recovered = node.isError ? this.parsedAgain.find((r) => r.recovery && r.tree === node.tree && r.end === node.endIndex
      && r.start > node.startIndex) : undefined;
    if (recovered) {
      // The rest was parsed again, and that parse's own errors count: the error is the line it starts on.
      into.push({ start: node.startIndex, end: recovered.start });
      return;
    }
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
   * body that now parses as code), unless that parse failed there; or, with `recovery`, inside an error
   * region that was parsed again.
   */
  private superseded(node: Node, recovery: boolean): boolean {
    for (const r of this.parsedAgain) {
      if (r.recovery === recovery && r.tree === node.tree && r.start <= node.startIndex && node.endIndex <= r.end) {
        return recovery || !this.embeddedErrors.some((e) => node.startIndex < e.end && e.start < node.endIndex);
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
      if (d.kind === 'endpoint') {
        this.pushEndpoint(d, frame, stack);
        continue;
      }
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
      this.symbolOfDef.set(d.node.id, idx);
      this.symbolOfName.set(d.name!.id, idx);
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

  /**
   * An endpoint: named by its route, not qualified by what it is written in (a route is global), and
   * transparent to what it holds (an inline handler's definitions keep their qualified names) but
   * their parent: the calls an inline handler makes are the endpoint's.
   */
  private pushEndpoint(d: DefMatch, frame: { sym: number; qn: string; kind: string } | undefined,
    stack: { end: number; sym: number; qn: string; kind: string; typeName: string | null }[]): void {
    const idx = this.symbols.length;
    const rangeParent = this.enclosingSymbol(stack);
    this.symbols.push({
      name: d.nameText!, qualifiedName: d.nameText!, kind: 'endpoint', parent: frame && frame.sym >= 0 ? frame.sym : 0,
      startLine: d.node.startPosition.row + 1, endLine: d.node.endPosition.row + 1,
      signature: collapse(this.source.slice(d.node.startIndex, d.node.endIndex).split('\n')[0].replace(/[\s{(,]+$/, '')), doc: null,
      params: [], visibility: 'public', isAsync: false, isStatic: false, mutates: [], annotations: [], exported: false, isTest: false,
      inError: this.inError(d.name!),
    });
    this.ranges.push({ start: d.node.startIndex, end: d.node.endIndex });
    this.rangeParent.push(rangeParent);
    this.symbolOfDef.set(d.node.id, idx);
    stack.push({ end: d.node.endIndex, sym: idx, qn: frame?.qn ?? '', kind: 'function', typeName: null });
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
      else appendAll(found, c.descendantsOfType(types));
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
    let end = d.body && d.body.startIndex > node.startIndex ? d.body.startIndex : node.endIndex;
    // A header broken by a syntax error (`class A:` then a def the parser could not read) ends where the error starts.
    for (const e of this.errors) if (e.start > d.name!.endIndex && e.start < end) end = e.start;
    const text = d.body ? this.signatureSource(node, d.name!, end) : this.firstSignatureLine(node, d.name!, end);
    // Scala and Kotlin write `=` before an expression body: `def key: String = name`.
    return collapse(text.replace(/[\s{:;,]+$/, '').replace(/\s*=>\s*$/, ' =>').replace(/\s+=$/, ''));
  }

  /**
   * The first line of signatureSource(node, name, end) once trimmed, for a definition without a body
   * (a constant, a type alias, a table of values): read up to the first line's end only, not the whole
   * definition's tree, since a shorter read gives a prefix of the same text (cuts past the limit only
   * remove text past it). Go's `unicode/tables.go` holds variables of thousands of nodes each.
   */
  private firstSignatureLine(node: Node, name: Node, end: number): string {
    let limit = node.startIndex;
    for (;;) {
      const nl = this.source.indexOf('\n', limit + 1);
      limit = nl < 0 || nl >= end ? end : nl + 1;
      const text = this.signatureSource(node, name, limit).trimStart();
      if (limit >= end || text.includes('\n')) return text.split('\n')[0];
    }
  }

  /**
   * The definition's text up to `end` without comments, nor the annotations written before its name
   * (they are listed apart): `@Override // why` is not part of a signature.
   */
  private signatureSource(node: Node, name: Node, end: number): string {
    // Most headers hold no comment and no annotation: their text is the signature, and walking their
    // nodes (one wasm call a child) to find none was ~5 % of extracting Go. The test reads a few
    // characters past `end`, so a comment that starts just before it is still seen.
    if (!this.cutMarkers.test(this.source.slice(node.startIndex, end + 8))) return this.source.slice(node.startIndex, Math.max(node.startIndex, end));
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
      let type = normalizeTypeName(b.type.text);
      if (!type) continue;
      // `c, r := CreateTestContext(w)`: each name holds one of the call's results, `F#0` and `F#1`.
      const names = b.fromCall && b.name.parent?.type === 'expression_list' ? b.name.parent.namedChildren : null;
      if (names && names.length > 1) type = `${type}#${names.findIndex((n) => n?.id === b.name.id)}`;
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

  private callSite(c: { call: Node; name: Node; receiver: Node | null }, scopes: BindingScopes, locals: LocalBindings): CallSite {
    const caller = this.symbolAt(c.call.startIndex);
    const receiver = c.receiver ? collapse(c.receiver.text, 120) : null;
    const receiverType = receiver ? this.receiverType(receiver, caller, c.call.startIndex, scopes) : null;
    const site: CallSite = {
      caller,
      name: c.name.text,
      receiver,
      receiverType,
      line: c.call.startPosition.row + 1,
      inError: this.inError(c.call),
    };
    if (!receiver) {
      const local = localBindingAt(locals, site.name, c.call.startIndex);
      if (local !== undefined) site.local = local;
    } else if (!receiverType && this.spec.externalChains) {
      // `w.Body`, `w.Header()`, `resp.Header`: the type of the variable the chain starts from.
      const head = /^([\p{L}_][\p{L}\p{N}_]*)\./u.exec(receiver)?.[1];
      const headType = head && !receiver.includes('.(') ? this.receiverType(head, caller, c.call.startIndex, scopes) : null;
      if (headType) site.receiverHead = headType;
    }
    return site;
  }

  /**
   * The names bound inside the language's local scopes, by name: each binding's scope (the nearest
   * scope node around a parameter or variable, the one around a declared function's or class's own node)
   * and what it binds, the start line of the file's definition declared there or 0 for a plain value.
   * A function-valued property of an object literal inside a scope (`new Hono({ getPath: (req) => … })`
   * in a test's callback) binds nothing, but only that scope sees it either: it is `scoped` too.
   */
  private localBindings(names: Node[], definitions: Node[], properties: Node[]): LocalBindings {
    const out: LocalBindings = new Map();
    const scopeTypes = this.spec.localScopes;
    if (!scopeTypes || (!names.length && !definitions.length && !properties.length)) return out;
    const add = (name: Node, from: Node | null, binds = true) => {
      let scope = from;
      while (scope && !scopeTypes.has(scope.type)) scope = scope.parent;
      if (!scope) return; // bound at the top of the file: the file's own scope, resolved as before
      const sym = this.symbolAt(name.startIndex);
      const s = this.symbols[sym];
      const line = sym > 0 && s.name === name.text && s.startLine >= scope.startPosition.row + 1 ? s.startLine : 0;
      // Parented at the module only because the callback around it is not a symbol.
      if (line && s.parent === 0) s.scoped = true;
      if (!binds) return;
      let list = out.get(name.text);
      if (!list) out.set(name.text, (list = []));
      list.push({ start: scope.startIndex, end: scope.endIndex, line });
    };
    for (const n of names) add(n, n.parent);
    // A declaration's name belongs to the scope around the declaration, not to the function it names.
    for (const n of definitions) add(n, n.parent?.parent ?? null);
    for (const n of properties) add(n, n.parent?.parent ?? null, false);
    return out;
  }

  /** The type of a receiver as written at `at` in symbol `from`: its binding, the field it names, or what it constructs or casts to. */
  private receiverType(receiver: string, from: number, at: number, scopes: BindingScopes): string | null {
    let type: string | null = null;
    if (scopes.size) {
      const key = receiver.replace(/\s+/g, '');
      const field = this.selfMemberName(key);
      const start = field !== null ? this.containerOf(from) : from;
      type = bindingIn(scopes, key, start, this.rangeParent, at);
      // `this.repo` is the field `repo` the class declares (`private Repo repo;`, `let session: Session`).
      if (!type && field !== null) {
        const list = scopes.get(start)?.get(field);
        if (list) type = typeAt(list, at);
      }
      // A type that is itself bound is a generic parameter standing for its constraint (`t: T.Type`, `<T: Command>`).
      if (type) type = bindingIn(scopes, type, from, this.rangeParent, at) ?? type;
      // What a method of a variable returns (`c := router.allocateContext()`): the method of the variable's type.
      const method = type ? /^([\p{L}_][\p{L}\p{N}_]*)\.([\p{L}_][\p{L}\p{N}_]*(?:#\d+)?)$/u.exec(type) : null;
      const owner = method ? bindingIn(scopes, method[1], from, this.rangeParent, at) : null;
      // (Not `router = router.Group("/v1")`, a variable bound to its own method's result.)
      if (owner && /^[\p{L}_][\p{L}\p{N}_.#]*$/u.test(owner) && owner.split('.')[0] !== method![1]) type = `${owner}.${method![2]}`;
    }
    return type ?? constructedType(receiver) ?? castType(receiver);
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

  /**
   * Registrations (src/extract/registrations.ts): a route starts from its endpoint symbol, a hook or
   * event from the symbol around the call; the callback is the decorated definition or the named one.
   */
  private registrations(regs: RegMatch[], scopes: BindingScopes): Registration[] {
    const out: Registration[] = [];
    for (const r of regs) {
      const route = isRoute(r);
      const literal = route ? null : r.hook ?? r.event;
      if (!route && !literal) continue;
      const symbol = route ? this.symbolOfDef.get(r.node.id) : this.symbolAt(r.node.startIndex);
      if (symbol === undefined) continue;
      const handler = r.handler ? this.symbolOfName.get(r.handler.id) ?? -1 : -1;
      const callback = handler >= 0 ? { name: this.symbols[handler].name, receiver: null, literal: false }
        : r.callback ? callbackRef(r.callback.text) : null;
      const kind = route ? 'route' : r.hook ? hookKind(r.verb?.text ?? '') : 'event';
      const name = route ? this.symbols[symbol].name : literalText(literal!.text);
      if (!name) continue;
      const callbackType = callback?.receiver ? this.receiverType(callback.receiver, symbol, r.node.startIndex, scopes) : null;
      out.push({ symbol, kind, name, callback, callbackType, handler, line: r.node.startPosition.row + 1, inError: this.inError(r.node) });
    }
    return out.sort((a, b) => a.line - b.line || a.symbol - b.symbol);
  }

  private fireSite(f: { node: Node; literal: Node; verb: Node | null; kind: 'hook' | 'event' }): FireSite | null {
    const name = literalText(f.literal.text);
    if (!name) return null;
    return { symbol: this.symbolAt(f.node.startIndex), kind: f.kind === 'hook' ? hookKind(f.verb?.text ?? '') : 'event', name,
      line: f.node.startPosition.row + 1, inError: this.inError(f.node) };
  }

  /**
   * Reads and writes (src/extract/accesses.ts) by the functions, methods and endpoints around them. A
   * member access is kept when its receiver can be resolved later (self, a bound type, a capitalised
   * name) or its name is a constant's; a bare name when it is a constant, a top-level definition of
   * this file, a declared global, or a field of the enclosing type (Java's implicit `this`). A callee
   * (`obj.method` in `obj.method()`) or a callback is no read. One access per function, kind, receiver and name.
   */
  private accesses(n: AccessNodes, calls: { name: Node; receiver: Node | null }[], callbacks: Node[], scopes: BindingScopes,
    globals: Node[]): Access[] {
    // A callee (`obj.method` of `obj.method()`) or a registered callback (`s.handle`) is no data.
    const callees = new Set([...calls.map((c) => `${(c.receiver ?? c.name).startIndex}:${c.name.endIndex}`),
      ...callbacks.map((c) => `${c.startIndex}:${c.endIndex}`)]);
    const written = new Set(n.writes.map((w) => `${w.startIndex}:${w.endIndex}`));
    const topLevel = new Set(this.symbols.filter((s) => s.parent === 0 && s.kind === 'constant').map((s) => s.name));
    const declaredGlobal = new Set(globals.map((g) => `${this.symbolAt(g.startIndex)}:${g.text}`));
    const out = new Map<string, Access>();
    const perSymbol = new Map<number, number>();
    const add = (a: Access) => {
      const key = `${a.symbol}\0${a.kind}\0${a.what}\0${a.receiver}\0${a.name}`;
      const count = perSymbol.get(a.symbol) ?? 0;
      if (out.has(key) || count >= MAX_ACCESSES_PER_SYMBOL) return;
      perSymbol.set(a.symbol, count + 1);
      out.set(key, a);
    };
    const accessor = (node: Node, constants = false) => {
      const sym = this.symbolAt(node.startIndex);
      const kind = this.symbols[sym].kind;
      return kind === 'function' || kind === 'method' || kind === 'endpoint' || (constants && kind === 'constant') ? sym : -1;
    };
    const base = (node: Node, sym: number) => ({ symbol: sym, line: node.startPosition.row + 1, inError: this.inError(node) });
    for (const [kind, nodes] of [['write', n.writes], ['read', n.reads]] as [AccessKind, Node[]][]) {
      for (const node of nodes) {
        const range = `${node.startIndex}:${node.endIndex}`;
        if (kind === 'read' && (written.has(range) || callees.has(range))) continue;
        const sym = accessor(node);
        if (sym < 0) continue;
        const parts = memberParts(node);
        // `User.self` (Swift's metatype) names the type, not a field.
        if (!parts || (parts.receiver !== null && this.spec.selfNames.includes(parts.name))) continue;
        if (parts.receiver === null) {
          const field = this.fieldOfEnclosingType(parts.name, sym, scopes);
          if (field) add({ ...base(node, sym), kind, what: 'field', name: parts.name, receiver: field, receiverType: null });
          else if (isConstantName(parts.name) || topLevel.has(parts.name) || declaredGlobal.has(`${sym}:${parts.name}`)) {
            add({ ...base(node, sym), kind, what: 'global', name: parts.name, receiver: null, receiverType: null });
          }
          continue;
        }
        const receiverType = this.receiverType(parts.receiver, sym, node.startIndex, scopes);
        const self = this.spec.selfNames.includes(parts.receiver.replace(/\s+/g, ''));
        if (!self && !receiverType && !isConstantName(parts.name) && !/^[A-Z]\w*$/.test(parts.receiver)) continue;
        add({ ...base(node, sym), kind, what: 'field', name: parts.name, receiver: parts.receiver, receiverType: self ? null : receiverType });
      }
    }
    for (const node of n.sql) {
      const sym = accessor(node, true);
      if (sym < 0) continue;
      for (const t of sqlTables(literalText(node.text))) add({ ...base(node, sym), kind: t.kind, what: 'table', name: t.table, receiver: null, receiverType: null });
    }
    for (const m of n.models) {
      const sym = accessor(m.node);
      const name = normalizeTypeName(m.node.text);
      if (sym < 0 || !name) continue;
      add({ ...base(m.node, sym), kind: methodAccess(m.method?.text ?? ''), what: 'model', name, receiver: null, receiverType: null });
    }
    for (const t of n.tables) {
      const sym = accessor(t.node, true);
      const name = literalText(t.node.text);
      if (sym < 0 || !/^[A-Za-z_][\w$]*$/.test(name)) continue;
      add({ ...base(t.node, sym), kind: methodAccess(t.method?.text ?? ''), what: 'table', name, receiver: null, receiverType: null });
    }
    return [...out.values()].sort((a, b) => a.line - b.line || a.symbol - b.symbol);
  }

  /**
   * `self.name` when `name` is a field the enclosing type declares (`@binding.field`), in a language
   * where a bare name reaches members (Java's and Swift's implicit `this`); elsewhere a bare name is a
   * local (Rust's `skip = Some(..)` beside a field `skip`).
   */
  private fieldOfEnclosingType(name: string, sym: number, scopes: BindingScopes): string | null {
    if (!this.spec.bareCallsReachMembers) return null;
    const container = this.containerOf(sym);
    if (container === sym || !CONTAINER_KINDS.has(this.symbols[container].kind)) return null;
    const self = this.spec.selfNames[0];
    const spelled = this.spec.fieldAccess?.(name) ?? `${self}.${name}`;
    return scopes.get(container)?.has(spelled) ? self : null;
  }

  /** Classes that declare their table (`__tablename__`, `$table`, `@Table(name = ...)`). */
  private tableDeclarations(declared: { node: Node; owner: Node | null }[]): TableDeclaration[] {
    const out: TableDeclaration[] = [];
    for (const d of declared) {
      const owner = d.owner ? this.symbolOfName.get(d.owner.id) ?? -1 : this.containerOf(this.symbolAt(d.node.startIndex));
      const table = literalText(d.node.text);
      if (owner <= 0 || !CONTAINER_KINDS.has(this.symbols[owner].kind) || !/^[A-Za-z_][\w$.]*$/.test(table)) continue;
      out.push({ symbol: owner, table: table.slice(table.lastIndexOf('.') + 1), line: d.node.startPosition.row + 1 });
    }
    return out;
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

/** The nodes the data-access patterns captured (queries/README.md, "Data access"). */
interface AccessNodes {
  reads: Node[];
  writes: Node[];
  sql: Node[];
  models: { node: Node; method: Node | null }[];
  tables: { node: Node; method: Node | null }[];
  declared: { node: Node; owner: Node | null }[];
}

/**
 * A member access's receiver and name (`self.total` -> self, total; `$this->repo` -> $this, repo;
 * Swift's `.suffix` without its dot), or a bare name; null when the name is no identifier.
 */
function memberParts(node: Node): { receiver: string | null; name: string } | null {
  if (node.namedChildCount < 2) return /^[A-Za-z_$][\w$]*$/.test(node.text) ? { receiver: null, name: node.text } : null;
  const first = node.namedChild(0)!;
  const last = node.namedChild(node.namedChildCount - 1)!;
  const name = last.text.replace(/^[^\w]+/, '');
  // `Foo::class`, `Foo.class`: the class itself, not a member of it.
  if (!/^[A-Za-z_$][\w$]*$/.test(name) || name === 'class') return null;
  return { receiver: collapse(first.text, 120), name };
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

function isRoute(r: RegMatch): boolean {
  return r.routes.length > 0 || r.bare !== null;
}

/** The route prefix declared on the nearest type around a registration (`@RequestMapping("/users")`), if any. */
function prefixOf(node: Node, prefixes: Map<number, Node>): Node | null {
  if (!prefixes.size) return null;
  for (let n = node.parent; n; n = n.parent) {
    const p = prefixes.get(n.id);
    if (p) return p;
  }
  return null;
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

/** Per name, the local scopes that bind it: their byte range and the definition's start line (0: a value). */
type LocalBindings = Map<string, { start: number; end: number; line: number }[]>;

/** The innermost local binding of `name` around byte `at`, or undefined when none is. */
function localBindingAt(locals: LocalBindings, name: string, at: number): number | undefined {
  const list = locals.get(name);
  if (!list) return undefined;
  let best: { start: number; end: number; line: number } | undefined;
  for (const b of list) if (b.start <= at && at < b.end && (!best || b.start >= best.start)) best = b;
  return best?.line;
}
