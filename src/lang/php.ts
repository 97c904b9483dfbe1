import type { Node } from 'web-tree-sitter';
import { composerPackage } from '../deps/lookups.js';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { baseName, dirOf, joinPath, sharedPrefix, stripExt } from './paths.js';

/*
 * PHP.
 *
 * Namespaces are not symbols and do not qualify names: a method is `Product.save`, a function `helper`,
 * whatever namespace they sit in. Calls and `use` statements name classes by their short or aliased
 * name, which is what the resolver looks up; a namespace prefix would only have to be stripped again.
 * The namespace lives in the file's path (PSR-4), which every symbol carries anyway.
 *
 * An import spec is one name taken from one namespace: `use App\Models\Product as P;` is
 * `{ module: 'App\Models', names: [{ name: 'Product', alias: 'P' }] }`; a class of the global
 * namespace (`use Exception;`) comes from module `\`.
 */

const PHP_FILE = /\.(php|phtml)$/;
const TEST_DIRS = /(^|\/)[Tt]ests?\//;
const GLOBAL_NAMESPACE = '\\';
const MIRRORED_ROOT = /^(src|lib|app|tests?)\/(?=.)/;
/** PHPDoc tags that change what a symbol is (a test, a deprecated API), kept as annotations. */
const DOC_TAGS = new Set(['test', 'dataProvider', 'depends', 'group', 'covers', 'deprecated', 'internal']);

// ---- imports -----------------------------------------------------------------------------------

function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  if (node.type === 'namespace_use_declaration') return parseUse(node, line);
  const path = literalPath(node.namedChildren[0] ?? null);
  // Including a file makes all of its functions and classes visible: a wildcard import of it.
  return path ? [{ module: path, names: [], wildcard: true, line }] : [];
}

/** `use A\B\C;`, `use A\B\C as D, E;`, `use A\B\{C, D as E};`, `use function A\f;`, `use const A\X;` */
function parseUse(node: Node, line: number): ImportSpec[] {
  const group = node.childForFieldName('body');
  const prefix = group ? node.namedChildren.find((c) => c?.type === 'namespace_name')?.text ?? '' : '';
  const clauses = (group ?? node).namedChildren.filter((c): c is Node => c?.type === 'namespace_use_clause');
  const out: ImportSpec[] = [];
  for (const clause of clauses) {
    const nameNode = clause.namedChildren.find((c) => c?.type === 'name' || c?.type === 'qualified_name');
    if (!nameNode) continue;
    const full = [prefix, nameNode.text].filter(Boolean).join('\\').replace(/\s+/g, '').replace(/^\\/, '');
    const cut = full.lastIndexOf('\\');
    const name = full.slice(cut + 1);
    const alias = clause.childForFieldName('alias')?.text;
    out.push({
      module: cut < 0 ? GLOBAL_NAMESPACE : full.slice(0, cut),
      names: [alias && alias !== name ? { name, alias } : { name }],
      line,
    });
  }
  return out;
}

/**
 * The path of `require 'x.php'`, `include __DIR__ . '/x.php'` or `dirname(__FILE__) . '/x.php'`;
 * paths relative to the including file are written `./x.php`. Null for computed paths.
 */
function literalPath(expr: Node | null): string | null {
  while (expr && expr.type === 'parenthesized_expression') expr = expr.namedChildren[0] ?? null;
  if (!expr) return null;
  const str = stringValue(expr);
  if (str !== null) return str || null;
  if (expr.type !== 'binary_expression' || expr.childForFieldName('operator')?.text !== '.') return null;
  const left = expr.childForFieldName('left');
  const right = stringValue(expr.childForFieldName('right'));
  if (!left || right === null || !isThisDir(left)) return null;
  return `./${right.replace(/^\/+/, '')}`;
}

function stringValue(n: Node | null): string | null {
  if (!n || (n.type !== 'string' && n.type !== 'encapsed_string')) return null;
  const parts = n.namedChildren;
  if (parts.some((c) => c?.type !== 'string_content')) return null; // interpolation or escapes
  return parts.map((c) => c!.text).join('');
}

/** `__DIR__` or `dirname(__FILE__)`. */
function isThisDir(n: Node): boolean {
  if (n.type === 'name') return n.text === '__DIR__';
  if (n.type !== 'function_call_expression' || n.childForFieldName('function')?.text !== 'dirname') return false;
  const args = n.childForFieldName('arguments')?.namedChildren ?? [];
  return args.length === 1 && args[0]?.text === '__FILE__';
}

// ---- import resolution ---------------------------------------------------------------------------

