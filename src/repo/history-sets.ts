import { execFileSync } from 'node:child_process';

/**
 * Git reads for the analyses: the files of each recent commit (co-change) and the files a repository
 * tracks (name mentions). Both return empty without git or commits rather than fail.
 */
const GIT = ['--no-optional-locks', '-c', 'core.quotePath=false'];

/** The files each of the newest `max` non-merge commits reachable from `rev` touched, newest first. */
export function commitFileSets(root: string, opts: { max: number; rev?: string }): string[][] {
  let text: string;
  try {
    text = execFileSync('git', [...GIT, 'log', '--no-merges', '--no-renames', '--format=%x01', '--name-only', '--relative', '-n', String(opts.max),
      opts.rev ?? 'HEAD', '--'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 29 });
  } catch {
    return [];
  }
  return text.split('\x01').map((c) => c.split('\n').filter(Boolean)).filter((c) => c.length);
}

/** Files git tracks or would track (untracked but not ignored), repo-relative; null without git. */
export function trackedFiles(root: string): string[] | null {
  try {
    return execFileSync('git', [...GIT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 29 }).split('\0').filter(Boolean);
  } catch {
    return null;
  }
}
