import type { Node } from 'web-tree-sitter';
import type { ImportResolver, ImportSpec, LanguageSpec, RepoView } from './types.js';
import { baseName, dirOf, joinPath, nearestTo, stripExt } from './paths.js';

/**
 * Shell builtins and the programs scripts run most: a command of one of these names is external, not
 * a function of the repository. Any other command no function explains is left unresolved.
 */
const COMMANDS = [
  'echo', 'printf', 'read', 'cd', 'pwd', 'test', '[', '[[', 'true', 'false', 'exit', 'return', 'shift', 'set',
  'unset', 'export', 'local', 'declare', 'typeset', 'readonly', 'eval', 'exec', 'source', '.', 'trap', 'wait',
  'command', 'type', 'hash', 'getopts', 'let', 'alias', 'unalias', 'builtin', 'caller', 'mapfile', 'readarray',
  'pushd', 'popd', 'dirs', 'shopt', 'ulimit', 'umask', 'kill', 'jobs', 'bg', 'fg', 'disown', 'times', 'sleep',
  'ls', 'cat', 'cp', 'mv', 'rm', 'mkdir', 'rmdir', 'ln', 'chmod', 'chown', 'touch', 'find', 'grep', 'egrep', 'sed',
  'awk', 'cut', 'tr', 'sort', 'uniq', 'head', 'tail', 'wc', 'tee', 'xargs', 'basename', 'dirname', 'readlink',
  'realpath', 'mktemp', 'date', 'env', 'which', 'tar', 'gzip', 'curl', 'wget', 'git', 'make', 'diff', 'cmp',
  'expr', 'seq', 'stat', 'id', 'whoami', 'uname', 'hostname', 'ps', 'sudo', 'ssh', 'python', 'python3', 'perl',
  'node', 'npm', 'docker', 'sh', 'bash', 'assertEquals', 'assertTrue', 'assertFalse', 'assertNull', 'fail',
];

/**
 * `source "$(dirname "$0")/../lib/util.sh"` and `. ./util.sh`: the path as written, with a leading
 * expansion of the script's own folder (`$(dirname "$0")`, `${BASH_SOURCE%/*}`, `$DIR`) read as `.`.
 * The sourced file's functions become this file's names (a wildcard).
 */
function parseImport(node: Node): ImportSpec[] {
  const arg = node.childrenForFieldName('argument')[0];
  if (!arg) return [];
  let text = arg.text.replace(/^["']|["']$/g, '');
  const dynamic = /^(\$\([^)]*\)|\$\{[^}]*\}|\$\w+)/.exec(text);
  if (dynamic) text = `.${text.slice(dynamic[0].length).replace(/^"/, '')}`;
  if (!text || text.includes('$')) return [];
  return [{ module: text, names: [], wildcard: true, line: node.startPosition.row + 1 }];
}

/**
 * A sourced path relative to the script's folder (also the working directory scripts are usually run
 * from), else matched by path suffix among the repository's shell files.
 */
function createImportResolver(repo: RepoView): ImportResolver {
  const shellFiles = [...repo.files].filter((f) => /\.(sh|bash)$/.test(f));
  return {
    resolveModule(spec, fromPath) {
      const beside = joinPath(dirOf(fromPath), spec.module);
      if (beside !== null && repo.files.has(beside)) return [beside];
      const tail = spec.module.replace(/^(\.\.?\/)+/, '');
      const hits = shellFiles.filter((f) => f === tail || f.endsWith(`/${tail}`));
      if (!hits.length) return null;
      return [nearestTo(hits, fromPath)];
    },
  };
}

export const bash: LanguageSpec = {
  id: 'bash',
  displayName: 'Bash',
  extensions: ['.sh', '.bash'],
  grammar: 'tree-sitter-bash.wasm',
  grammarPackage: '@cursorless/tree-sitter-wasms',
  queryDir: 'bash',
  commentTypes: ['comment'],
  // `#!/bin/sh` and `# shellcheck disable=…` lines are no documentation.
  isDocComment: (text) => !/^#!|^#\s*shellcheck\s/.test(text),
  wrapperTypes: [],
  annotationTypes: [],
  selfNames: [],
  builtins: new Set(COMMANDS),
  visibility: () => 'public',
  parseImport,
  moduleName: (path) => stripExt(path),
  isTestFile: (path) => /(^|\/)tests?\//.test(path) || /^test_|_test\.(sh|bash)$/.test(baseName(path)),
  // shunit2 runs the `test…` functions of a test file.
  isTestSymbol: ({ name, inTestFile }) => inTestFile && /^test/.test(name),
  createImportResolver,
};
