import { execFileSync } from 'node:child_process';

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

/**
 * Paths whose working-tree state differs from HEAD: modified, added, deleted, untracked (not
 * ignored). Null when git cannot say (not a repository, no git).
 */
export function dirtyPaths(root: string): string[] | null {
  try {
    const entries = gitZ(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
    return entries.map((e) => e.slice(3));
  } catch {
    return null;
  }
}

/** Paths that differ between two commits (both sides of a rename), or null if either is unknown. */
export function changedBetween(root: string, from: string, to: string): string[] | null {
  try {
    return gitZ(root, ['diff', '--name-only', '-z', '--no-renames', from, to]);
  } catch {
    return null;
  }
}
