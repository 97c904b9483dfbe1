import type { Node } from 'web-tree-sitter';
import type { LanguageSpec } from './types.js';
import { C_LIBRARY, createIncludeResolver, isCTestFile, isCTestFunctionName, parseInclude } from './c-family.js';

/** `static` sits in a storage-class node that the generic keyword scan does not enter. */
export function storageClass(def: Node): string[] {
  return def.children.filter((c): c is Node => c?.type === 'storage_class_specifier').map((c) => c.text);
}

export const c: LanguageSpec = {
  id: 'c',
  // Parameters belong to their function, declarations to their block (queries/c-family/locals.scm).
  localScopes: new Set(['function_definition', 'compound_statement']),
  family: 'c',
  displayName: 'C',
  // `.h` is read as C: a C++ header written `.h` parses as C with errors where it uses C++ syntax.
  extensions: ['.c', '.h'],
  grammar: 'tree-sitter-c.wasm',
  queryDir: ['c', 'c-family'],
  commentTypes: ['comment'],
  wrapperTypes: [],
  annotationTypes: [],
  selfNames: [],
  builtins: new Set(C_LIBRARY),
  definitionModifiers: storageClass,
  // A `static` function or variable is visible in its own file only.
  visibility: ({ modifiers }) => (modifiers.has('static') ? 'private' : 'public'),
  parseImport: parseInclude,
  // `util.c` and `util.h` are two modules: the file name with its extension.
  moduleName: (path) => path,
  // One program: a function declared in a header is defined in any file and called from any other.
  sharedScopeKey: () => '',
  isTestFile: isCTestFile,
  isTestSymbol: ({ name, kind, inTestFile }) => inTestFile && kind === 'function' && isCTestFunctionName(name),
  createImportResolver: createIncludeResolver,
};
