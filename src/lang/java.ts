import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView, TestSymbolInput, Visibility, VisibilityInput } from './types.js';
import { baseName, dirOf, sharedPrefix, stripExt } from './paths.js';

/**
 * Source roots, in the order they are tried: Maven/Gradle source sets (`src/main/java/`,
 * `module/src/test/java/`), a bare `src/`, then Ant-style `java/` or `test/` folders at the top.
 * Below a root, the path is the package path: `com/acme/Foo.java` is `com.acme.Foo`.
 */
const SOURCE_ROOTS = [/^(?:.*?\/)?src\/[\w.-]+\/(?:java|kotlin)\//, /^(?:.*?\/)?src\/(?:java\/)?/, /^(?:java|tests?)\//];

const TEST_FILE = /(Tests?|[a-z0-9]IT|TestCase)\.java$|^Test[A-Z]\w*\.java$/;
const TEST_DIR = /(^|\/)src\/(test|it|integrationTest|integration-test|testFixtures)\/|^tests?\//;
const TEST_ANNOTATIONS = new Set(['Test', 'ParameterizedTest', 'RepeatedTest', 'TestFactory', 'TestTemplate']);
const TEST_CLASS = /^Test[A-Z_]|(Tests?|[a-z0-9]IT|TestCase)$/;

/** Names every Java file sees without an import (java.lang types, Object's methods): calls through them leave the repository. */
const JAVA_LANG = [
  'Object', 'String', 'StringBuilder', 'StringBuffer', 'CharSequence', 'Math', 'StrictMath', 'System', 'Runtime',
  'Thread', 'ThreadLocal', 'Runnable', 'Class', 'ClassLoader', 'Enum', 'Record', 'Iterable', 'Comparable',
  'AutoCloseable', 'Cloneable', 'Boolean', 'Byte', 'Character', 'Short', 'Integer', 'Long', 'Float', 'Double',
  'Number', 'Void', 'Process', 'ProcessBuilder', 'Throwable', 'Exception', 'Error', 'RuntimeException',
  'IllegalArgumentException', 'IllegalStateException', 'NullPointerException', 'UnsupportedOperationException',
  'IndexOutOfBoundsException', 'ArrayIndexOutOfBoundsException', 'StringIndexOutOfBoundsException',
  'ClassCastException', 'ClassNotFoundException', 'ArithmeticException', 'NumberFormatException',
  'CloneNotSupportedException', 'InterruptedException', 'ReflectiveOperationException', 'NoSuchFieldException',
  'NoSuchMethodException', 'InstantiationException', 'IllegalAccessException', 'SecurityException',
  'NegativeArraySizeException', 'ArrayStoreException', 'AssertionError', 'OutOfMemoryError', 'StackOverflowError',
  'LinkageError', 'ExceptionInInitializerError', 'InternalError', 'VirtualMachineError', 'NoClassDefFoundError',
  'IllegalMonitorStateException', 'IllegalThreadStateException', 'TypeNotPresentException',
  'EnumConstantNotPresentException', 'AbstractMethodError', 'IncompatibleClassChangeError', 'NoSuchFieldError',
  'NoSuchMethodError', 'UnsatisfiedLinkError', 'Appendable', 'Readable', 'StackTraceElement', 'StackWalker',
  'Module', 'Package', 'ThreadGroup', 'InheritableThreadLocal', 'SecurityManager',
  'Override', 'Deprecated', 'SuppressWarnings', 'FunctionalInterface', 'SafeVarargs',
  // Fully qualified names: `java.util.UUID.fromString(s)`.
  'java', 'javax',
  // Object's methods, which every class inherits: `getClass()`, `hashCode()` called without a receiver.
  'getClass', 'hashCode', 'equals', 'toString', 'clone', 'finalize', 'notify', 'notifyAll', 'wait',
];

/**
 * `gson/src/main/java/com/google/gson/Gson.java` -> `com/google/gson/Gson`, rooted: the package path is
 * known. Under no recognised root, the whole path, which import resolution matches by suffix.
 */
function splitRoot(path: string): { fqnPath: string; rooted: boolean } {
  const bare = stripExt(path);
  for (const root of SOURCE_ROOTS) {
    const m = root.exec(bare);
    if (m && m[0].length < bare.length) return { fqnPath: bare.slice(m[0].length), rooted: true };
  }
  return { fqnPath: bare, rooted: false };
}

function moduleName(path: string): string {
  return splitRoot(path).fqnPath.split('/').join('.');
}

/** The package directory below the source root: main and test classes of one package see each other. */
function sharedScopeKey(path: string): string {
  return dirOf(splitRoot(path).fqnPath);
}

/**
 * `import a.b.C;` binds `C` from module `a.b`; `import static a.b.C.m;` binds `m` from module `a.b.C`
 * (a class, which the resolver recognises); `import a.b.*;` and `import static a.b.C.*;` are wildcards
 * of the package or of the class's members. The module is what precedes the imported name, as with
 * Python's `from module import name`. Java has no import aliases.
 */
function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  const path = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
  if (!path) return [];
  const dotted = path.text.replace(/\s+/g, '');
  if (node.namedChildren.some((c) => c?.type === 'asterisk')) return [{ module: dotted, names: [], wildcard: true, line }];
  const cut = dotted.lastIndexOf('.');
  if (cut < 0) return [{ module: dotted, names: [], line }];
  return [{ module: dotted.slice(0, cut), names: [{ name: dotted.slice(cut + 1) }], line }];
}

