import type { ParseError } from 'jsonc-parser';
import type { Node } from 'web-tree-sitter';
import { jsoncParser } from '../jsonc.js';
import { npmPackage } from '../deps/lookups.js';
import { CONTAINER_KINDS, type ImportResolver, type ImportSpec, type LanguageSpec, type RepoView, type Visibility,
  type VisibilityInput } from './types.js';
import { dirOf, joinPath } from './paths.js';

/**
 * What JavaScript, TypeScript and TSX share: import parsing (ES modules and CommonJS), module
 * resolution (relative paths, workspace packages, tsconfig paths), visibility and test files.
 * Each of the three registry entries is `jsFamilyEntry(...)` with its grammar and query folders.
 */

/** Extensions tried, in order, for an import written without one (`./util` -> `./util.ts`). */
const PROBE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts'];
/** TypeScript's ESM convention: `import './util.js'` names `util.ts` before compilation. */
const SOURCE_FOR_OUTPUT: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts'], '.jsx': ['.tsx'], '.mjs': ['.mts', '.d.mts'], '.cjs': ['.cts', '.d.cts'],
};
const CODE_FILE = /\.([cm]?[jt]sx?)$/;
const TEST_FILE = /(^|\/)(__tests__|tests?)\/|[.-](test|spec|test-d|e2e-spec)\.[cm]?[jt]sx?$/;
/** Build-output folders a package's `main` points into; the source usually sits in `src/`. */
const OUTPUT_DIR = /^(\.\/)?(dist|lib|build|out|esm|cjs|es|module|types)\//;

/**
 * Globals of the language, of Node and browsers, and of the usual test runners (Jest, Vitest, Mocha
 * with globals on): calls through them leave the repository.
 */
const RUNTIME_GLOBALS: ReadonlySet<string> = new Set([
  // ECMAScript
  'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Math', 'JSON', 'Date', 'RegExp',
  'Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError',
  'Promise', 'Proxy', 'Reflect', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'ArrayBuffer',
  'SharedArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Intl', 'Atomics',
  'globalThis', 'parseInt', 'parseFloat', 'isNaN', 'isFinite', 'encodeURIComponent', 'decodeURIComponent', 'encodeURI',
  'decodeURI', 'escape', 'unescape', 'eval', 'arguments',
  // Node and browsers
  'console', 'process', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate',
  'clearImmediate', 'queueMicrotask', 'structuredClone', 'fetch', 'Request', 'Response', 'Headers', 'URL',
  'URLSearchParams', 'FormData', 'Blob', 'File', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal',
  'Event', 'EventTarget', 'CustomEvent', 'ReadableStream', 'WritableStream', 'TransformStream', 'crypto', 'performance',
  'atob', 'btoa', 'window', 'document', 'navigator', 'location', 'history', 'localStorage', 'sessionStorage', 'alert',
  'WebSocket', 'Worker', 'MessageChannel', 'BroadcastChannel', 'requestAnimationFrame', 'cancelAnimationFrame',
  'getComputedStyle', 'matchMedia', 'MutationObserver', 'IntersectionObserver', 'ResizeObserver', 'XMLHttpRequest',
  'Image', 'HTMLElement', 'Node', 'DOMParser',
  // test runners
  'describe', 'it', 'test', 'expect', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after',
  'context', 'specify', 'suite', 'xit', 'xdescribe', 'fit', 'fdescribe', 'vi', 'jest', 'expectTypeOf', 'assertType',
]);

/** Methods of ECMAScript's built-in prototypes (Array, String, Map, Set, Promise, RegExp, Object, Function). */
const RUNTIME_METHODS: ReadonlySet<string> = new Set([
  'forEach', 'map', 'filter', 'reduce', 'reduceRight', 'find', 'findIndex', 'findLast', 'findLastIndex', 'some', 'every',
  'includes', 'indexOf', 'lastIndexOf', 'push', 'pop', 'shift', 'unshift', 'slice', 'splice', 'concat', 'join', 'sort',
  'reverse', 'flat', 'flatMap', 'keys', 'values', 'entries', 'fill', 'at', 'charAt', 'charCodeAt', 'codePointAt',
  'startsWith', 'endsWith', 'trim', 'trimStart', 'trimEnd', 'padStart', 'padEnd', 'split', 'replace', 'replaceAll',
  'toLowerCase', 'toUpperCase', 'match', 'matchAll', 'search', 'substring', 'substr', 'repeat', 'normalize',
  'localeCompare', 'get', 'set', 'has', 'delete', 'clear', 'add', 'then', 'catch', 'finally', 'test', 'exec',
  'hasOwnProperty', 'toString', 'valueOf', 'toJSON', 'call', 'apply', 'bind', 'toFixed', 'toPrecision', 'getTime',
  'toISOString',
]);

