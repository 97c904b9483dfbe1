import fs from 'node:fs';
import path from 'node:path';
import { headState, type HeadState } from './git.js';

/**
 * HEAD read from the files under .git, without starting git: a long-running server reports freshness
 * with every answer, and three git processes per answer would cost more than the answer itself.
 * Anything unusual (reftable, a broken ref) falls back to asking git, which is always right.
 */
export function readHead(root: string): HeadState {
  try {
    const gitDir = resolveGitDir(root);
    if (!gitDir) return headState(root);
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return { kind: 'commit', commit: head, branch: null };
    const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
    if (!ref) return headState(root);
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
    const commit = readRef(gitDir, ref);
    if (commit === undefined) return headState(root);
    return commit ? { kind: 'commit', commit, branch } : { kind: 'unborn', branch };
  } catch {
    return headState(root);
  }
}

/** `.git` as a directory, or the directory a worktree's `.git` file points to; null when there is none. */
function resolveGitDir(root: string): string | null {
  const dotGit = path.join(root, '.git');
  let st: fs.Stats;
  try {
    st = fs.statSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return dotGit;
  const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
  return m ? path.resolve(root, m[1].trim()) : null;
}

/** The directory a git directory shares refs, config and info/ with: the main repository's for a linked worktree (commondir). */
function commonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
  } catch {
    return gitDir; // not a linked worktree
  }
}

/**
 * `<common git dir>/info/exclude` found from the files under `.git`, as `git rev-parse --git-path
 * info/exclude` answers, without starting git; null when there is no `.git` or git's environment
 * variables may point elsewhere (then ask git).
 */
export function infoExcludePath(root: string): string | null {
  if (process.env.GIT_DIR || process.env.GIT_COMMON_DIR) return null;
  const gitDir = resolveGitDir(root);
  return gitDir ? path.join(commonDir(gitDir), 'info', 'exclude') : null;
}

/** The commit a ref names (loose file or packed-refs), null for an unborn branch, undefined when unsure. */
function readRef(gitDir: string, ref: string): string | null | undefined {
  // Worktrees keep their own HEAD but share refs with the main repository (commondir).
  const common = commonDir(gitDir);
  for (const dir of [gitDir, common]) {
    try {
      const v = fs.readFileSync(path.join(dir, ref), 'utf8').trim();
      return /^[0-9a-f]{40,64}$/.test(v) ? v : undefined;
    } catch {
      /* not a loose ref here */
    }
  }
  let packed: string;
  try {
    packed = fs.readFileSync(path.join(common, 'packed-refs'), 'utf8');
  } catch {
    packed = '';
  }
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  if (fs.existsSync(path.join(common, 'reftable'))) return undefined;
  return null;
}