interface Autoload {
  /** Namespace prefix with its trailing `\` (`App\`), or '' for a fallback directory. */
  prefix: string;
  dir: string;
  psr0: boolean;
}

/** PSR-4 and PSR-0 roots from the repository's composer.json (`autoload` and `autoload-dev`). */
function composerAutoload(repo: RepoView): Autoload[] {
  const text = repo.readText('composer.json');
  if (!text) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const out: Autoload[] = [];
  for (const section of ['autoload', 'autoload-dev']) {
    const block = (json as Record<string, Record<string, Record<string, unknown>>>)?.[section];
    for (const [key, psr0] of [['psr-4', false], ['psr-0', true]] as const) {
      const map = block?.[key];
      if (!map || typeof map !== 'object') continue;
      for (const [prefix, dirs] of Object.entries(map)) {
        for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
          if (typeof dir !== 'string') continue;
          const clean = joinPath('', dir);
          if (clean !== null) out.push({ prefix, dir: clean, psr0 });
        }
      }
    }
  }
  return out.sort((a, b) => b.prefix.length - a.prefix.length);
}

/** Namespaces a file declares (`namespace A\B;` or `namespace A\B { ... }`); '' for the global one. */
function declaredNamespaces(text: string): string[] {
  const found = [...text.matchAll(/^[ \t]*namespace\s+([\w\\]+)\s*[;{]/gm)].map((m) => m[1].replace(/^\\/, ''));
  if (/^[ \t]*namespace\s*\{/m.test(text) || !found.length) found.push('');
  return found;
}

/**
 * Maps `Namespace\Name` to the file that defines it: through composer.json's PSR-4/PSR-0 roots, or
 * else any file `Name.php` whose `namespace` declaration matches (so a copy of a library without its
 * composer.json, or a monorepo with several roots, still resolves); failing both, the files of the
 * namespace's directory that declare the namespace (functions and constants live in such files).
 * A namespace found nowhere is a dependency's or PHP's own: external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const autoload = composerAutoload(repo);
  const byBase = new Map<string, string[]>();
  const byDir = new Map<string, string[]>();
  const dirsByLast = new Map<string, string[]>();
  for (const file of repo.files) {
    if (!PHP_FILE.test(file)) continue;
    push(byBase, stripExt(baseName(file)), file);
    const dir = dirOf(file);
    if (!byDir.has(dir)) push(dirsByLast, baseName(dir), dir);
    push(byDir, dir, file);
  }
  const nsCache = new Map<string, string[]>();
  const namespacesOf = (file: string): string[] => {
    let list = nsCache.get(file);
    if (!list) nsCache.set(file, (list = declaredNamespaces(repo.readText(file) ?? '')));
    return list;
  };
  const declares = (file: string, ns: string): boolean => namespacesOf(file).includes(ns);
  const nearest = (files: string[], fromPath: string): string[] =>
    files.length <= 1 ? files : [[...files].sort((a, b) => sharedPrefix(b, fromPath) - sharedPrefix(a, fromPath))[0]];

  const autoloaded = (fqcn: string): string | null => {
    for (const a of autoload) {
      if (!fqcn.startsWith(a.prefix)) continue;
      let rel = a.psr0 ? fqcn : fqcn.slice(a.prefix.length);
      if (a.psr0) rel = rel.replace(/_(?=[^\\]*$)/g, '\\'); // PSR-0: `Twig_Node` is Twig/Node.php
      const file = joinPath(a.dir, `${rel.split('\\').join('/')}.php`);
      if (file !== null && repo.files.has(file)) return file;
    }
    return null;
  };
  const classFile = (ns: string, name: string, fromPath: string): string[] => {
    const fqcn = ns ? `${ns}\\${name}` : name;
    const file = autoloaded(fqcn);
    if (file) return [file];
    return nearest((byBase.get(name) ?? []).filter((f) => declares(f, ns)), fromPath);
  };
  /** Files of the namespace's directory (autoload root or path suffix) that declare the namespace. */
  const nsFilesCache = new Map<string, string[]>();
  const namespaceFiles = (ns: string): string[] => {
    const cached = nsFilesCache.get(ns);
    if (cached) return cached;
    const dirs = new Set<string>();
    for (const a of autoload) {
      const prefix = a.prefix.replace(/\\$/, '');
      if (a.psr0 || (ns !== prefix && !ns.startsWith(a.prefix))) continue;
      const d = joinPath(a.dir, ns.slice(prefix.length).split('\\').join('/'));
      if (d !== null) dirs.add(d);
    }
    for (const d of dirsByLast.get(ns.slice(ns.lastIndexOf('\\') + 1)) ?? []) dirs.add(d);
    const files = [...dirs].flatMap((d) => byDir.get(d) ?? []).filter((f) => declares(f, ns));
    nsFilesCache.set(ns, files);
    return files;
  };
  const subNamespace = (spec: ImportSpec, name: string): string[] =>
    spec.module === GLOBAL_NAMESPACE ? namespaceFiles(name) : namespaceFiles(`${spec.module}\\${name}`);

  return {
    resolveModule(spec, fromPath) {
      if (spec.wildcard) return includedFile(spec.module, fromPath, repo.files);
      const ns = spec.module === GLOBAL_NAMESPACE ? '' : spec.module;
      const files = new Set<string>();
      for (const { name } of spec.names) {
        const found = classFile(ns, name, fromPath);
        // `use Doctrine\DBAL\Driver\API\MySQL;` names a namespace, for `new MySQL\ExceptionConverter()`.
        for (const f of found.length ? found : subNamespace(spec, name)) files.add(f);
      }
      if (!files.size && ns) for (const f of namespaceFiles(ns)) files.add(f);
      return files.size ? [...files] : null;
    },
    // Called when the name is no symbol of the files above: an imported namespace binds its files.
    resolveMember(spec, name) {
      const files = subNamespace(spec, name);
      return files.length ? files : null;
    },
    /**
     * `Foo\Bar\Baz` as written in code (a leading `\` is already gone): absolute, or relative to the
     * file's namespace. Neither, and no directory of the repository is named like its namespace's last
     * part: a dependency's (`\PHPUnit\Framework\TestCase`), so no same-named class here is guessed.
     */
    resolveQualified(name, fromPath) {
      const cut = name.lastIndexOf('\\');
      if (cut <= 0) return null;
      const ns = name.slice(0, cut);
      const last = name.slice(cut + 1);
      const absolute = classFile(ns, last, fromPath);
      if (absolute.length) return absolute;
      const own = namespacesOf(fromPath)[0];
      const relative = own ? classFile(`${own}\\${ns}`, last, fromPath) : [];
      if (relative.length) return relative;
      return dirsByLast.has(ns.slice(ns.lastIndexOf('\\') + 1)) ? null : [];
    },
  };
}

/** `./x.php` is relative to the including file; a bare path is tried there, then at the root. */
function includedFile(path: string, fromPath: string, files: ReadonlySet<string>): string[] | null {
  const candidates = path.startsWith('.') ? [joinPath(dirOf(fromPath), path)] : [joinPath(dirOf(fromPath), path), joinPath('', path)];
  for (const c of candidates) if (c !== null && files.has(c)) return [c];
  return null;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

// ---- tests ---------------------------------------------------------------------------------------

/** PHPUnit's `#[Test]`, written short or fully qualified, or the `@test` doc tag. */
const isTestAnnotation = (a: string) => /(^|\\)Test$/.test(a) || a === 'test';

export const php: LanguageSpec = {
  id: 'php',
  displayName: 'PHP',
  extensions: ['.php', '.phtml'],
  grammar: 'tree-sitter-php.wasm',
  queryDir: 'php',
  commentTypes: ['comment'],
  // The elements of `public const A = 1, B = 2;` take the declaration's modifiers and doc comment.
  wrapperTypes: ['const_declaration'],
  annotationTypes: ['attribute'],
  selfNames: ['$this', 'self', 'static'],
  superReceiver: /^parent$/,
  docAnnotations: (comment) => [...comment.matchAll(/(?:^|\s)@(\w+)/g)].map((m) => m[1]).filter((t) => DOC_TAGS.has(t)),
  fieldAccess: (declared) => `$this->${declared.replace(/^\$/, '')}`,
  visibility: ({ modifiers }) =>
    modifiers.has('private') ? 'private' : modifiers.has('protected') ? 'protected' : 'public',
  parseImport,
  moduleName: (path) => stripExt(path),
  // PSR-4 makes a directory one namespace, and a namespace's classes see each other without `use`.
  // A leading src/, lib/, app/ or tests/ is dropped: libraries mirror their code's namespaces under
  // tests/ (src/Monolog/Handler and tests/Monolog/Handler are both Monolog\Handler).
  sharedScopeKey: (path) => dirOf(path).replace(MIRRORED_ROOT, ''),
  isTestFile: (path) => TEST_DIRS.test(path) || /Test\.php$/.test(baseName(path)),
  isTestSymbol: ({ name, kind, annotations, parentName, inTestFile }) => {
    if (!inTestFile) return false;
    if (kind === 'class') return /Test$/.test(name);
    if (kind === 'method') return !!parentName && (/^test/.test(name) || annotations.some(isTestAnnotation));
    return false;
  },
  createImportResolver,
  installedPackage: composerPackage,
};
