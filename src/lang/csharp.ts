import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, stripExt } from './paths.js';
import { declaredIn } from './namespaces.js';

const TEST_ATTRIBUTES = new Set(['Fact', 'Theory', 'Test', 'TestCase', 'TestCaseSource', 'TestMethod', 'DataTestMethod']);
const TEST_CLASS_ATTRIBUTES = new Set(['TestFixture', 'TestClass']);
const TEST_DIR = /(^|\/)[\w.]*Tests?\//;

/** Types and namespaces every C# file sees from the base library: calls through them leave the repository. */
const BASE_LIBRARY = [
  'System', 'Microsoft', 'Console', 'Math', 'String', 'string', 'Convert', 'Guid', 'DateTime', 'TimeSpan', 'Task',
  'List', 'Dictionary', 'HashSet', 'Enumerable', 'Array', 'Environment', 'Path', 'File', 'Directory', 'Encoding',
  'StringBuilder', 'Exception', 'ArgumentException', 'ArgumentNullException', 'InvalidOperationException',
  'NotImplementedException', 'NotSupportedException', 'Activator', 'Type', 'Nullable', 'Object', 'GC', 'Interlocked',
  'Assert', 'nameof', 'typeof', 'ToString', 'Equals', 'GetHashCode', 'GetType', 'ReferenceEquals',
];

/**
 * `using Shop.Models;` brings every type of the namespace (a wildcard); `using M = Shop.Models;` binds
 * an alias; `using static Shop.Log;` brings a type's static members, kept as a wildcard of the type's
 * namespace; `global using` counts as a using of this file.
 */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  const aliasNode = node.childForFieldName('name');
  const target = node.namedChildren.find((c) => c?.type === 'qualified_name' || (c?.type === 'identifier' && c.id !== aliasNode?.id));
  if (!target) return [];
  const module = target.text.replace(/\s+/g, '');
  const alias = aliasNode?.text;
  if (alias) return [{ module, names: [], alias, line }];
  if (node.children.some((c) => c?.type === 'static')) {
    const cut = module.lastIndexOf('.');
    return cut > 0 ? [{ module: module.slice(0, cut), names: [{ name: module.slice(cut + 1) }], line }] : [];
  }
  return [{ module, names: [], wildcard: true, line }];
}

/**
 * Explicit modifiers win; otherwise members of interfaces are public, other members private, and
 * top-level types internal.
 */
function visibility({ modifiers, parentKind }: VisibilityInput): Visibility {
  if (modifiers.has('public')) return 'public';
  if (modifiers.has('protected')) return 'protected';
  if (modifiers.has('internal')) return 'internal';
  if (modifiers.has('private')) return 'private';
  if (parentKind === 'interface') return 'public';
  if (parentKind === 'enum') return 'public';
  return parentKind === 'module' ? 'internal' : 'private';
}

/**
 * A namespace is every file that declares it (`namespace Shop.Models { … }` or `namespace
 * Shop.Models;`), wherever it lies. A `using` of a namespace the repository does not declare (System,
 * a NuGet package) is external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const files = declaredIn(repo, (p) => p.endsWith('.cs'), /\bnamespace\s+([\w.]+)\s*[{;]/g);
  return {
    resolveModule: (spec) => files(spec.module),
  };
}

export const csharp: LanguageSpec = {
  id: 'csharp',
  displayName: 'C#',
  extensions: ['.cs'],
  grammar: 'tree-sitter-c_sharp.wasm',
  queryDir: 'csharp',
  commentTypes: ['comment'],
  // `///` XML doc comments; plain `//` notes above a member are not documentation.
  isDocComment: (text) => text.startsWith('///') || text.startsWith('/**'),
  wrapperTypes: [],
  annotationTypes: ['attribute_list'],
  selfNames: ['this'],
  superReceiver: /^base$/,
  bareCallsReachMembers: true,
  builtins: new Set(BASE_LIBRARY),
  // `_repo` and `this._repo` both reach a field declared in the class body.
  fieldAccess: (declared) => declared,
  visibility,
  parseImport,
  moduleName: (path) => stripExt(path),
  // Type names are rarely repeated across the namespaces of one project, and a file sees its own
  // namespace and the ones around it without a `using`: the whole repository is one scope, names
  // found through it count less than an explicit `using`.
  sharedScopeKey: () => '',
  isTestFile: (path) => path.endsWith('.cs') && (TEST_DIR.test(path) || /Tests?\.cs$/.test(baseName(path))),
  isTestSymbol: ({ kind, annotations, name, inTestFile }) => {
    const simple = annotations.map((a) => a.replace(/Attribute$/, '').slice(a.lastIndexOf('.') + 1));
    if (kind === 'method') return simple.some((a) => TEST_ATTRIBUTES.has(a));
    if (kind === 'class') return simple.some((a) => TEST_CLASS_ATTRIBUTES.has(a)) || (inTestFile && /Tests?$/.test(name));
    return false;
  },
  createImportResolver,
};
