import type { Node } from 'web-tree-sitter';
import { pythonPackage } from '../deps/lookups.js';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { dirOf, sharedPrefix, stripExt } from './paths.js';

// `tests/` holds tests; a `test/` or `testing/` package is often library code (django/test/).
const TEST_DIRS = /(^|\/)tests\//;

const BUILTINS = new Set((
  'ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError BrokenPipeError '
  + 'BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError '
  + 'ConnectionResetError DeprecationWarning EOFError EncodingWarning EnvironmentError Exception ExceptionGroup '
  + 'FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning '
  + 'IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError '
  + 'ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError OverflowError PendingDeprecationWarning '
  + 'PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning '
  + 'StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError TypeError '
  + 'UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning '
  + 'UserWarning ValueError Warning ZeroDivisionError abs aiter all anext any ascii bin bool breakpoint bytearray bytes '
  + 'callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec exit filter float format '
  + 'frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max '
  + 'memoryview min next object oct open ord pow print property quit range repr reversed round set setattr slice sorted '
  + 'staticmethod str sum super tuple type vars zip __import__').split(' '));

function parseImport(node: Node): ImportSpec[] {
  const line = node.startPosition.row + 1;
  if (node.type === 'import_statement') {
    return node.childrenForFieldName('name').map((n) => {
      if (n.type === 'aliased_import') {
        return { module: n.childForFieldName('name')!.text, alias: n.childForFieldName('alias')?.text, names: [], line };
      }
      // `import a.b` binds `a.b` as written, which is how calls through it spell their receiver.
      return { module: n.text, alias: n.text, names: [], line };
    });
  }
  const moduleNode = node.childForFieldName('module_name');
  if (!moduleNode) return [];
  const spec: ImportSpec = { module: moduleNode.text.replace(/\s+/g, ''), names: [], line };
  for (const n of node.childrenForFieldName('name')) {
    if (n.type === 'aliased_import') {
      spec.names.push({ name: n.childForFieldName('name')!.text, alias: n.childForFieldName('alias')?.text });
    } else {
      spec.names.push({ name: n.text });
    }
  }
  if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) spec.wildcard = true;
  return [spec];
}

