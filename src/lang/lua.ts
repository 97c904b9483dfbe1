import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { baseName, nearestTo, stripExt, suffixIndex } from './paths.js';

/** Lua's global functions and standard libraries: calls of them or through them leave the repository. */
const STDLIB = [
  'print', 'require', 'pairs', 'ipairs', 'next', 'type', 'tostring', 'tonumber', 'assert', 'error', 'pcall', 'xpcall',
  'select', 'unpack', 'rawget', 'rawset', 'rawequal', 'rawlen', 'setmetatable', 'getmetatable', 'load', 'loadstring',
  'loadfile', 'dofile', 'collectgarbage', 'module', 'string', 'table', 'math', 'io', 'os', 'coroutine', 'debug',
  'utf8', 'package', '_G', 'describe', 'it', 'before_each', 'after_each', 'setup', 'teardown', 'spy', 'stub', 'mock',
];

/**
 * `local util = require("shop.util")` binds the module to `util`; `local log = require("shop.util").log`
 * binds one of its fields; a bare `require "x"` only loads it.
 */
function parseImport(node: Node): ImportSpec[] {
  const arg = node.childForFieldName('arguments')?.namedChildren[0];
  if (!arg || arg.type !== 'string') return [];
  const module = arg.childForFieldName('content')?.text ?? '';
  if (!module) return [];
  const line = node.startPosition.row + 1;
  let value: Node = node;
  let field: string | null = null;
  if (node.parent?.type === 'dot_index_expression' && node.parent.childForFieldName('table')?.id === node.id) {
    field = node.parent.childForFieldName('field')?.text ?? null;
    value = node.parent;
  }
  const assignment = value.parent?.type === 'expression_list' ? value.parent.parent : null;
  const names = assignment?.type === 'assignment_statement' ? assignment.childForFieldName('variable_list') ?? assignment.namedChildren[0] : null;
  const variable = names?.namedChildren[0];
  const alias = variable?.type === 'identifier' ? variable.text : undefined;
  if (field) return [{ module, names: [{ name: field, alias }], line }];
  return [{ module, names: [], alias, line }];
}

/**
 * `require "pl.utils"` searches package.path: `pl/utils.lua` or `pl/utils/init.lua` below some root
 * (the repository's, `lua/`, `src/`…), so by path suffix, the nearest winning. Within a file, a table
 * the file declares (`local M = {}`) holds the functions defined as `function M.f()`, which are the
 * file's top-level names: `M.f()` reaches them.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const bySuffix = suffixIndex(repo.files, (f) => (f.endsWith('.lua') ? stripExt(f).replace(/\/init$/, '').split('/') : null), '.');
  const tables = new Map<string, Set<string>>();
  const tablesOf = (path: string) => {
    let set = tables.get(path);
    if (!set) {
      const text = repo.readText(path) ?? '';
      set = new Set([...text.matchAll(/^\s*local\s+([A-Za-z_]\w*)\s*=\s*\{/gm)].map((m) => m[1]));
      tables.set(path, set);
    }
    return set;
  };
  return {
    resolveModule(spec, fromPath) {
      const hits = bySuffix.get(spec.module.replace(/\//g, '.'));
      if (!hits) return null;
      return [nearestTo(hits, fromPath)];
    },
    resolveReceiver(receiver, fromPath) {
      return tablesOf(fromPath).has(receiver) ? { files: [fromPath], rest: [] } : null;
    },
  };
}

export const lua: LanguageSpec = {
  id: 'lua',
  displayName: 'Lua',
  extensions: ['.lua'],
  grammar: 'tree-sitter-lua.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'lua',
  commentTypes: ['comment'],
  wrapperTypes: [],
  annotationTypes: [],
  selfNames: ['self'],
  builtins: new Set(STDLIB),
  // `local function f` is the file's own; every other function is reachable from other files.
  visibility: ({ node }) => (node.parent?.type === 'chunk' && node.text.startsWith('local') ? 'private' : 'public'),
  parseImport,
  moduleName: (path) => stripExt(path).replace(/\/init$/, '').split('/').join('.'),
  isTestFile: (path) => path.endsWith('.lua') && (/_spec\.lua$|_test\.lua$|^test_/.test(baseName(path)) || /(^|\/)(spec|tests?)\//.test(path)),
  // luaunit's test functions; busted's `it(…)` blocks are closures, so their calls are the spec file's.
  isTestSymbol: ({ name, inTestFile }) => inTestFile && /^[Tt]est/.test(name),
  createImportResolver,
};
