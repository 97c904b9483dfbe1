import type { Node } from 'web-tree-sitter';
import { goVendorPackage } from '../deps/lookups.js';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { baseName, dirOf, joinPath, stripExt } from './paths.js';

const TEST_FILE = /_test\.go$/;
// `go test` runs TestXxx, BenchmarkXxx, FuzzXxx and ExampleXxx, where Xxx does not start with a
// lower-case letter (`Testify` is not a test).
const TEST_FUNC = /^(Test|Benchmark|Fuzz|Example)(?!\p{Ll})/u;
const EXPORTED = /^\p{Lu}/u;
const PREDECLARED_TYPES = [
  'error', 'string', 'bool', 'byte', 'rune', 'any', 'comparable', 'uintptr', 'int', 'int8', 'int16', 'int32', 'int64',
  'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64', 'complex64', 'complex128',
];

function parseImport(node: Node): ImportSpec[] {
  return node.descendantsOfType('import_spec').flatMap((spec) => (spec ? [importSpec(spec)] : []));
}

function importSpec(spec: Node): ImportSpec {
  const path = spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '') ?? '';
  const name = spec.childForFieldName('name');
  const out: ImportSpec = { module: path, names: [], line: spec.startPosition.row + 1 };
  if (!name) out.alias = assumedPackageName(path);
  else if (name.type === 'dot') out.wildcard = true;
  // A `_` import only runs the package's init functions: an import edge, no name.
  else if (name.type !== 'blank_identifier') out.alias = name.text;
  return out;
}

/**
 * The name a package is assumed to declare, as Go tooling guesses it from the import path: the last
 * element, skipping a major-version element (`/v5`), without a `go-` prefix and cut at the first
 * character that cannot be in an identifier (`yaml.v3` -> `yaml`, `go-isatty` -> `isatty`).
 */
export function assumedPackageName(importPath: string): string {
  const parts = importPath.split('/');
  let base = parts[parts.length - 1];
  if (/^v\d+$/.test(base) && parts.length > 1) base = parts[parts.length - 2];
  base = base.replace(/^go-/, '');
  const cut = base.search(/[^\p{L}\p{N}_]/u);
  return cut > 0 ? base.slice(0, cut) : base;
}

/**
 * The first result type of a function signature (`func New(c Conn) (*Client, error)` -> `*Client`).
 * Every name of `x, err := New(c)` is bound to the call, so a second result that could have methods
 * of its own (`(*Client, *Server)`) makes it null, as do named results without a type of their own
 * (`(a, b int)`) and no result.
 */
export function returnType(signature: string, index?: number): string | null {
  let i = signature.startsWith('func') ? 4 : 0;
  const skipSpace = () => {
    while (signature[i] === ' ') i++;
  };
  skipSpace();
  if (signature[i] === '(') i = closing(signature, i) + 1; // receiver
  skipSpace();
  while (i < signature.length && /[\p{L}\p{N}_]/u.test(signature[i])) i++;
  if (signature[i] === '[') i = closing(signature, i) + 1; // type parameters
  if (signature[i] !== '(') return null;
  const rest = signature.slice(closing(signature, i) + 1).trim();
  if (!rest) return null;
  if (!rest.startsWith('(')) return index ? null : rest;
  const results = splitTopLevel(rest.slice(1, closing(rest, 0))).map((r) => splitTopLevel(r, ' '));
  const named = results.some((r) => r.length > 1);
  if (named && results[0].length === 1) return null;
  const types = results.map((r) => r.slice(named ? 1 : 0).join(' '));
  if (index !== undefined) return types[index] || null;
  return types.slice(1).every((t) => t === 'error' || t === 'bool') ? types[0] || null : null;
}

/** Index of the bracket closing the one at `open` (the end of the text when unbalanced). */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && --depth === 0) return i;
  }
  return text.length;
}

/** Splits on a separator outside brackets, dropping empty parts. */
function splitTopLevel(text: string, sep = ','): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

interface GoModule {
  path: string; // module path from go.mod
  dir: string; // repo-relative directory holding go.mod ('' at the root)
}