// ---- imports ------------------------------------------------------------------------------------

function unquote(node: Node | null | undefined): string | null {
  if (!node || node.type !== 'string') return null;
  return node.text.slice(1, -1);
}

/** `a`, `b as c`, `default as d` from an `import { … }` or `export { … }` list. */
function specifierNames(list: Node): { name: string; alias?: string }[] {
  const out: { name: string; alias?: string }[] = [];
  for (const s of list.namedChildren) {
    if (!s || (s.type !== 'import_specifier' && s.type !== 'export_specifier')) continue;
    const name = s.childForFieldName('name')?.text;
    const alias = s.childForFieldName('alias')?.text;
    if (name) out.push(alias && alias !== name ? { name, alias } : { name });
  }
  return out;
}

function isModuleExports(n: Node | null): boolean {
  return !!n && n.type === 'member_expression' && n.text.replace(/\s+/g, '') === 'module.exports';
}

/** Turns an import, re-export, export alias or `require` node (captured as `@import`) into specs. */
export function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  switch (node.type) {
    case 'import_statement':
      return parseImportStatement(node, line);
    case 'export_statement':
      return parseExportStatement(node, line);
    case 'call_expression':
      return parseRequire(node, line);
    case 'assignment_expression':
      return parseCommonJsExport(node, line);
    default:
      return [];
  }
}

function parseImportStatement(node: Node, line: number): ImportSpec[] {
  const requireClause = node.namedChildren.find((c) => c?.type === 'import_require_clause');
  if (requireClause) {
    // TypeScript `import x = require('y')`: like `const x = require('y')`.
    const module = unquote(requireClause.childForFieldName('source'));
    const alias = requireClause.namedChildren.find((c) => c?.type === 'identifier')?.text;
    if (!module) return [];
    return [{ module, names: alias ? [{ name: 'default', alias }] : [], line }];
  }
  const module = unquote(node.childForFieldName('source'));
  if (module === null) return [];
  const spec: ImportSpec = { module, names: [], line };
  const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
  for (const part of clause?.namedChildren ?? []) {
    if (!part) continue;
    if (part.type === 'identifier') spec.names.push({ name: 'default', alias: part.text });
    else if (part.type === 'namespace_import') spec.alias = part.namedChildren.find((c) => c?.type === 'identifier')?.text;
    else if (part.type === 'named_imports') spec.names.push(...specifierNames(part));
  }
  return [spec];
}

function parseExportStatement(node: Node, line: number): ImportSpec[] {
  const module = unquote(node.childForFieldName('source'));
  const clause = node.namedChildren.find((c) => c?.type === 'export_clause');
  if (module !== null) {
    const ns = node.namedChildren.find((c) => c?.type === 'namespace_export');
    if (clause) return [{ module, names: specifierNames(clause), reexport: true, line }];
    if (ns) return [{ module, alias: ns.namedChildren.find((c) => c)?.text, names: [], reexport: true, line }];
    return [{ module, names: [], wildcard: true, reexport: true, line }];
  }
  // Without a source: names of this file exported under another name (module '' by convention).
  if (clause) {
    const names = specifierNames(clause);
    return names.length ? [{ module: '', names, reexport: true, line }] : [];
  }
  const local = defaultExportName(node);
  return local ? [{ module: '', names: [{ name: local, alias: 'default' }], reexport: true, line }] : [];
}