function visibility({ kind, modifiers, parentKind }: VisibilityInput): Visibility {
  for (const v of ['public', 'protected', 'private'] as const) if (modifiers.has(v)) return v;
  // Interface members and enum constants are public without saying so.
  if (parentKind === 'interface') return 'public';
  if (parentKind === 'enum' && kind === 'constant') return 'public';
  return 'package';
}

function isTestFile(path: string): boolean {
  return path.endsWith('.java') && (TEST_FILE.test(baseName(path)) || TEST_DIR.test(path));
}

/**
 * JUnit 4/5 test methods by annotation; JUnit 3 `testX()` methods by name (their TestCase superclass is
 * not known while one file is extracted). Test classes by name or `@Nested`, so that helper methods'
 * calls are attributed to the suite rather than the file.
 */
function isTestSymbol({ name, kind, annotations, inTestFile }: TestSymbolInput): boolean {
  const simple = annotations.map((a) => a.slice(a.lastIndexOf('.') + 1));
  if (kind === 'method') return simple.some((a) => TEST_ANNOTATIONS.has(a)) || (inTestFile && /^test[A-Z0-9_]/.test(name));
  if (kind === 'class') return inTestFile && (TEST_CLASS.test(name) || simple.includes('Nested'));
  return false;
}

/**
 * Fully qualified names map to files by package path: `a.b.C` is the file whose path below its source
 * root is `a/b/C.java`, or, for files under no recognised root, whose path ends with it. Nested types
 * (`a.b.C.Inner`) live in the outer class's file. A package is every file of its directory, in every
 * source root (main and test). Anything else (the JDK, dependencies) is external.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  // Rooted files are indexed by their package path; the others by every suffix of their path.
  const classIndex = new Map<string, string[]>();
  const packageIndex = new Map<string, string[]>();
  for (const path of repo.files) {
    if (!path.endsWith('.java')) continue;
    const { fqnPath, rooted } = splitRoot(path);
    const parts = fqnPath.split('/');
    // package-info.java and module-info.java declare no classes: not part of a package import.
    const declaresClasses = !/(^|\/)(package|module)-info\.java$/.test(path);
    for (let i = 0; i < (rooted ? 1 : parts.length); i++) {
      push(classIndex, parts.slice(i).join('/'), path);
      if (declaresClasses) push(packageIndex, parts.slice(i, -1).join('/'), path);
    }
  }

  const nearest = (list: string[], fromPath: string): string[] => {
    if (list.length <= 1) return list;
    const best = [...list].sort((a, b) => sharedPrefix(b, fromPath) - sharedPrefix(a, fromPath) || a.length - b.length)[0];
    return [best];
  };
  // Main code does not see test sources; tests see both.
  const visible = (list: string[], fromPath: string): string[] => (TEST_DIR.test(fromPath) ? list : list.filter((f) => !TEST_DIR.test(f)));
  const classFiles = (dotted: string, fromPath: string): string[] =>
    nearest(visible(classIndex.get(dotted.split('.').join('/')) ?? [], fromPath), fromPath);
  const packageFiles = (dotted: string, fromPath: string): string[] =>
    visible(packageIndex.get(dotted.split('.').join('/')) ?? [], fromPath);

  /** The files a module names and, when it names a class, the class's path inside its file (`C.Inner`). */
  const cache = new Map<string, { files: string[]; typePath: string | null } | null>();
  const locate = (module: string, fromPath: string) => {
    const key = `${module}\0${fromPath}`;
    if (cache.has(key)) return cache.get(key)!;
    let found: { files: string[]; typePath: string | null } | null = null;
    const own = classFiles(module, fromPath);
    if (own.length) found = { files: own, typePath: module.slice(module.lastIndexOf('.') + 1) };
    if (!found) {
      const pkg = packageFiles(module, fromPath);
      if (pkg.length) found = { files: pkg, typePath: null };
    }
    // `a.b.C.Inner`: the class file of the longest prefix, the rest naming nested types.
    const parts = module.split('.');
    for (let i = parts.length - 1; !found && i >= 1; i--) {
      const outer = classFiles(parts.slice(0, i).join('.'), fromPath);
      if (outer.length) found = { files: outer, typePath: parts.slice(i - 1).join('.') };
    }
    cache.set(key, found);
    return found;
  };

  return {
    resolveModule(spec, fromPath) {
      const found = locate(spec.module, fromPath);
      if (!found) return null;
      if (found.typePath || spec.wildcard) return found.files;
      // `import a.b.C;` names a public class, so its own file: when the package is ours but the file is
      // not (generated sources), the class is as good as external.
      const own = spec.names.flatMap((n) => classFiles(`${spec.module}.${n.name}`, fromPath));
      return own.length ? own : null;
    },
    resolveMember(spec, name, fromPath) {
      const own = classFiles(`${spec.module}.${name}`, fromPath);
      return own.length ? own : null;
    },
    memberOf(spec, fromPath) {
      return locate(spec.module, fromPath)?.typePath ?? null;
    },
  };
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export const java: LanguageSpec = {
  id: 'java',
  family: 'jvm',
  displayName: 'Java',
  extensions: ['.java'],
  grammar: 'tree-sitter-java.wasm',
  queryDir: 'java',
  commentTypes: ['block_comment', 'line_comment'],
  wrapperTypes: [],
  annotationTypes: ['marker_annotation', 'annotation'],
  selfNames: ['this'],
  bareCallsReachMembers: true,
  builtins: new Set(JAVA_LANG),
  visibility,
  parseImport,
  moduleName,
  sharedScopeKey,
  isTestFile,
  isTestSymbol,
  createImportResolver,
};
