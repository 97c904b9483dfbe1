import type { Node, Tree } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, nearestTo, stripExt, suffixIndex } from './paths.js';

/** The Prelude and the test libraries' vocabulary: never a repository function of the same name. */
const PRELUDE = [
  'map', 'filter', 'foldr', 'foldl', 'foldl\'', 'sum', 'product', 'length', 'null', 'elem', 'lookup', 'zip', 'zipWith',
  'unzip', 'head', 'tail', 'init', 'last', 'reverse', 'concat', 'concatMap', 'and', 'or', 'any', 'all', 'take', 'drop',
  'splitAt', 'span', 'break', 'takeWhile', 'dropWhile', 'lines', 'unlines', 'words', 'unwords', 'show', 'read',
  'print', 'putStr', 'putStrLn', 'getLine', 'readFile', 'writeFile', 'appendFile', 'return', 'pure', 'fmap', 'mapM',
  'mapM_', 'forM', 'forM_', 'sequence', 'sequence_', 'when', 'unless', 'fst', 'snd', 'id', 'const', 'flip', 'maybe',
  'either', 'fromIntegral', 'realToFrac', 'toInteger', 'fromInteger', 'min', 'max', 'abs', 'negate', 'div', 'mod',
  'error', 'undefined', 'seq', 'not', 'otherwise', 'succ', 'pred', 'compare', 'minimum', 'maximum', 'replicate',
  'iterate', 'repeat', 'cycle', 'error', 'errorWithoutStackTrace', 'Just', 'Nothing', 'Left', 'Right', 'True',
  'False', 'describe', 'it', 'shouldBe', 'shouldSatisfy', 'property', 'quickCheck', 'testCase', 'testGroup', 'assertEqual',
];

/**
 * `import Shop.Product` brings every exported name; `import Shop.Util (logLine)` some; `import
 * qualified Shop.Util as U` only the prefix; `import Shop.Util as U` both.
 */
function parseImport(node: Node): ImportSpec[] {
  const module = node.childForFieldName('module')?.text;
  if (!module) return [];
  const line = node.startPosition.row + 1;
  const alias = node.childForFieldName('alias')?.text;
  const qualified = node.children.some((c) => c?.type === 'qualified');
  const list = node.childForFieldName('names');
  const hiding = node.children.some((c) => c?.type === 'hiding');
  if (list && !hiding) {
    const names = list.namedChildren.filter((n): n is Node => !!n)
      .map((n) => (n.childForFieldName('variable') ?? n.childForFieldName('type') ?? n).text.replace(/\s*\(.*$/s, ''));
    return [{ module, names: names.map((name) => ({ name })), alias, line }];
  }
  return [{ module, names: [], alias, wildcard: !qualified || undefined, line }];
}

/** The names a module's export list gives, or null when it has none (then everything is exported). */
const exportCache = new WeakMap<Tree, Set<string> | null>();
function exportedNames(tree: Tree): Set<string> | null {
  if (exportCache.has(tree)) return exportCache.get(tree)!;
  const header = tree.rootNode.namedChildren.find((c) => c?.type === 'header');
  const exports = header?.childForFieldName('exports') ?? null;
  const names = exports ? new Set(exports.namedChildren.flatMap((e) => {
    const n = e?.childForFieldName('variable') ?? e?.childForFieldName('type');
    return n ? [n.text] : [];
  })) : null;
  exportCache.set(tree, names);
  return names;
}

function visibility({ node, name, parentKind }: VisibilityInput): Visibility {
  if (parentKind !== 'module') return 'public';
  const exported = exportedNames(node.tree);
  return !exported || exported.has(name) ? 'public' : 'private';
}

/**
 * `Shop.Product` is `Shop/Product.hs` below a source folder (`src/`, `lib/`, `test/`, or any other):
 * matched by path suffix, the nearest winning. Modules of packages outside the repository are external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const bySuffix = suffixIndex(repo.files, (f) => (/\.l?hs$/.test(f) ? stripExt(f).split('/') : null), '.');
  return {
    resolveModule(spec, fromPath) {
      const hits = bySuffix.get(spec.module);
      if (!hits) return null;
      return [nearestTo(hits, fromPath)];
    },
  };
}

export const haskell: LanguageSpec = {
  id: 'haskell',
  displayName: 'Haskell',
  extensions: ['.hs'],
  grammar: 'tree-sitter-haskell.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'haskell',
  commentTypes: ['comment', 'haddock'],
  wrapperTypes: [],
  annotationTypes: [],
  selfNames: [],
  builtins: new Set(PRELUDE),
  visibility,
  parseImport,
  // `src/Shop/Product.hs` -> `Shop.Product`: capitalised path segments name the module.
  moduleName: (path) => {
    const parts = stripExt(path).split('/');
    const first = parts.findIndex((p) => /^[A-Z]/.test(p));
    return (first < 0 ? parts : parts.slice(first)).join('.');
  },
  isTestFile: (path) => /(^|\/)(test|tests)\//.test(path) || /(Spec|Test|Tests)\.hs$/.test(baseName(path)),
  // hspec's `spec`, QuickCheck's `prop_…`, HUnit's `test_…`/`case_…` (tasty-discover's naming).
  isTestSymbol: ({ name, inTestFile }) => inTestFile && /^(spec$|prop_|test_|case_|unit_)/.test(name),
  createImportResolver,
};
