import { execFileSync } from 'node:child_process';

export type HeadState =
  | { kind: 'commit'; commit: string; branch: string | null }
  | { kind: 'unborn'; branch: string | null }
  | { kind: 'not_a_repo' }
  | { kind: 'no_git' };

function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
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