/** The local name behind `export default x`, `export default class X`, `export = X`. */
function defaultExportName(node: Node): string | null {
  const value = node.childForFieldName('value') ?? node.namedChildren.find((c) => c?.type === 'identifier') ?? null;
  if (value?.type === 'identifier') return value.text;
  const decl = node.childForFieldName('declaration');
  const name = decl?.childForFieldName('name')?.text;
  return name && name !== 'default' ? name : null;
}

function parseRequire(call: Node, line: number): ImportSpec[] {
  const fn = call.childForFieldName('function');
  const args = call.childForFieldName('arguments');
  const module = unquote(args?.namedChildren[0]);
  if (!fn || module === null) return [];
  if (fn.type === 'import') return [{ module, names: [], line }]; // dynamic import(): what it binds is async
  const parent = call.parent;
  // `const x = require('m')`: x is what m assigns to module.exports: its default export, else the
  // module itself (the resolver's resolveMember binds it).
  if (parent?.type === 'variable_declarator' && parent.childForFieldName('value')?.id === call.id) {
    const target = parent.childForFieldName('name');
    if (target?.type === 'identifier') return [{ module, names: [{ name: 'default', alias: target.text }], line }];
    if (target?.type === 'object_pattern') return [{ module, names: patternNames(target), line }];
  }
  // `const y = require('m').y`
  if (parent?.type === 'member_expression' && parent.parent?.type === 'variable_declarator') {
    const prop = parent.childForFieldName('property')?.text;
    const target = parent.parent.childForFieldName('name');
    if (prop && target?.type === 'identifier') return [{ module, names: [prop === target.text ? { name: prop } : { name: prop, alias: target.text }], line }];
  }
  // `module.exports = require('./impl')`: everything impl exports, this file exports.
  if (parent?.type === 'assignment_expression' && isModuleExports(parent.childForFieldName('left'))) {
    return [{ module, names: [], wildcard: true, reexport: true, line }];
  }
  // `module.exports = { Impl: require('./impl') }`: re-exports impl's module.exports as Impl.
  const key = parent?.type === 'pair' ? parent.childForFieldName('key')?.text : undefined;
  const assignment = parent?.parent?.type === 'object' ? parent.parent.parent : null;
  if (key && assignment?.type === 'assignment_expression' && isModuleExports(assignment.childForFieldName('left'))) {
    return [{ module, names: [{ name: 'default', alias: key }], reexport: true, line }];
  }
  return [{ module, names: [], line }];
}

/** `{ a, b: c }` destructured from a `require`. */
function patternNames(pattern: Node): { name: string; alias?: string }[] {
  const out: { name: string; alias?: string }[] = [];
  for (const p of pattern.namedChildren) {
    if (p?.type === 'shorthand_property_identifier_pattern') out.push({ name: p.text });
    else if (p?.type === 'pair_pattern') {
      const key = p.childForFieldName('key')?.text;
      const value = p.childForFieldName('value');
      if (key && value?.type === 'identifier') out.push(key === value.text ? { name: key } : { name: key, alias: value.text });
    }
  }
  return out;
}

/** `module.exports = x`, `module.exports = { a: b }`, `exports.a = b`: export aliases of local names. */
function parseCommonJsExport(node: Node, line: number): ImportSpec[] {
  const left = node.childForFieldName('left');
  const right = node.childForFieldName('right');
  if (!left || !right) return [];
  const names: { name: string; alias?: string }[] = [];
  if (isModuleExports(left)) {
    if (right.type === 'identifier') names.push({ name: right.text, alias: 'default' });
    else if (right.type === 'function_expression' || right.type === 'class') {
      const name = right.childForFieldName('name')?.text;
      if (name) names.push({ name, alias: 'default' });
    } else if (right.type === 'object') {
      for (const pair of right.namedChildren) {
        if (pair?.type !== 'pair') continue;
        const key = pair.childForFieldName('key')?.text;
        const value = pair.childForFieldName('value');
        if (key && value?.type === 'identifier' && key !== value.text) names.push({ name: value.text, alias: key });
      }
    }
  } else if (left.type === 'member_expression' && right.type === 'identifier') {
    const prop = left.childForFieldName('property')?.text;
    if (prop && prop !== right.text) names.push({ name: right.text, alias: prop });
  }
  return names.length ? [{ module: '', names, reexport: true, line }] : [];
}

