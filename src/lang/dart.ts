import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { dirOf, joinPath, stripExt } from './paths.js';

/** dart:core names and the test package's DSL: never a repository function of the same name. */
const CORE = [
  'print', 'identical', 'Future', 'Stream', 'List', 'Map', 'Set', 'Iterable', 'String', 'StringBuffer', 'int',
  'double', 'num', 'bool', 'Object', 'DateTime', 'Duration', 'Exception', 'Error', 'StateError', 'ArgumentError',
  'RangeError', 'FormatException', 'UnimplementedError', 'UnsupportedError', 'RegExp', 'Uri', 'Symbol', 'Type',
  'test', 'group', 'expect', 'setUp', 'tearDown', 'setUpAll', 'tearDownAll', 'equals', 'throwsA', 'isA',
];

/** Methods of dart:core's types: `xs.map(…)` on a value of unknown type is not a repository method. */
const CORE_METHODS = [
  'toString', 'toDouble', 'toInt', 'toList', 'toSet', 'map', 'where', 'forEach', 'add', 'addAll', 'remove', 'contains',
  'join', 'split', 'isEmpty', 'isNotEmpty', 'substring', 'startsWith', 'endsWith', 'trim', 'then', 'catchError',
];

/** The string of an import's URI, without quotes. */
function uriOf(node: Node): string | null {
  const lit = node.descendantsOfType('uri')[0]?.namedChildren[0];
  return lit ? lit.text.replace(/^r?['"]{1,3}|['"]{1,3}$/g, '') : null;
}

/**
 * `import 'package:shop/src/product.dart';` brings the library's names (a wildcard); `as util` binds a
 * prefix instead; `show a, b` names what is taken. `export 'src/product.dart';` re-exports a library's
 * names from this one.
 */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  const module = uriOf(node);
  if (!module) return [];
  if (node.descendantsOfType('library_export').length) return [{ module, names: [], wildcard: true, reexport: true, line }];
  const spec = node.descendantsOfType('import_specification')[0];
  if (!spec) return [];
  const alias = spec.namedChildren.find((c) => c?.type === 'identifier')?.text;
  if (alias) return [{ module, names: [], alias, line }];
  const shown = spec.descendantsOfType('combinator').filter((c) => c?.text.startsWith('show'))
    .flatMap((c) => c!.namedChildren.map((n) => n?.text ?? '')).filter(Boolean);
  return shown.length ? [{ module, names: shown.map((name) => ({ name })), line }] : [{ module, names: [], wildcard: true, line }];
}

/**
 * `package:NAME/path` is `lib/path` of the package whose pubspec.yaml says `name: NAME` (every folder
 * holding a `lib/` with Dart files is asked); other URIs are relative to the importing file. `dart:`
 * libraries and packages not in the repository are external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const packages = new Map<string, string>(); // package name -> its root ('' or 'pkgs/foo/')
  const roots = new Set<string>();
  for (const f of repo.files) {
    const m = /^(.*?\/)?lib\//.exec(f);
    if (m && f.endsWith('.dart')) roots.add(m[1] ?? '');
  }
  for (const root of roots) {
    const name = /^name:\s*["']?([\w-]+)/m.exec(repo.readText(`${root}pubspec.yaml`) ?? '')?.[1];
    if (name && !packages.has(name)) packages.set(name, root);
  }
  return {
    resolveModule(spec, fromPath) {
      const pkg = /^package:([\w-]+)\/(.+)$/.exec(spec.module);
      let path: string | null;
      if (pkg) {
        const root = packages.get(pkg[1]);
        if (root === undefined) return null;
        path = `${root}lib/${pkg[2]}`;
      } else if (/^[a-z]+:/.test(spec.module)) {
        return null;
      } else {
        path = joinPath(dirOf(fromPath), spec.module);
      }
      return path !== null && repo.files.has(path) ? [path] : null;
    },
  };
}

export const dart: LanguageSpec = {
  id: 'dart',
  displayName: 'Dart',
  extensions: ['.dart'],
  grammar: 'tree-sitter-dart.wasm',
  queryDir: 'dart',
  commentTypes: ['comment', 'documentation_comment'],
  isDocComment: (text) => text.startsWith('///') || text.startsWith('/**'),
  wrapperTypes: [],
  annotationTypes: ['annotation'],
  selfNames: ['this'],
  superReceiver: /^super$/,
  bareCallsReachMembers: true,
  builtins: new Set(CORE),
  builtinMethods: new Set(CORE_METHODS),
  // `_repo` and `this._repo` both reach a field declared in the class body.
  fieldAccess: (declared) => declared,
  // `async` is written on the body (`Future<void> f() async {…}`), after the signature.
  definitionModifiers: (def) => {
    const body = def.nextNamedSibling;
    return body?.type === 'function_body' && body.children.some((c) => c?.type === 'async') ? ['async'] : [];
  },
  // A leading underscore makes a name private to its library.
  visibility: ({ name }) => (name.startsWith('_') ? 'private' : 'public'),
  parseImport,
  moduleName: (path) => stripExt(path).replace(/^(.*\/)?lib\//, ''),
  isTestFile: (path) => /_test\.dart$/.test(path) || /(^|\/)test\/.*\.dart$/.test(path),
  // A test file's `main` registers its `test(…)` closures: the calls in them are its.
  isTestSymbol: ({ name, kind, inTestFile }) => inTestFile && kind === 'function' && name === 'main',
  createImportResolver,
};