/**
 * Import paths inside a module of the repository (every go.mod found above a directory of Go files,
 * nested modules included) map to that directory's package: all of its non-test files, plus its test
 * files when the importer is itself a test. Anything else is the standard library or a dependency.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const filesByDir = new Map<string, string[]>();
  for (const f of repo.files) {
    if (!f.endsWith('.go')) continue;
    const d = dirOf(f);
    const list = filesByDir.get(d);
    if (list) list.push(f);
    else filesByDir.set(d, [f]);
  }
  const modules = findModules(repo, [...filesByDir.keys()]);
  const moduleDirs = new Set(modules.map((m) => m.dir));
  const ownModuleDir = (dir: string): string | null => {
    for (let d: string | null = dir; d !== null; d = d === '' ? null : dirOf(d)) if (moduleDirs.has(d)) return d;
    return null;
  };
  return {
    resolveModule(spec, fromPath) {
      const mod = modules.find((m) => spec.module === m.path || spec.module.startsWith(`${m.path}/`));
      if (!mod) return null;
      const dir = joinPath(mod.dir, spec.module.slice(mod.path.length + 1));
      // A directory with a go.mod of its own is another module, whatever its path looks like.
      if (dir === null || ownModuleDir(dir) !== mod.dir) return null;
      const withTests = TEST_FILE.test(fromPath);
      const files = (filesByDir.get(dir) ?? []).filter((f) => withTests || !TEST_FILE.test(f));
      return files.length ? files : null;
    },
  };
}

/** Modules declared by go.mod files in the directories of Go files and their ancestors; longest path first. */
function findModules(repo: RepoView, goDirs: string[]): GoModule[] {
  const seen = new Set<string>();
  const found: GoModule[] = [];
  for (const start of goDirs) {
    for (let d: string | null = start; d !== null && !seen.has(d); d = d === '' ? null : dirOf(d)) {
      seen.add(d);
      const text = repo.readText(d ? `${d}/go.mod` : 'go.mod');
      const path = text === null ? null : modulePath(text);
      if (path) found.push({ path, dir: d });
    }
  }
  // Longest module path first, so a nested module wins over its parent; shallowest copy first for ties.
  return found.sort((a, b) => b.path.length - a.path.length || a.dir.split('/').length - b.dir.split('/').length
    || (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
}

export function modulePath(goMod: string): string | null {
  const m = /^\s*module\s+("([^"]+)"|`([^`]+)`|(\S+))/m.exec(goMod);
  return m ? (m[2] ?? m[3] ?? m[4]) : null;
}

export const go: LanguageSpec = {
  id: 'go',
  // Parameters belong to their function, `:=` and `var` to their block (queries/go/locals.scm).
  localScopes: new Set(['function_declaration', 'method_declaration', 'func_literal', 'block']),
  // Maps and slices are syntax: a library type's fields and methods give library values.
  externalChains: true,
  displayName: 'Go',
  extensions: ['.go'],
  grammar: 'tree-sitter-go.wasm',
  queryDir: 'go',
  commentTypes: ['comment'],
  // Definitions are captured on the whole `type`/`const`/`var` declaration when it declares one
  // name, and on the spec inside a `( … )` group, so doc comments sit right above either.
  wrapperTypes: [],
  annotationTypes: [],
  // No `self`: the receiver is an ordinary parameter, bound to its type like any other.
  selfNames: [],
  builtins: new Set(PREDECLARED_TYPES),
  returnType,
  visibility: ({ name }) => (EXPORTED.test(name) ? 'public' : 'package'),
  parseImport,
  moduleName: (path) => stripExt(path),
  // Every file of a directory is one package: top-level names are shared without imports.
  sharedScopeKey: (path) => dirOf(path),
  isTestFile: (path) => TEST_FILE.test(baseName(path)),
  isTestSymbol: ({ name, kind, inTestFile }) =>
    inTestFile && (kind === 'function' || kind === 'method') && TEST_FUNC.test(name),
  createImportResolver,
  installedPackage: goVendorPackage,
};