// ---- symbols ------------------------------------------------------------------------------------

/**
 * Class and interface members are public unless `private`, `protected` or `#name`; so are the
 * properties of an object constant. Top-level names are public when exported, else visible in their
 * module only; functions declared inside a function body are private to it.
 */
export function visibility({ name, kind, modifiers, parentKind, exportedByQuery }: VisibilityInput): Visibility {
  if (modifiers.has('private') || name.startsWith('#')) return 'private';
  if (modifiers.has('protected')) return 'protected';
  if (kind === 'method' || CONTAINER_KINDS.has(parentKind) || parentKind === 'constant') return 'public';
  if (parentKind === 'function' || parentKind === 'method') return 'private';
  return exportedByQuery ? 'public' : 'module';
}

/** `src/util/index.ts` -> `src/util/index`, `types/api.d.ts` -> `types/api`. */
export function moduleName(path: string): string {
  return path.replace(/\.d\.[cm]?ts$/, '').replace(/\.[cm]?[jt]sx?$/, '');
}

export function isTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

// ---- module resolution --------------------------------------------------------------------------

interface PathsConfig {
  /** Directory `paths` targets are relative to: baseUrl, else the tsconfig's own directory. */
  base: string;
  baseUrl: string | null;
  paths: [string, string[]][];
}

/**
 * Resolves module specifiers the way Node and TypeScript do, within the repository: relative paths
 * with extension and `index` probing, tsconfig/jsconfig `paths` and `baseUrl`, and packages of the
 * same repository (a workspace `package.json` declaring the name, mapped to its source entry).
 * Everything else is a dependency: null.
 */
export class JsImportResolver implements ImportResolver {
  private packages: Map<string, string> | null = null; // package name -> its directory
  private readonly configs = new Map<string, PathsConfig | null>(); // directory -> nearest tsconfig
  private readonly packageJsons = new Map<string, Record<string, unknown> | null>(); // directory -> its package.json

  constructor(private readonly repo: RepoView) {}

  resolveModule(spec: ImportSpec, fromPath: string): string[] | null {
    const found = this.resolve(spec.module, fromPath);
    return found ? [found] : null;
  }

  /** A default import of a module without a default export binds the module (CommonJS `module.exports`). */
  resolveMember(spec: ImportSpec, name: string, fromPath: string): string[] | null {
    return name === 'default' ? this.resolveModule(spec, fromPath) : null;
  }

  private resolve(module: string, fromPath: string): string | null {
    if (!module) return null;
    if (module === '.' || module === '..' || module.startsWith('./') || module.startsWith('../')) {
      const target = joinPath(dirOf(fromPath), module);
      return target === null ? null : this.probe(target);
    }
    if (module.startsWith('/') || /^[a-z]+:/.test(module)) return null; // absolute, node:fs, https:
    return this.viaPaths(module, fromPath) ?? this.viaWorkspace(module);
  }

  /** The file a path names: as written, with a source extension added, or the directory's entry. */
  private probe(target: string): string | null {
    return this.probeFile(target) ?? (this.readPackageJson(target) ? this.packageEntry(target) : this.probeIndex(target));
  }

  private probeFile(target: string): string | null {
    const files = this.repo.files;
    const ext = /\.[cm]?jsx?$/.exec(target)?.[0];
    if (files.has(target) && CODE_FILE.test(target)) return target;
    if (ext) {
      const stem = target.slice(0, -ext.length);
      for (const e of SOURCE_FOR_OUTPUT[ext] ?? []) if (files.has(stem + e)) return stem + e;
    }
    for (const e of PROBE_EXTENSIONS) if (files.has(target + e)) return target + e;
    return null;
  }

  private probeIndex(dir: string): string | null {
    const index = dir ? `${dir}/index` : 'index';
    for (const e of PROBE_EXTENSIONS) if (this.repo.files.has(index + e)) return index + e;
    return null;
  }

