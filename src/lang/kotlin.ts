import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, dirOf, stripExt } from './paths.js';
import { declaredIn } from './namespaces.js';

const TEST_DIR = /(^|\/)src\/(test|\w*Test)\//;
const TEST_ANNOTATIONS = new Set(['Test', 'ParameterizedTest', 'RepeatedTest', 'TestFactory']);

/** Kotlin's and Java's standard names every file sees: calls of them leave the repository. */
const STDLIB = [
  'println', 'print', 'listOf', 'mutableListOf', 'mapOf', 'mutableMapOf', 'setOf', 'mutableSetOf', 'arrayOf',
  'emptyList', 'emptyMap', 'emptySet', 'require', 'requireNotNull', 'check', 'checkNotNull', 'error', 'TODO', 'lazy',
  'run', 'let', 'apply', 'also', 'with', 'takeIf', 'repeat', 'maxOf', 'minOf', 'buildString', 'buildList', 'synchronized',
  'String', 'Int', 'Long', 'Double', 'Float', 'Boolean', 'Char', 'Byte', 'Short', 'Any', 'Unit', 'Array', 'List',
  'Map', 'Set', 'Pair', 'Triple', 'Result', 'Regex', 'StringBuilder', 'Exception', 'IllegalArgumentException',
  'IllegalStateException', 'UnsupportedOperationException', 'System', 'Math', 'Thread',
  'toString', 'equals', 'hashCode', 'copy', 'assertEquals', 'assertTrue', 'assertFalse', 'assertNull',
  'assertNotNull', 'assertFailsWith', 'assertThrows', 'kotlin', 'java', 'javax',
];

/**
 * `import a.b.C` takes `C` from package `a.b`; `import a.b.c as d` renames it; `import a.b.*` takes
 * every name of the package.
 */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  const path = node.namedChildren.find((c) => c?.type === 'identifier');
  if (!path) return [];
  const dotted = path.text.replace(/\s+/g, '');
  if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) return [{ module: dotted, names: [], wildcard: true, line }];
  const alias = node.namedChildren.find((c) => c?.type === 'import_alias')?.namedChildren[0]?.text;
  const cut = dotted.lastIndexOf('.');
  if (cut < 0) return [{ module: dotted, names: [], line }];
  return [{ module: dotted.slice(0, cut), names: [{ name: dotted.slice(cut + 1), alias }], line }];
}

function visibility({ modifiers }: VisibilityInput): Visibility {
  for (const v of ['private', 'protected', 'internal'] as const) if (modifiers.has(v)) return v;
  return 'public';
}

/** `okio/src/commonMain/kotlin/okio/Buffer.kt` -> `okio/Buffer`: the path below the source set. */
function belowSourceRoot(path: string): string {
  return stripExt(path).replace(/^(.*\/)?src\/[\w.-]+\/(kotlin|java)\//, '');
}

/**
 * A package is every file that declares it (`package shop.models`), wherever it lies; an import of a
 * package the repository does not declare (the standard library, a dependency) is external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const files = declaredIn(repo, (p) => /\.kts?$/.test(p), /^\s*package\s+([\w.]+)/gm);
  return {
    resolveModule: (spec) => files(spec.module),
  };
}

export const kotlin: LanguageSpec = {
  id: 'kotlin',
  family: 'jvm',
  displayName: 'Kotlin',
  extensions: ['.kt', '.kts'],
  grammar: 'tree-sitter-kotlin.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'kotlin',
  commentTypes: ['line_comment', 'multiline_comment'],
  isDocComment: (text) => text.startsWith('/**'),
  wrapperTypes: [],
  annotationTypes: ['annotation'],
  selfNames: ['this'],
  superReceiver: /^super(<.*>)?$/,
  bareCallsReachMembers: true,
  builtins: new Set(STDLIB),
  // A property declared in the primary constructor is reached as `repo` or `this.repo`.
  fieldAccess: (declared) => declared,
  // `suspend fun` is Kotlin's async; the generic scan does not enter the modifier nodes.
  definitionModifiers: (def) => (def.namedChildren.some((c) => c?.type === 'modifiers' && /\bsuspend\b/.test(c.text)) ? ['async'] : []),
  visibility,
  parseImport,
  moduleName: (path) => belowSourceRoot(path).split('/').join('.'),
  // Files of one package see each other's names; the package is the folder below the source set
  // (`commonMain` and `jvmMain` of one module share it).
  sharedScopeKey: (path) => dirOf(belowSourceRoot(path)),
  isTestFile: (path) => /\.kts?$/.test(path) && (TEST_DIR.test(path) || /Tests?\.kt$/.test(baseName(path))),
  isTestSymbol: ({ kind, annotations, name, inTestFile }) => {
    if (kind === 'method' || kind === 'function') return annotations.some((a) => TEST_ANNOTATIONS.has(a.slice(a.lastIndexOf('.') + 1)));
    if (kind === 'class') return inTestFile && /Tests?$/.test(name);
    return false;
  },
  createImportResolver,
};
