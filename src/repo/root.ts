import fs from 'node:fs';
import path from 'node:path';
import { CgError } from '../errors.js';
import { CG_DIR } from '../paths.js';

/**
 * The repository root for a starting directory: the nearest ancestor holding `.codegraph/` or `.git`
 * (a directory, or a file in worktrees and submodules). A directory that is in neither is its own
 * root, so cg also indexes plain folders.
 */
export function findRoot(start: string): string {
  const abs = path.resolve(start);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw new CgError('not_found', `No such directory: ${abs}`, 'Pass the path of a repository or folder to index.');
  }
  if (!stat.isDirectory()) {
    throw new CgError('usage', `${abs} is a file, not a directory`, 'Pass the repository folder, not a file in it.');
  }
  for (let dir = abs; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, CG_DIR)) || fs.existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return abs;
  }
}

/** Repo-relative POSIX form of a path given on the command line (absolute or relative to cwd). */
export function toRepoPath(root: string, p: string, cwd = process.cwd()): string {
  const abs = path.resolve(cwd, p);
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new CgError('usage', `${p} is outside the repository at ${root}`,
      'Give a path inside the indexed repository.');
  }
  return rel.split(path.sep).join('/');
}

/**
 * A path an agent sent (repo-relative, or absolute inside the repository) as a repo-relative POSIX
 * path; anything that leaves the repository (`../`, another absolute path, a NUL byte) is refused.
 * Unlike toRepoPath it never reads the process's working directory: a server's cwd is not the agent's.
 */
export function resolveInRepo(root: string, p: string): string {
  const raw = p.replace(/\\/g, '/').trim();
  if (!raw || raw.includes('\0')) {
    throw new CgError('usage', 'The path is empty or holds a NUL byte', 'Give a path relative to the repository root, e.g. src/app.py.');
  }
  let rel: string;
  if (path.isAbsolute(raw)) {
    rel = path.relative(root, path.resolve(raw)).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new CgError('usage', `${p} is outside the repository at ${root}`, 'Give a path inside the indexed repository, relative to its root.');
    }
  } else {
    rel = path.posix.normalize(raw).replace(/^(\.\/)+/, '');
    if (rel === '..' || rel.startsWith('../')) {
      throw new CgError('usage', `${p} is outside the repository at ${root}`, 'Give a path inside the indexed repository, relative to its root.');
    }
  }
  return rel === '.' ? '' : rel.replace(/\/+$/, '');
}
