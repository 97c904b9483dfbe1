import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, dirOf, stripExt } from './paths.js';
import { declaredIn } from './namespaces.js';

const TEST_DIR = /(^|\/)src\/(test|it)\//;
const TEST_CLASS = /(Spec|Suite|Test|Tests)$/;

/** Scala's and Java's standard names every file sees: calls of them leave the repository. */
const PREDEF = [
  'println', 'print', 'require', 'assert', 'assume', 'identity', 'implicitly', 'locally', 'Some', 'None', 'Option',
  'List', 'Seq', 'Vector', 'Map', 'Set', 'Array', 'Nil', 'Left', 'Right', 'Either', 'Try', 'Success', 'Failure',
  'Future', 'String', 'Int', 'Long', 'Double', 'Boolean', 'Char', 'Unit', 'Any', 'AnyRef', 'Nothing', 'StringBuilder',
  'Exception', 'IllegalArgumentException', 'IllegalStateException', 'RuntimeException', 'System', 'Math',
  'toString', 'equals', 'hashCode', 'scala', 'java', 'javax',
  'test', 'describe', 'it', 'should', 'must', 'assertResult', 'assertThrows', 'intercept',
];

/** Methods of the standard collections and Option: `xs.map(…)` on a value of unknown type is not ours. */
const COLLECTION_METHODS = [
  'map', 'flatMap', 'filter', 'foreach', 'fold', 'foldLeft', 'getOrElse', 'mkString', 'isEmpty', 'nonEmpty',
  'headOption', 'toList', 'toSeq', 'toMap', 'exists', 'forall', 'collect', 'find', 'contains', 'size', 'length',
];

/**
 * `import a.b.C` takes `C` from `a.b`; `import a.b.{C, D => E}` several, renamed; `import a.b._` (or
 * `.*`) every name. `a.b` may be a package or an object.
 */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  const path = node.childrenForFieldName('path').filter((p) => p.isNamed).map((p) => p.text);
  if (!path.length) return [];
  const selectors = node.namedChildren.find((c) => c?.type === 'namespace_selectors');
  if (node.namedChildren.some((c) => c?.type === 'namespace_wildcard')) return [{ module: path.join('.'), names: [], wildcard: true, line }];
  if (selectors) {
    const names: { name: string; alias?: string }[] = [];
    let wildcard = false;
    for (const s of selectors.namedChildren) {
      if (!s) continue;
      if (s.type === 'identifier') names.push({ name: s.text });
      else if (s.type === 'arrow_renamed_identifier' || s.type === 'as_renamed_identifier') {
        const alias = s.childForFieldName('alias')?.text;
        if (alias !== '_') names.push({ name: s.childForFieldName('name')!.text, alias });
      } else if (s.type === 'namespace_wildcard') wildcard = true;
    }
    return [{ module: path.join('.'), names, wildcard: wildcard || undefined, line }];
  }
  if (path.length < 2) return [{ module: path[0], names: [], line }];
  return [{ module: path.slice(0, -1).join('.'), names: [{ name: path[path.length - 1] }], line }];
}

function visibility({ modifiers }: VisibilityInput): Visibility {
  if (modifiers.has('private')) return 'private';
  if (modifiers.has('protected')) return 'protected';
  return 'public';
}

/** `core/src/main/scala/scopt/OParser.scala` -> `scopt/OParser`: the path below the source set. */
function belowSourceRoot(path: string): string {
  return stripExt(path).replace(/^(.*\/)?src\/[\w.-]+\/(scala(-[\w.]+)?|java)\//, '');
}

/**
 * A package is every file that declares it (`package a.b`, or `package a` then `package b`); an import
 * from an object (`import shop.models.Limits.clamp`) is an import from the package holding the object,
 * of the object's members. Anything else is external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const files = declaredIn(repo, (p) => /\.(scala|sc)$/.test(p), /^\s*package\s+([\w.]+)\s*$/gm);
  /** `a.b.Obj` where `a.b` is a package of ours: the object's package and its name. */
  const objectPath = (module: string) => {
    const cut = module.lastIndexOf('.');
    if (cut < 0 || files(module)) return null;
    const pkg = files(module.slice(0, cut));
    return pkg ? { files: pkg, name: module.slice(cut + 1) } : null;
  };
  return {
    resolveModule: (spec) => files(spec.module) ?? objectPath(spec.module)?.files ?? null,
    memberOf: (spec) => objectPath(spec.module)?.name ?? null,
  };
}

export const scala: LanguageSpec = {
  id: 'scala',
  family: 'jvm',
  displayName: 'Scala',
  extensions: ['.scala', '.sc'],
  grammar: 'tree-sitter-scala.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'scala',
  commentTypes: ['comment', 'block_comment'],
  isDocComment: (text) => text.startsWith('/**'),
  wrapperTypes: [],
  annotationTypes: ['annotation'],
  selfNames: ['this'],
  superReceiver: /^super$/,
  bareCallsReachMembers: true,
  builtins: new Set(PREDEF),
  builtinMethods: new Set(COLLECTION_METHODS),
  // A class parameter is a field its methods reach as `repo` or `this.repo`.
  fieldAccess: (declared) => declared,
  visibility,
  parseImport,
  moduleName: (path) => belowSourceRoot(path).split('/').join('.'),
  sharedScopeKey: (path) => dirOf(belowSourceRoot(path)),
  isTestFile: (path) => /\.scala$/.test(path) && (TEST_DIR.test(path) || TEST_CLASS.test(stripExt(baseName(path)))),
  isTestSymbol: ({ kind, annotations, name, inTestFile }) => {
    if (kind === 'method' || kind === 'function') return annotations.some((a) => a === 'Test' || a.endsWith('.Test'));
    if (kind === 'class') return inTestFile && TEST_CLASS.test(name);
    return false;
  },
  createImportResolver,
};
