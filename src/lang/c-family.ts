import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, RepoView } from './types.js';
import { baseName, dirOf, joinPath, nearestTo, suffixIndex } from './paths.js';

/** What C and C++ share: `#include` parsing and resolution, test files, the C library's names. */

/** Files an `#include` can name: headers and, now and then, sources (`#include "table.inc"`). */
const INCLUDABLE = /\.(h|hh|hpp|hxx|h\+\+|inc|inl|ipp|tpp|def|c|cc|cpp|cxx)$/i;

export const C_TEST_FILE = /(^|\/)(tests?|unittests?)\/|(^|\/)test_[^/]*$|_(test|tests|unittest)\.\w+$/;

/**
 * `#include "util.h"` -> module `util.h`; `#include <shop/product.h>` -> module `<shop/product.h>`: the
 * angle brackets are kept so that the resolver knows the file is searched on the include path only.
 */
export function parseInclude(node: Node): ImportSpec[] {
  const path = node.childForFieldName('path');
  if (!path) return [];
  const text = path.text.trim();
  const module = path.type === 'system_lib_string' ? text : text.replace(/^"|"$/g, '');
  return module ? [{ module, names: [], line: node.startPosition.row + 1 }] : [];
}

/**
 * A quoted include is looked up beside the including file first, as compilers do; then, like an
 * angle-bracket include, on an include path we cannot know, so by path suffix among the repository's
 * files (`<shop/product.h>` is `include/shop/product.h`), the nearest file winning. Not found: a system
 * or dependency header.
 */
export function createIncludeResolver(repo: RepoView): ImportResolver {
  const bySuffix = suffixIndex(repo.files, (f) => (INCLUDABLE.test(f) ? f.split('/') : null), '/');
  return {
    resolveModule(spec, fromPath) {
      const angled = spec.module.startsWith('<');
      const written = angled ? spec.module.slice(1, -1) : spec.module;
      if (!angled) {
        const beside = joinPath(dirOf(fromPath), written);
        if (beside !== null && repo.files.has(beside)) return [beside];
      }
      const key = joinPath('', written);
      const hits = key ? bySuffix.get(key) : undefined;
      if (!hits) return null;
      return [nearestTo(hits, fromPath)];
    },
  };
}

/** `test_discounted`, `testParse`: test functions of C test files (no framework names them otherwise). */
export function isCTestFunctionName(name: string): boolean {
  return /^test(_|[A-Z0-9])/.test(name);
}

export function isCTestFile(path: string): boolean {
  return C_TEST_FILE.test(path) || /^test[A-Z_]/.test(baseName(path));
}

/**
 * The C standard library and POSIX functions most code calls: a call of one is external, never a
 * repository function of the same name.
 */
export const C_LIBRARY = [
  'abort', 'abs', 'assert', 'atexit', 'atof', 'atoi', 'atol', 'atoll', 'bsearch', 'calloc', 'clock', 'close',
  'ctime', 'difftime', 'dup', 'dup2', 'errno', 'execv', 'execvp', 'exit', '_exit', 'fabs', 'fclose', 'fcntl',
  'fdopen', 'feof', 'ferror', 'fflush', 'fgetc', 'fgets', 'fileno', 'floor', 'ceil', 'fopen', 'fork', 'fprintf',
  'fputc', 'fputs', 'fread', 'free', 'freopen', 'fscanf', 'fseek', 'fstat', 'ftell', 'fwrite', 'getc', 'getchar',
  'getenv', 'getpid', 'gettimeofday', 'gmtime', 'isalnum', 'isalpha', 'isdigit', 'islower', 'isprint', 'isspace',
  'isupper', 'isxdigit', 'kill', 'localtime', 'log', 'longjmp', 'lseek', 'lstat', 'malloc', 'memchr', 'memcmp',
  'memcpy', 'memmove', 'memset', 'mkdir', 'mktime', 'open', 'perror', 'pipe', 'pow', 'printf', 'putc', 'putchar',
  'puts', 'qsort', 'raise', 'rand', 'read', 'realloc', 'remove', 'rename', 'rewind', 'rmdir', 'scanf', 'select',
  'setenv', 'setjmp', 'setvbuf', 'signal', 'sigaction', 'sleep', 'snprintf', 'sprintf', 'sqrt', 'srand', 'sscanf',
  'stat', 'strcasecmp', 'strcat', 'strchr', 'strcmp', 'strcpy', 'strcspn', 'strdup', 'strerror', 'strftime',
  'strlen', 'strncasecmp', 'strncat', 'strncmp', 'strncpy', 'strndup', 'strnlen', 'strpbrk', 'strrchr', 'strspn',
  'strstr', 'strtod', 'strtok', 'strtol', 'strtoll', 'strtoul', 'strtoull', 'system', 'time', 'tolower', 'toupper',
  'ungetc', 'unlink', 'usleep', 'va_arg', 'va_copy', 'va_end', 'va_start', 'vfprintf', 'vprintf', 'vsnprintf',
  'vsprintf', 'waitpid', 'write', 'offsetof', 'static_assert', '_Static_assert',
];
