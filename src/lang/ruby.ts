import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, Visibility, VisibilityInput } from './types.js';
import { baseName, dirOf, joinPath, nearestTo, stripExt, suffixIndex } from './paths.js';

const TEST_FILE = /(_spec|_test)\.rb$|(^|\/)test_[^/]*\.rb$/;
const TEST_DIR = /(^|\/)(spec|test)\//;

/** Kernel and Module methods called without a receiver: never a repository method of the same name. */
const KERNEL = [
  'puts', 'print', 'p', 'pp', 'require', 'require_relative', 'load', 'raise', 'fail', 'include', 'extend', 'prepend',
  'attr_reader', 'attr_writer', 'attr_accessor', 'private', 'protected', 'public', 'module_function',
  'private_constant', 'lambda', 'proc', 'loop', 'format', 'sprintf', 'printf', 'rand', 'sleep', 'catch', 'throw',
  'block_given?', 'binding', 'caller', 'define_method', 'instance_variable_get', 'instance_variable_set',
  'respond_to?', 'send', 'public_send', 'freeze', 'frozen?', 'dup', 'clone', 'tap', 'then', 'is_a?', 'kind_of?',
  'instance_of?', 'nil?', 'to_s', 'to_i', 'to_a', 'to_h', 'inspect', 'hash', 'class', 'warn', 'exit', 'abort',
  'at_exit', 'autoload', 'Integer', 'Float', 'String', 'Array', 'Hash', 'Rational', 'Complex',
  // Standard classes: calls through them leave the repository.
  'File', 'Dir', 'IO', 'Time', 'Struct', 'Kernel', 'Object', 'Module', 'Class', 'Comparable', 'Enumerable',
  'Math', 'Process', 'Thread', 'Mutex', 'ObjectSpace', 'Regexp', 'Symbol', 'Range', 'Proc', 'Set', 'JSON',
  'ENV', 'ARGV', 'STDOUT', 'STDERR', 'StandardError', 'ArgumentError', 'RuntimeError', 'NotImplementedError',
  // Test frameworks' assertions and DSL.
  'assert', 'assert_equal', 'assert_nil', 'assert_raises', 'refute', 'expect', 'describe', 'context', 'it',
  'let', 'before', 'after', 'subject', 'eq', 'be', 'RSpec', 'Minitest',
];

/**
 * `require "shop/service"` and `require_relative "base"`: one spec each, relative ones written with a
 * leading `./` so that the resolver knows them.
 */
function parseImport(node: Node): ImportSpec[] {
  const method = node.childForFieldName('method')?.text;
  const arg = node.childForFieldName('arguments')?.namedChildren[0];
  if (!arg || arg.type !== 'string' || arg.namedChildCount !== 1) return [];
  const path = arg.namedChildren[0]!.text;
  const module = method === 'require_relative' && !path.startsWith('.') ? `./${path}` : path;
  return [{ module, names: [], line: node.startPosition.row + 1 }];
}

/** `private` / `protected` / `public` written alone in a class body apply to the methods after it. */
function visibility({ node, name }: VisibilityInput): Visibility {
  if (name === 'initialize') return 'private';
  for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
    if (s.type === 'identifier' && /^(private|protected|public)$/.test(s.text)) return s.text as Visibility;
  }
  return 'public';
}

/**
 * `require_relative` is relative to the file; `require` searches the load path, which is `lib/` in a
 * gem, so by path suffix among the repository's Ruby files (`shop/service` is `lib/shop/service.rb`),
 * the nearest winning. Not found: a gem or the standard library.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const bySuffix = suffixIndex(repo.files, (f) => (f.endsWith('.rb') ? stripExt(f).split('/') : null), '/');
  return {
    resolveModule(spec, fromPath) {
      const written = spec.module.replace(/\.rb$/, '');
      if (written.startsWith('.')) {
        const path = joinPath(dirOf(fromPath), `${written}.rb`);
        return path !== null && repo.files.has(path) ? [path] : null;
      }
      const hits = bySuffix.get(written);
      if (!hits) return null;
      return [nearestTo(hits, fromPath)];
    },
  };
}

export const ruby: LanguageSpec = {
  id: 'ruby',
  displayName: 'Ruby',
  extensions: ['.rb', '.rake', '.gemspec'],
  grammar: 'tree-sitter-ruby.wasm',
  queryDir: 'ruby',
  commentTypes: ['comment'],
  wrapperTypes: [],
  annotationTypes: [],
  selfNames: ['self'],
  bareCallsReachMembers: true,
  builtins: new Set(KERNEL),
  // `def self.sample` is a class method.
  definitionModifiers: (def) => (def.type === 'singleton_method' ? ['static'] : []),
  // `@repo` is reached as written in every method of the class.
  fieldAccess: (declared) => declared,
  visibility,
  parseImport,
  moduleName: (path) => stripExt(path).replace(/^lib\//, ''),
  // Constants are global once loaded: a class defined in any file is visible in every other.
  sharedScopeKey: () => '',
  isTestFile: (path) => path.endsWith('.rb') && (TEST_FILE.test(baseName(path)) || TEST_DIR.test(path)),
  isTestSymbol: ({ name, kind, parentName, inTestFile }) => {
    if (!inTestFile) return false;
    if (kind === 'method') return /^test_/.test(name) && !!parentName;
    if (kind === 'class') return /^Test|Test$/.test(name);
    return false;
  },
  createImportResolver,
};