/** `src/jinja2/environment.py` -> `jinja2.environment`; a package's `__init__.py` is the package. */
function moduleName(path: string): string {
  const dotted = stripExt(path).replace(/\/__init__$/, '').replace(/^(src|lib)\//, '');
  return dotted.split('/').join('.') || stripExt(path);
}

/**
 * Top-level modules of Python's standard library (CPython 3.11's `sys.stdlib_module_names`, private ones
 * left out): `import logging` is the library's, not a repository file that happens to end in `logging.py`.
 */
const STDLIB_MODULES: ReadonlySet<string> = new Set((
  'abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii '
  + 'bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections '
  + 'colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes '
  + 'curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum '
  + 'errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt '
  + 'getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp '
  + 'importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox '
  + 'mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt '
  + 'ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools '
  + 'pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile '
  + 'pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy '
  + 'sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket '
  + 'socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep '
  + 'struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios '
  + 'textwrap this threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty '
  + 'turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref '
  + 'webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo '
).split(' ').filter(Boolean));

/**
 * Absolute imports resolve first as Python itself would with each package's root on the path: a file's
 * module name counts from the nearest folder above its package that has no `__init__.py` (`src/flask/app.py`
 * is `flask.app`, `tests/test_apps/cliapp/app.py` is `cliapp.app`), so packages under `src/`, `lib/` or
 * the repository root resolve without configuration. A name no such root gives is the standard library's
 * when its first part is a library module; otherwise it is matched against every dotted suffix of each
 * file's path (namespace packages, trees copied without their top folder). When several files claim a
 * name, the one nearest the importing file wins.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const byModule = new Map<string, string[]>();
  const rooted = new Map<string, string[]>();
  const isPackage = (dir: string) => repo.files.has(`${dir}/__init__.py`) || repo.files.has(`${dir}/__init__.pyi`);
  const push = (map: Map<string, string[]>, key: string, file: string) => {
    const list = map.get(key);
    if (list) list.push(file);
    else map.set(key, [file]);
  };
  for (const file of repo.files) {
    if (!/\.pyi?$/.test(file)) continue;
    const parts = stripExt(file).replace(/\/__init__$/, '').split('/');
    for (let i = 0; i < parts.length; i++) push(byModule, parts.slice(i).join('.'), file);
    let root = dirOf(file);
    while (root && isPackage(root)) root = dirOf(root);
    const own = stripExt(root ? file.slice(root.length + 1) : file).replace(/(^|\/)__init__$/, '');
    if (own) push(rooted, own.split('/').join('.'), file);
  }
  const nearest = (hits: string[], fromPath: string): string[] => {
    if (hits.length === 1) return hits;
    const prefer = (f: string) => [f.endsWith('.pyi') ? 1 : 0, -sharedPrefix(f, fromPath), f.split('/').length] as const;
    return [[...hits].sort((a, b) => cmpTuple(prefer(a), prefer(b)))[0]];
  };
  const lookup = (dotted: string, fromPath: string): string[] | null => {
    const own = rooted.get(dotted);
    if (own) return nearest(own, fromPath);
    if (STDLIB_MODULES.has(dotted.split('.')[0])) return null;
    const hits = byModule.get(dotted);
    return hits ? nearest(hits, fromPath) : null;
  };
  const fileFor = (dirPath: string): string[] | null => {
    for (const cand of [`${dirPath}.py`, `${dirPath}/__init__.py`, `${dirPath}.pyi`, `${dirPath}/__init__.pyi`]) {
      if (repo.files.has(cand.replace(/^\//, ''))) return [cand.replace(/^\//, '')];
    }
    return null;
  };
  const relativeBase = (module: string, fromPath: string): { dir: string; rest: string } => {
    const dots = /^\.+/.exec(module)![0].length;
    let dir = dirOf(fromPath);
    for (let i = 1; i < dots; i++) dir = dirOf(dir);
    return { dir, rest: module.slice(dots) };
  };
  return {
    resolveModule(spec, fromPath) {
      if (spec.module.startsWith('.')) {
        const { dir, rest } = relativeBase(spec.module, fromPath);
        if (!rest) return fileFor(dir);
        return fileFor(`${dir}/${rest.split('.').join('/')}`.replace(/^\//, ''));
      }
      return lookup(spec.module, fromPath);
    },
    resolveMember(spec, name, fromPath) {
      if (spec.module.startsWith('.')) {
        const { dir, rest } = relativeBase(spec.module, fromPath);
        const base = rest ? `${dir}/${rest.split('.').join('/')}` : dir;
        return fileFor(`${base}/${name}`.replace(/^\//, ''));
      }
      return lookup(`${spec.module}.${name}`, fromPath);
    },
  };
}

function cmpTuple(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Clauses that continue a compound statement on a line of their own, at the statement's own indentation. */
const CLAUSES = new Set(['elif_clause', 'else_clause', 'except_clause', 'except_group_clause', 'finally_clause']);
/**
 * The nodes with a block among their children (the clauses above aside): only these, and ERROR nodes,
 * can hold what the checks below look for. Expressions never do, so the walk does not go into them:
 * it was ~14 % of extracting a Python file, one wasm call per node of every expression.
 */
const HOLDS_BLOCKS = new Set(['function_definition', 'class_definition', 'if_statement', 'for_statement', 'while_statement',
  'try_statement', 'with_statement', 'match_statement', 'case_clause', 'decorated_definition']);
/** What a `try:` needs at least one of. */
const HANDLERS = new Set(['except_clause', 'except_group_clause', 'finally_clause']);

/**
 * Python's syntax errors that tree-sitter-python parses without an ERROR node, found from the tree.
 * Mostly indentation, which its scanner does not check (a dedent that matches no outer level, or an
 * unexpected indent, is read as some other nesting; an empty body as an empty block): statements of a
 * block that start a line at another column than the block's first line, a block's first line not
 * indented past its header, module statements not at column 0, a clause (`else:`, `except:`) or a
 * decorated definition at another column than its statement or decorators, and a header with no
 * body: CPython's IndentationError ("unexpected indent", "unindent does not match any outer
 * indentation level", "expected an indented block"). And two that a misplaced dedent leaves behind:
 * `return` outside a function, and `try:` with neither `except` nor `finally`. Comments sit anywhere,
 * as in Python. On 13,654 files CPython compiles (its standard library and sqlalchemy's tests), one is
 * flagged: a CPython test of odd positions that tree-sitter-python misreads.
 */
function syntaxErrors(root: Node): Node[] {
  const errors: Node[] = [];
  const visit = (node: Node, column: number, headerRow: number, inFunction: boolean) => {
    let expected = -1;
    let lastRow = headerRow;
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      const { row, column: col } = child.startPosition;
      if (row > lastRow) {
        // The first statement on a line of its own sets the block's column, which must be deeper than the header's.
        if (expected === -1) {
          expected = col;
          if (node.type === 'block' ? col <= column : col !== 0) errors.push(child);
        } else if (col !== expected) errors.push(child);
      }
      lastRow = Math.max(lastRow, child.endPosition.row);
      inspect(child, inFunction);
    }
  };
  const inspect = (node: Node, inFunction: boolean) => {
    if (node.type === 'function_definition') inFunction = true;
    else if (node.type === 'class_definition') inFunction = false;
    else if (node.type === 'return_statement' && !inFunction) errors.push(node);
    else if (node.type === 'try_statement' && !node.namedChildren.some((c) => c && HANDLERS.has(c.type))) errors.push(node);
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'block') {
        if (!child.namedChildren.some((c) => c && c.type !== 'comment')) errors.push(node); // a header with no body
        else visit(child, node.startPosition.column, node.startPosition.row, inFunction);
      } else if (CLAUSES.has(child.type) || node.type === 'decorated_definition') {
        // `else:` under its `if`, a decorated `def` under its decorators.
        if (child.startPosition.row > node.startPosition.row && child.startPosition.column !== node.startPosition.column) errors.push(child);
        inspect(child, inFunction);
      } else if (child.namedChildCount && (HOLDS_BLOCKS.has(child.type) || child.type === 'ERROR')) inspect(child, inFunction);
      else if (child.type === 'return_statement' && !inFunction) errors.push(child);
    }
  };
  visit(root, 0, -1, false);
  return errors;
}

