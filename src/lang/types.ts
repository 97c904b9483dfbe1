import type { Node, Range } from 'web-tree-sitter';
import type { InstalledPackage, InstalledTree } from '../deps/installed.js';

export const SYMBOL_KINDS = [
  'module', 'class', 'interface', 'struct', 'enum', 'trait', 'type', 'function', 'method', 'constant', 'endpoint',
  // Document units (src/extract/documents): a Markdown/text section or PDF page, a YAML/JSON/.env key.
  'section', 'key',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** Kinds of document units: found by `cg query` and search, not by symbol-name lookups meant for code. */
export const DOCUMENT_KINDS: ReadonlySet<string> = new Set(['section', 'key']);

/** Kinds whose members are methods and whose name prefixes their members' qualified names. */
export const CONTAINER_KINDS: ReadonlySet<string> = new Set(['class', 'interface', 'struct', 'enum', 'trait']);

export type Visibility = 'public' | 'protected' | 'private' | 'internal' | 'package' | 'module' | 'fileprivate';

/** One import statement, or one part of it, as written in the source. */
export interface ImportSpec {
  /**
   * The module as written: `os.path`, `.models`, `./util`, `github.com/x/y`, `crate::a::b`, `App\Models`.
   * Empty for a local export alias (`export { a as b }`, `export default a`): with `reexport`, each
   * name (`a`) is a top-level name of this file that other files import as its alias (`b`, `default`).
   */
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
  /** The definition's signature: a test macro shows there (C++ `TEST(Suite, Name)`, named `Name`). */
  signature?: string;
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
   * A type written with its namespace in code (PHP `\PHPUnit\Framework\TestCase`, `Driver\Statement`):
   * the files that may define it; [] when it is known to lie outside the repository (then no type of
   * the same last name is guessed); null when unknown (the last name is looked up as usual).
   */
  resolveQualified?(name: string, fromPath: string): string[] | null;
  /**
   * When the module names a type rather than a file or package (Java `import static a.b.C.m`,
   * `import a.b.C.Inner`, `import a.b.C.*`), the type's qualified name in the resolved files (`C`,
   * `C.Inner`): the imported names, or with a wildcard all names, are its members.
   */
  memberOf?(spec: ImportSpec, fromPath: string): string | null;
  /**
   * A call receiver that neither the file's bindings nor its imports explain, read as a path written in
   * code (Rust `crate::a::b`, `super::m`, `std::mem`): the files of its longest prefix that is a module
   * of the repository, with the segments left over (a type inside it); 'external' when it names
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
  /** The grammar's `.wasm` file name inside `<grammarPackage>/out/` (copied into grammars/ by the build). */
  grammar: string;
  /**
   * The npm package whose `out/` folder holds the grammar: `@repomix/tree-sitter-wasms` when absent,
   * `@cursorless/tree-sitter-wasms` for the grammars the first does not ship (Kotlin, Scala, Lua…).
   */
  grammarPackage?: string;
  /** Folder(s) under queries/; several when languages share patterns (JavaScript and TypeScript). */
  queryDir: string | string[];
  /** Node types that hold comments (doc comments are the comments right above a definition). */
  commentTypes: string[];
  /**
   * Node types that wrap a definition (decorators, export statements, `const` declarations); docs sit
   * above the outermost wrapper.
   */
  wrapperTypes: string[];
  /**
   * Which comments document code (JSDoc `/** … *\/`, Rust `///`). Absent: every comment right above a
   * definition does. Other comments (lint directives, notes) are stepped over.
   */
  isDocComment?(text: string): boolean;
  /**
   * Parts of a tree the grammar saw only as tokens that hold code of the language, to be parsed again on
   * their own (Rust's item macros: `cfg_rt! { pub fn f() {} }`). What they define, call and import joins
   * the file's; syntax errors inside them do not make the file partial.
   */
  embeddedRanges?(root: Node): Range[];
  /**
   * Syntax errors the grammar accepts without an ERROR node, found by looking at the tree (Python's
   * indentation, which tree-sitter-python does not check): the nodes in error. Errors a pattern can
   * express are `@syntax.error` captures in the language's query files instead.
   */
  syntaxErrors?(root: Node): Node[];
  /** Decorator, annotation and attribute node types, collected onto the symbol they adorn. */
  annotationTypes: string[];
  /** Receiver names meaning "this instance or this type": `self`, `this`, `$this`, `Self`. */
  selfNames: string[];
  /**
   * Names every file sees without an import and the repository does not define: functions and types
   * (Python's `len` and `str`, Java's java.lang and Object's methods, Go's `error`). A bare call of one,
   * or a call through a receiver of such a type, is external rather than matched to a same-named
   * repository symbol by accident.
   */
  builtins?: ReadonlySet<string>;
  /**
   * Methods of the runtime's built-in types (`forEach`, `then`, `test`): a call of one through a
   * receiver of unknown type is left unresolved rather than matched by name to a repository method.
   */
  builtinMethods?: ReadonlySet<string>;
  /** Receiver text that means "the supertype's implementation" (`super`, Python's `super()`, PHP's `parent`). */
  superReceiver?: RegExp;
  /** Names a module imports can be imported from it in turn, without an explicit re-export (Python). */
  importedNamesAreExported?: boolean;
  /** A bare call inside a class body can name a method of that class (Java, Swift, Kotlin: implicit `this`). */
  bareCallsReachMembers?: boolean;
  /**
   * Languages whose code calls each other's definitions directly share a family (JavaScript, TypeScript
   * and TSX; Java, Kotlin and Scala; C and C++). A name matched across the repository stays inside the
   * caller's family: Django's admin JavaScript calling `gettext()` is not a call of its Python
   * `gettext`. Absent: the language's id (a family of its own).
   */
  family?: string;
  /**
   * Node types that bound the names declared inside them (`@local.name`: parameters and variables;
   * `@local.definition`: a function or class declared there, whose name belongs to the scope around
   * it). A bare call of a name bound in a scope around the call goes to that binding (a parameter, a
   * local variable, a helper defined in a test's callback), never to a same-named definition
   * elsewhere. Absent: calls are resolved as if no name were bound locally.
   */
  localScopes?: ReadonlySet<string>;
  /**
   * A call through a chain of fields and methods whose first variable holds a value of a type from outside
   * the repository (`w := httptest.NewRecorder(); w.Body.String()`, `w.Header().Get(k)`) stays outside it,
   * instead of being matched by name to the repository's methods. Only where containers are syntax, not
   * library types whose methods hand back the repository's values (Go; not `list.get(0).run()` in Java).
   */
  externalChains?: boolean;
  /** Parameters have argument labels that are part of a method's name (Swift's `decode(_:using:)`). */
  argumentLabels?: boolean;
  /**
   * The type a function returns (its first result), as written in its signature: `*Client` for
   * `func NewClient(c Conn) (*Client, error)`. Lets `x := NewClient(c); x.Close()` resolve. With `index`,
   * that result of several (`c, r := CreateTestContext(w)`: 0 for `c`, 1 for `r`).
   */
  returnType?(signature: string, index?: number): string | null;
  /** Annotations that make a function static (Python's `@staticmethod`). */
  staticAnnotations?: string[];
  /**
   * Modifiers the keyword scan before a definition's name cannot see, in their generic spelling
   * (`async`, `static`): Swift writes `async` after the parameters and `class func` for a type method.
   */
  definitionModifiers?(def: Node): string[];
  /**
   * Rewrites a file's text before parsing, keeping its length and line breaks so positions still match
   * the file (Swift works around grammar gaps: `#if` lines, macros).
   */
  preprocess?(source: string): string;
  /**
   * Annotations written inside a definition's doc comment (PHPDoc `@test`), given the comment's raw
   * text; they join the symbol's annotations.
   */
  docAnnotations?(comment: string): string[];
  /**
   * How a method spells a field declared in its type's body as `declared` (a `@binding.field` capture):
   * PHP's `$repo` -> `$this->repo`. Default: `<selfNames[0]>.<declared>`.
   */
  fieldAccess?(declared: string): string;
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
  /**
   * The installed dependency an import that names no repository file leads to, when the repository
   * holds it (node_modules, a virtual environment, vendor/: src/deps/lookups.ts); its declarations are
   * indexed as external files. Absent: dependencies stay names.
   */
  installedPackage?(module: string, fromPath: string, tree: InstalledTree): InstalledPackage | null;
}
