import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';

export type HeadState =
  | { kind: 'commit'; commit: string; branch: string | null }
  | { kind: 'unborn'; branch: string | null }
  | { kind: 'not_a_repo' }
  | { kind: 'no_git' };

/**
 * cg runs git in the background while people commit: `--no-optional-locks` keeps `git status` from
 * taking .git/index.lock to refresh the index, which would make the user's own git command fail.
 */
const GIT = ['--no-optional-locks'];

function git(root: string, args: string[]): string {
  return execFileSync('git', [...GIT, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * What HEAD is, without failing: indexing works in folders that are not repositories, in repositories
 * without commits, and on machines without git; only the freshness fields need a commit.
 */
export function headState(root: string): HeadState {
  try {
    git(root, ['rev-parse', '--git-dir']);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'no_git' };
    return { kind: 'not_a_repo' };
  }
  let branch: string | null = null;
  try {
    branch = git(root, ['symbolic-ref', '--short', '-q', 'HEAD']) || null;
  } catch {
    branch = null; // detached HEAD
  }
  try {
    return { kind: 'commit', commit: git(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']), branch };
  } catch {
    return { kind: 'unborn', branch };
  }
}

function gitZ(root: string, args: string[]): string[] {
  const out = execFileSync('git', [...GIT, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  return out.split('\0').filter(Boolean);
}

/** Paths that differ between two commits (both sides of a rename), or null if either is unknown. */
export function changedBetween(root: string, from: string, to: string): string[] | null {
  try {
    return gitZ(root, ['diff', '--name-only', '-z', '--no-renames', from, to]);
  } catch {
    return null;
  }
}

/**
 * HEAD and the dirty paths in one `git status` run (porcelain v2 with branch headers): the applier's
 * view of the working tree, at the cost of one process instead of four.
 *
 * Untracked files are listed as `--untracked-files=all` lists them, but asked for in two steps: `git
 * status` in its `normal` mode names a new directory once instead of every file under it, and takes
 * a third of the time on a clean tree (Django: ~13 ms against ~35, every hook-started update pays it);
 * only when such directories are there does one `git ls-files --others` list their files (the same
 * paths, in the same order, nested repositories as `dir/` as before).
 */
export function workingTreeState(root: string): { head: HeadState; dirty: string[] | null } {
  let entries: string[];
  try {
    entries = gitZ(root, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=normal', '--no-renames']);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { head: { kind: 'no_git' }, dirty: null };
    return { head: { kind: 'not_a_repo' }, dirty: null };
  }
  let oid = '';
  let branch: string | null = null;
  const dirty: string[] = [];
  const newDirs: string[] = [];
  for (const e of entries) {
    if (e.startsWith('# branch.oid ')) oid = e.slice(13);
    else if (e.startsWith('# branch.head ')) branch = e.slice(14) === '(detached)' ? null : e.slice(14);
    else if (e.startsWith('1 ')) dirty.push(fieldsAfter(e, 8));
    else if (e.startsWith('u ')) dirty.push(fieldsAfter(e, 10));
    else if (e.startsWith('? ')) {
      dirty.push(e.slice(2));
      if (e.endsWith('/')) newDirs.push(e.slice(2));
    }
  }
  if (newDirs.length) {
    const within = untrackedWithin(root, newDirs);
    if (within === null) return { head: { kind: 'not_a_repo' }, dirty: null };
    const expanded: string[] = [];
    // Each directory's files take its place: they sort where it sorted (git orders paths bytewise).
    for (const d of dirty) {
      if (d.endsWith('/') && within.has(d)) expanded.push(...within.get(d)!);
      else expanded.push(d);
    }
    dirty.splice(0, dirty.length, ...expanded);
  }
  const head: HeadState = oid && oid !== '(initial)' ? { kind: 'commit', commit: oid, branch } : { kind: 'unborn', branch };
  return { head, dirty };
}

/** The untracked, not ignored paths under each of `dirs` (as `git status --untracked-files=all` names them), or null when git fails. */
function untrackedWithin(root: string, dirs: string[]): Map<string, string[]> | null {
  let paths: string[];
  try {
    // Literal pathspecs: a directory named `[a]` or `*` means itself.
    paths = gitZ(root, ['--literal-pathspecs', 'ls-files', '--others', '--exclude-standard', '-z', '--', ...dirs]);
  } catch {
    return null;
  }
  const byDir = new Map<string, string[]>(dirs.map((d) => [d, []]));
  for (const p of paths) {
    const d = dirs.find((x) => p.startsWith(x));
    if (d) byDir.get(d)!.push(p);
  }
  return byDir;
}

/** The rest of a porcelain line after `n` space-separated fields (the path, which may hold spaces). */
function fieldsAfter(line: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n; k++) i = line.indexOf(' ', i) + 1;
  return line.slice(i);
}

export interface FileHistory {
  /** Unix time (seconds) of the newest commit that touched the file. */
  last: number;
  /** Commits that touched it, among those read. */
  commits: number;
}

/** How far back recency and churn look: enough for a recency signal, bounded in time on large histories. */
export const HISTORY_COMMITS = 2000;

/**
 * Per-path last-commit time and commit count over the newest `max` non-merge commits reachable from
 * HEAD (or only those in `range`, e.g. `old..new` after a pull). Empty without git or commits.
 */
export function fileHistory(root: string, opts: { range?: string; max?: number } = {}): Map<string, FileHistory> {
  try {
    return parseHistory(execFileSync('git', historyArgs(opts), { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }));
  } catch {
    return new Map();
  }
}

/**
 * fileHistory in a git process that runs while the caller goes on (a full build starts it before
 * extracting and reads it when it resolves, instead of waiting for git at the end).
 */
export function fileHistoryAsync(root: string, opts: { range?: string; max?: number } = {}): Promise<Map<string, FileHistory>> {
  return gitLater(root, historyArgs(opts)).then((text) => (text === null ? new Map() : parseHistory(text)));
}

function historyArgs(opts: { range?: string; max?: number }): string[] {
  return [...GIT, '-c', 'core.quotePath=false', 'log', '--no-merges', '--format=%x01%ct', '--name-only', '--relative',
    '-n', String(opts.max ?? HISTORY_COMMITS), ...(opts.range ? [opts.range] : []), '--'];
}

function parseHistory(text: string): Map<string, FileHistory> {
  const out = new Map<string, FileHistory>();
  let time = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('\x01')) time = Number(line.slice(1));
    else if (line) {
      const h = out.get(line);
      if (h) {
        h.commits++;
        h.last = Math.max(h.last, time);
      } else out.set(line, { last: time, commits: 1 });
    }
  }
  return out;
}

/** A git command's output, or null when git is missing or the command fails. */
function gitLater(root: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/**
 * The messages of the newest `max` non-merge commits reachable from `rev`, newest first. Empty without
 * git or commits.
 */
export function commitMessages(root: string, opts: { rev?: string; max: number }): string[] {
  try {
    return splitMessages(execFileSync('git', messageArgs(opts), { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }));
  } catch {
    return [];
  }
}

/** commitMessages in a git process that runs while the caller goes on. */
export function commitMessagesAsync(root: string, opts: { rev?: string; max: number }): Promise<string[]> {
  return gitLater(root, messageArgs(opts)).then((text) => (text === null ? [] : splitMessages(text)));
}

function messageArgs(opts: { rev?: string; max: number }): string[] {
  return [...GIT, 'log', '--no-merges', '--format=%B%x00', '-n', String(opts.max), opts.rev ?? 'HEAD', '--'];
}

function splitMessages(text: string): string[] {
  return text.split('\0').map((m) => m.trim()).filter(Boolean);
}

/** One commit of the log: its id, its message, and the files it changed (relative to the root, as they were named then). */
export interface LoggedCommit {
  sha: string;
  message: string;
  files: string[];
}

/**
 * The newest `max` non-merge commits of `rev` (a commit or a range such as `A..B`), newest first, with
 * their messages and changed files, in a git process that runs while the caller goes on. Empty without
 * git or commits.
 */
export function commitLogAsync(root: string, opts: { rev?: string; max: number }): Promise<LoggedCommit[]> {
  return gitLater(root, logArgs(opts)).then((text) => (text === null ? [] : parseLog(text)));
}

/** commitLogAsync, waiting for git. */
export function commitLog(root: string, opts: { rev?: string; max: number }): LoggedCommit[] {
  try {
    return parseLog(execFileSync('git', logArgs(opts), { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 29 }));
  } catch {
    return [];
  }
}

function logArgs(opts: { rev?: string; max: number }): string[] {
  return [...GIT, '-c', 'core.quotePath=false', 'log', '--no-merges', '--no-renames', '--format=%x01%H%x02%B%x03', '--name-only', '--relative',
    '-n', String(opts.max), opts.rev ?? 'HEAD', '--'];
}

function parseLog(text: string): LoggedCommit[] {
  const out: LoggedCommit[] = [];
  for (const chunk of text.split('\x01')) {
    const i = chunk.indexOf('\x02');
    const j = chunk.lastIndexOf('\x03');
    // A message that itself holds a separator byte cannot be told apart from the next commit: left out.
    if (i < 40 || j < i || !/^[0-9a-f]{40,64}$/.test(chunk.slice(0, i))) continue;
    out.push({ sha: chunk.slice(0, i), message: chunk.slice(i + 1, j).trim(), files: chunk.slice(j + 1).split('\n').filter(Boolean) });
  }
  return out;
}

/** A commit's committer time as an ISO string (UTC), or null if the commit is unknown. */
export function commitTime(root: string, commit: string): string | null {
  try {
    return new Date(Number(git(root, ['show', '-s', '--format=%ct', `${commit}^{commit}`])) * 1000).toISOString();
  } catch {
    return null;
  }
}

/**
 * The parentless commits reachable from `rev`, sorted: what identifies a repository's history
 * whatever its clone, remote or branch names (a snapshot records them to refuse another repository's).
 */
export function rootCommits(root: string, rev = 'HEAD'): string[] {
  try {
    // Split on white space, not `-z`: git 2.39's rev-list ignores -z here and ends each id with a newline.
    return splitIds(git(root, ['rev-list', '--max-parents=0', rev])).sort();
  } catch {
    return [];
  }
}

/** Commit ids from text that separates them with white space (a snapshot's recorded roots included). */
export function splitIds(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

export interface TreeEntry {
  path: string;
  /** 100644/100755 regular files, 120000 links, 160000 submodules (gitlinks). */
  mode: string;
  /** Bytes of a blob; null for submodules. */
  size: number | null;
}

/** Every entry of a commit's tree, recursively (one `git ls-tree`); null when the commit is unknown. */
export function treeEntries(root: string, commit: string): TreeEntry[] | null {
  let lines: string[];
  try {
    lines = gitZ(root, ['ls-tree', '-r', '-z', '-l', '--full-tree', commit]);
  } catch {
    return null;
  }
  return lines.map((line) => {
    const tab = line.indexOf('\t');
    const [mode, , , size] = line.slice(0, tab).split(/ +/);
    return { path: line.slice(tab + 1), mode, size: size === '-' ? null : Number(size) };
  });
}

/** Whether a file (absolute) is part of the repository's history: tracked in the index, or in HEAD's tree. */
export function isTracked(root: string, file: string): boolean {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('../') || path.isAbsolute(rel)) return false;
  try {
    if (gitZ(root, ['ls-files', '-z', '--', `:(literal)${rel}`]).length) return true;
    git(root, ['cat-file', '-e', `HEAD:${rel}`]);
    return true;
  } catch {
    return false;
  }
}

/** The full id of a revision (a sha, a branch, HEAD~3), or null if the repository does not have it. */
export function resolveCommit(root: string, rev: string): string | null {
  try {
    return git(root, ['rev-parse', '--verify', '-q', `${rev}^{commit}`]) || null;
  } catch {
    return null;
  }
}

/** How many commits `to` is ahead of its ancestor `from`; null when `from` is not an ancestor of `to` (or unknown). */
export function commitsAhead(root: string, from: string, to: string): number | null {
  try {
    git(root, ['merge-base', '--is-ancestor', from, to]);
  } catch {
    return null;
  }
  try {
    return Number(git(root, ['rev-list', '--count', `${from}..${to}`]));
  } catch {
    return null;
  }
}
