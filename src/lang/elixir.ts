import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { stripExt } from './paths.js';
import { declaredIn } from './namespaces.js';

/** Kernel functions and standard modules: calls of them or through them leave the repository. */
const KERNEL = [
  'is_nil', 'is_atom', 'is_binary', 'is_list', 'is_map', 'is_integer', 'is_number', 'is_function', 'is_tuple',
  'length', 'map_size', 'tuple_size', 'elem', 'put_elem', 'hd', 'tl', 'raise', 'reraise', 'throw', 'exit', 'self',
  'send', 'spawn', 'spawn_link', 'to_string', 'inspect', 'min', 'max', 'abs', 'round', 'trunc', 'div', 'rem', 'apply',
  'struct', 'then', 'tap', 'binding', 'is_struct', 'function_exported?', 'match?', 'get_in', 'put_in', 'update_in',
  'pop_in', 'sigil_r', 'sigil_s', 'sigil_w', 'dbg', 'assert', 'refute', 'assert_raise', 'assert_receive',
  'IO', 'Enum', 'Map', 'List', 'String', 'Kernel', 'Logger', 'Keyword', 'Integer', 'Float', 'Atom', 'Tuple', 'Stream',
  'Process', 'Agent', 'GenServer', 'Supervisor', 'Task', 'Application', 'Code', 'File', 'Path', 'System', 'MapSet',
  'Regex', 'URI', 'DateTime', 'NaiveDateTime', 'Date', 'Time', 'Base', 'Access', 'Module', 'Macro', 'ExUnit',
];

/** Special forms and definition macros: the shape of the code, not calls of anything. */
export const ELIXIR_FORMS =
  '^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defmodule|defprotocol|defimpl|defstruct|defexception|'
  + 'alias|import|require|use|if|unless|case|cond|with|for|fn|receive|try|quote|unquote|describe|test|setup|'
  + 'doc|moduledoc|spec|type|typep|opaque|impl|behaviour|callback|derive|enforce_keys|typedoc)$';

/**
 * `alias Shop.Product` binds `Product` (or the `as:` name); `import Shop.Util` brings its functions;
 * `require` and `use` name a module without binding names.
 */
function parseImport(node: Node): ImportSpec[] {
  const kind = node.childForFieldName('target')?.text;
  const args = node.namedChildren.find((c) => c?.type === 'arguments');
  const target = args?.namedChildren[0];
  if (!kind || !target || target.type !== 'alias') return [];
  const module = target.text.replace(/\s+/g, '');
  const line = node.startPosition.row + 1;
  if (kind === 'alias') {
    const as = /\bas:\s*([A-Z]\w*)/.exec(args!.text)?.[1];
    return [{ module, names: [], alias: as ?? module.slice(module.lastIndexOf('.') + 1), line }];
  }
  if (kind === 'import') return [{ module, names: [], wildcard: true, line }];
  return [{ module, names: [], line }];
}

/** `lib/shop/product.ex` -> `Shop.Product`: the module a file defines, by the convention of Mix projects. */
function moduleName(path: string): string {
  const below = stripExt(path).replace(/^(.*\/)?(lib|test)\//, '');
  return below.split('/').map((part) => part.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')).join('.');
}

/**
 * A module is the files that define it (`defmodule Shop.Product do`), wherever they lie; a remote call
 * through a module name that no alias explains (`Shop.Util.log(x)`) is looked up the same way. Other
 * modules (Elixir's, a dependency's) are external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const files = declaredIn(repo, (p) => /\.exs?$/.test(p), /\bdefmodule\s+([A-Z][\w.]*)\s+do\b/g);
  return {
    resolveModule: (spec) => files(spec.module),
    resolveReceiver(receiver) {
      if (!/^[A-Z][\w.]*$/.test(receiver)) return null;
      const found = files(receiver);
      return found ? { files: found, rest: [] } : null;
    },
  };
}

export const elixir: LanguageSpec = {
  id: 'elixir',
  displayName: 'Elixir',
  extensions: ['.ex', '.exs'],
  grammar: 'tree-sitter-elixir.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'elixir',
  commentTypes: ['comment'],
  wrapperTypes: [],
  // Module attributes (`@doc`, `@spec`) stand between a comment and its definition.
  annotationTypes: ['unary_operator'],
  selfNames: ['__MODULE__'],
  builtins: new Set(KERNEL),
  // `defp` and `defmacrop` are private to their module.
  visibility: ({ node }) => (/^def\w*p$/.test(node.childForFieldName('target')?.text ?? '') ? 'private' : 'public'),
  parseImport,
  moduleName,
  isTestFile: (path) => /_test\.exs$/.test(path) || /(^|\/)test\/.*\.exs$/.test(path),
  // ExUnit's `test "…" do` blocks are no functions: their calls are the test file's.
  isTestSymbol: () => false,
  createImportResolver,
};