export const python: LanguageSpec = {
  id: 'python',
  // A function's parameters and assigned names are its own; module and class bodies are not scopes here.
  localScopes: new Set(['function_definition', 'lambda']),
  displayName: 'Python',
  extensions: ['.py', '.pyi'],
  grammar: 'tree-sitter-python.wasm',
  queryDir: 'python',
  commentTypes: ['comment'],
  wrapperTypes: ['decorated_definition'],
  annotationTypes: ['decorator'],
  selfNames: ['self', 'cls'],
  builtins: BUILTINS,
  superReceiver: /^super\(.*\)$/s,
  syntaxErrors,
  // `from django.http import HttpResponse` works because django/http/__init__.py imports it.
  importedNamesAreExported: true,
  staticAnnotations: ['staticmethod'],
  visibility: ({ name }) => (/^__.*__$/.test(name) ? 'public' : name.startsWith('_') ? 'private' : 'public'),
  parseImport,
  moduleName,
  isTestFile: (path) => {
    const base = path.slice(path.lastIndexOf('/') + 1);
    return /^test_.*\.py$|_test\.py$|^conftest\.py$/.test(base) || TEST_DIRS.test(path);
  },
  isTestSymbol: ({ name, kind, parentName, inTestFile }) => {
    if (!inTestFile) return false;
    if (kind === 'class') return /^Test/.test(name);
    if (kind === 'function') return /^test/.test(name);
    if (kind === 'method') return /^test/.test(name) && !!parentName;
    return false;
  },
  createImportResolver,
  installedPackage: pythonPackage,
};