  private viaPaths(module: string, fromPath: string): string | null {
    const cfg = this.configFor(dirOf(fromPath));
    if (!cfg) return null;
    for (const [pattern, targets] of cfg.paths) {
      const star = pattern.indexOf('*');
      let rest: string | null = null;
      if (star < 0) rest = pattern === module ? '' : null;
      else if (module.startsWith(pattern.slice(0, star)) && module.endsWith(pattern.slice(star + 1))
        && module.length >= pattern.length - 1) {
        rest = module.slice(star, module.length - (pattern.length - star - 1));
      }
      if (rest === null) continue;
      for (const t of targets) {
        const p = joinPath(cfg.base, t.replace('*', rest));
        const hit = p === null ? null : this.probe(p);
        if (hit) return hit;
      }
    }
    if (cfg.baseUrl !== null) {
      const p = joinPath(cfg.baseUrl, module);
      return p === null ? null : this.probe(p);
    }
    return null;
  }

  /** The nearest tsconfig.json or jsconfig.json at or above `dir`, with `extends` followed. */
  private configFor(dir: string): PathsConfig | null {
    const cached = this.configs.get(dir);
    if (cached !== undefined) return cached;
    let cfg: PathsConfig | null = null;
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      cfg = this.readConfig(dir ? `${dir}/${name}` : name, 0);
      if (cfg) break;
    }
    if (!cfg && dir) cfg = this.configFor(dirOf(dir));
    this.configs.set(dir, cfg);
    return cfg;
  }

  private readConfig(file: string, depth: number): PathsConfig | null {
    const text = this.repo.readText(file);
    if (text === null) return null;
    const json = parseJsonc(text) as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | null;
    if (!json || typeof json !== 'object') return null;
    const dir = dirOf(file);
    let inherited: PathsConfig | null = null;
    if (typeof json.extends === 'string' && json.extends.startsWith('.') && depth < 4) {
      const parent = joinPath(dir, json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`);
      if (parent !== null) inherited = this.readConfig(parent, depth + 1);
    }
    const opts = json.compilerOptions ?? {};
    const baseUrl = typeof opts.baseUrl === 'string' ? joinPath(dir, opts.baseUrl) : inherited?.baseUrl ?? null;
    const paths = opts.paths && typeof opts.paths === 'object'
      ? Object.entries(opts.paths as Record<string, unknown>)
        .map(([k, v]) => [k, Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []] as [string, string[]])
      : null;
    // As tsc: `paths` are relative to the effective baseUrl, else to the config that declares them.
    return {
      base: baseUrl ?? (paths ? dir : inherited?.base ?? dir),
      baseUrl,
      paths: paths ?? inherited?.paths ?? [],
    };
  }

  /** `@acme/util` or `@acme/util/sub` when a package.json in this repository is named `@acme/util`. */
  private viaWorkspace(module: string): string | null {
    const packages = this.workspacePackages();
    const parts = module.split('/');
    const nameLength = module.startsWith('@') ? 2 : 1;
    const name = parts.slice(0, nameLength).join('/');
    const dir = packages.get(name);
    if (dir === undefined) return null;
    const sub = parts.slice(nameLength).join('/');
    const join = (p: string) => joinPath(dir, p);
    if (sub) {
      for (const c of [sub, `src/${sub}`, sub.replace(OUTPUT_DIR, 'src/')]) {
        const p = join(c);
        const hit = p === null ? null : this.probe(p);
        if (hit) return hit;
      }
      return null;
    }
    return this.packageEntry(dir);
  }

  private packageEntry(dir: string): string | null {
    const json = this.readPackageJson(dir) ?? {};
    const fields = [json.source, exportsEntry(json.exports), json.module, json.main, json.types, json.typings]
      .filter((f): f is string => typeof f === 'string');
    const candidates: string[] = [];
    for (const f of fields) {
      const clean = f.replace(/^\.\//, '');
      candidates.push(clean, clean.replace(/\.d\.[cm]?ts$|\.[cm]?jsx?$/, ''));
      if (OUTPUT_DIR.test(clean)) candidates.push(clean.replace(OUTPUT_DIR, 'src/').replace(/\.d\.[cm]?ts$|\.[cm]?jsx?$/, ''));
    }
    candidates.push('src/index', 'index', 'lib/index', 'src/main', 'main');
    for (const c of candidates) {
      const p = joinPath(dir, c);
      const hit = p === null ? null : this.probeFile(p) ?? this.probeIndex(p);
      if (hit && !/\.d\.[cm]?ts$/.test(hit)) return hit;
    }
    return null;
  }

  private readPackageJson(dir: string): Record<string, unknown> | null {
    let json = this.packageJsons.get(dir);
    if (json === undefined) {
      const text = this.repo.readText(dir ? `${dir}/package.json` : 'package.json');
      const parsed = text === null ? null : parseJsonc(text);
      json = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
      this.packageJsons.set(dir, json);
    }
    return json;
  }

  /** Package names declared by package.json files next to or above the indexed sources. */
  private workspacePackages(): Map<string, string> {
    if (this.packages) return this.packages;
    const dirs = new Set<string>();
    for (const f of this.repo.files) {
      if (!CODE_FILE.test(f)) continue;
      for (let d = dirOf(f); !dirs.has(d); d = dirOf(d)) {
        dirs.add(d);
        if (!d) break;
      }
    }
    this.packages = new Map();
    for (const d of [...dirs].sort()) {
      const name = this.readPackageJson(d)?.name;
      if (typeof name === 'string' && name && !this.packages.has(name)) this.packages.set(name, d);
    }
    return this.packages;
  }
}

/** The `.` entry of a package.json `exports` field: a string, or the first string among its conditions. */
function exportsEntry(exp: unknown): string | undefined {
  if (typeof exp === 'string') return exp;
  if (!exp || typeof exp !== 'object' || Array.isArray(exp)) return undefined;
  const obj = exp as Record<string, unknown>;
  const root = '.' in obj ? obj['.'] : Object.keys(obj).some((k) => k.startsWith('.')) ? undefined : obj;
  if (typeof root === 'string') return root;
  if (!root || typeof root !== 'object') return undefined;
  const conds = root as Record<string, unknown>;
  for (const key of ['source', 'development', 'import', 'module', 'default', 'require', 'node']) {
    const v = key in conds ? exportsEntry(conds[key]) : undefined;
    if (v) return v;
  }
  return undefined;
}

/** JSON with comments and trailing commas, as tsconfig.json allows; null when it still does not parse. */
export function parseJsonc(text: string): unknown {
  // Most files (every package.json) are plain JSON: the native parser first. A warm one-file update on
  // trpc re-reads its 80 package.json files, and a character-by-character pass over them cost ~2 ms.
  try {
    return JSON.parse(text);
  } catch {
    // comments or trailing commas (tsconfig.json): jsonc-parser, below
  }
  const errors: ParseError[] = [];
  const value = jsoncParser().parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length ? null : value;
}

// ---- the entries --------------------------------------------------------------------------------

/** Functions and blocks: `let`/`const` belong to their block, parameters to their function (queries/js-common/locals.scm). */
const JS_LOCAL_SCOPES: ReadonlySet<string> = new Set([
  'function_declaration', 'function_expression', 'function', 'arrow_function', 'method_definition', 'generator_function',
  'generator_function_declaration', 'statement_block', 'catch_clause', 'for_in_statement', 'for_statement', 'class_static_block',
]);

interface FamilyMember {
  id: string;
  displayName: string;
  extensions: string[];
  grammar: string;
  queryDir: string[];
}

export function jsFamilyEntry(member: FamilyMember): LanguageSpec {
  return {
    ...member,
    family: 'javascript',
    localScopes: JS_LOCAL_SCOPES,
    commentTypes: ['comment'],
    // `export`, `const f = …` and `exports.f = …` statements wrap the definition; JSDoc sits above them.
    wrapperTypes: ['export_statement', 'lexical_declaration', 'variable_declaration', 'expression_statement', 'ambient_declaration'],
    annotationTypes: ['decorator'],
    isDocComment: (text) => /^\/\*\*(?!\/)/.test(text),
    selfNames: ['this'],
    builtins: RUNTIME_GLOBALS,
    builtinMethods: RUNTIME_METHODS,
    visibility,
    parseImport,
    moduleName,
    isTestFile,
    // Tests are `describe`/`it` callbacks, not named symbols: test edges come from the test file's module.
    isTestSymbol: () => false,
    createImportResolver: (repo) => new JsImportResolver(repo),
    installedPackage: npmPackage,
  };
}
