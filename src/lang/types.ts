import type { Node, Range } from 'web-tree-sitter';

export const SYMBOL_KINDS = [
  'module', 'class', 'interface', 'struct', 'enum', 'trait', 'type', 'function', 'method', 'constant',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** Kinds whose members are methods and whose name prefixes their members' qualified names. */
export const CONTAINER_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'struct', 'enum', 'trait']);

export type Visibility = 'public' | 'protected' | 'private' | 'internal' | 'package' | 'module' | 'fileprivate';

/** One import statement, or one part of it, as written in the source. */
export interface ImportSpec {
  /** The module as written: `os.path`, `.models`, `./util`, `github.com/x/y`, `crate::a::b`, `App\Models`. */
  module: string;
  /** Names taken from the module (`from m import a as b`); empty when the module itself is bound. */
  names: { name: string; alias?: string }[];
  /** Local name the module itself is bound to (`import x as y`, a Go package name, `* as ns`). */
  alias?: string;
  /** `from m import *`, `export * from`, Java `.*`: every exported name of the module. */
  wildcard?: boolean;
  /** JS/TS `export … from`: the names become part of this file's exports. */
  reexport?: boolean;
  line: number;
}

/** What visibility rules need to know about a definition. */
export interface VisibilityInput {
  name: string;
  kind: string;
  /** Keyword tokens written before the name: `public`, `static`, `pub`, `crate`, `async`… */
  modifiers: ReadonlySet<string>;
  /** Kind of the enclosing definition, `module` at top level. */
  parentKind: string;
  /** Named by an export statement or written inside one (languages with explicit exports). */
  exportedByQuery: boolean;
  /** The definition node, for rules that depend on where it sits (Rust: a method of `impl Trait for T`). */
  node: Node;
}

export interface TestSymbolInput {
  name: string;
  kind: string;
  annotations: string[];
  parentName: string | null;
  inTestFile: boolean;
}

/** A read-only view of the repository for import resolution. */
export interface RepoView {
  root: string;
  /** Every indexed file (all languages), repo-relative POSIX. */
  files: ReadonlySet<string>;
  /** File contents for configuration files such as go.mod or composer.json; null if unreadable. */
  readText(path: string): string | null;
}

export interface ImportResolver {
  /**
   * The repository files a module specifier names (several for a Go or Java package directory), or
   * null when it is not part of this repository (a dependency or the standard library).
   */
  resolveModule(spec: ImportSpec, fromPath: string): string[] | null;
  /** `from pkg import sub`: when `name` is not a symbol of the module, it may be a submodule. */
  resolveMember?(spec: ImportSpec, name: string, fromPath: string): string[] | null;
  /**
   * A call receiver that neither the file's bindings nor its imports explain, read as a path written in
   * code (Rust `crate::a::b`, `super::m`, `std::mem`, `u32`): the files of its longest prefix that is a
   * module of the repository, with the segments left over (a type inside it); 'external' when it names
   * something outside the repository; null when it is not such a path. `bound` gives what a name is
   * bound to by the file's imports. Absent: receivers are values or imported names only.
   */
  resolveReceiver?(receiver: string, fromPath: string, bound: (name: string) => string[] | 'external' | null):
    { files: string[]; rest: string[] } | 'external' | null;
}

/**
 * A language is this entry plus its query files under `queries/<queryDir>/`. Everything the generic
 * extractor and resolver cannot know about a language is a field or a hook here, never an `if`
 * elsewhere.
 */
export interface LanguageSpec {
  id: string;
  displayName: string;
  extensions: string[];
  /** File name inside @repomix/tree-sitter-wasms/out. */
  grammar: string;
  queryDir: string;
  /** Node types that hold comments (doc comments are the comments right above a definition). */
  commentTypes: string[];
  /** Node types that wrap a definition (decorators, export statements); docs sit above the wrapper. */
  wrapperTypes: string[];
  /** Decorator, annotation and attribute node types, collected onto the symbol they adorn. */
  annotationTypes: string[];
  /** Receiver names meaning "this instance or this type": `self`, `this`, `$this`, `Self`. */
  selfNames: string[];
  /**
   * Names callable everywhere without an import (`len`, `isinstance`, `println`). A bare call of one
   * that the file does not define or import counts as external instead of matching a same-named
   * repository symbol by accident.
   */
  builtins?: ReadonlySet<string>;
  /**
   * Method names so common on the language's own types (Rust's `unwrap`, `clone`, `len`) that a call of
   * one through a receiver of unknown type counts as external instead of matching a same-named
   * repository method by accident. A receiver of known type still reaches the repository's method.
   */
  builtinMethods?: ReadonlySet<string>;
  /** Receiver text that means "the supertype's implementation" (`super`, Python's `super()`, PHP's `parent`). */
  superReceiver?: RegExp;
  /** Names a module imports can be imported from it in turn, without an explicit re-export (Python). */
  importedNamesAreExported?: boolean;
  /** A bare call inside a class body can name a method of that class (Java, Swift, Kotlin: implicit `this`). */
  bareCallsReachMembers?: boolean;
  /** Annotations that make a function static (Python's `@staticmethod`). */
  staticAnnotations?: string[];
  /**
   * Parts of a tree the grammar saw only as tokens that hold code of the language, to be parsed again on
   * their own (Rust's item macros: `cfg_rt! { pub fn f() {} }`). What they define, call and import joins
   * the file's; syntax errors inside them do not make the file partial.
   */
  embeddedRanges?(root: Node): Range[];
  /** Which comments above a definition document it (Rust: `///`, not `//` or `//!`). Absent: all of them. */
  isDocComment?(text: string): boolean;
  visibility(input: VisibilityInput): Visibility;
  /** Turns a node captured as `@import` into import specs. */
  parseImport(node: Node): ImportSpec[];
  /** Display name of a file's module symbol (`jinja2.environment`, `src/util`). */
  moduleName(path: string): string;
  /**
   * Files that see each other's top-level names without importing them share a key: a Go package
   * (directory), a Java package, a Swift module. Null or absent: names must be imported.
   */
  sharedScopeKey?(path: string): string | null;
  /**
   * Files that may add methods to each other's types share a key (a Rust crate: an `impl` block can sit
   * in any of its files). Absent: `sharedScopeKey`.
   */
  implScopeKey?(path: string): string | null;
  isTestFile(path: string): boolean;
  isTestSymbol(input: TestSymbolInput): boolean;
  createImportResolver(repo: RepoView): ImportResolver;
}
