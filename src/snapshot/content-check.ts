import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { CgError } from '../errors.js';
import { CG_DIR, loadConfig } from '../config/config.js';
import { changedBetween, treeEntries, workingTreeState } from '../repo/git.js';
import { readContained } from '../repo/contained.js';
import { walkOptions } from '../indexer/build.js';

/**
 * A snapshot's index against the commit it claims to be of, in this clone: what a fresh build of that
 * commit would have to agree with, checked cheaply (one `git ls-tree`, and a hash of each file the
 * working tree still has as the commit has it: about what the catch-up's own scan costs).
 *  - every indexed file is a file of the commit (or inside one of its submodules): a row for a path the
 *    commit does not have (`../../etc/passwd` is refused earlier, as not a repository path) was made up;
 *  - every file of the commit in a language cg reads has a row (indexed, or skipped with its reason,
 *    or inside a skipped folder): rows deleted from a snapshot are never repaired by its catch-up,
 *    which only looks at what changed since the commit;
 *  - every indexed file that the working tree still holds unchanged since the commit has the size and
 *    sha256 of the bytes there (the files the catch-up will not look at again), and so do files skipped
 *    for their content: a modified row is caught wherever the catch-up would trust it.
 * The symbols, edges and postings of a file are not re-derived (that is a rebuild): a snapshot altered
 * consistently inside a file's rows is what provenance (CI attestations, see the README) is for.
 */
export function checkAgainstCommit(file: string, db: Database.Database, root: string, commit: string): void {
  const refuse = (what: string) => new CgError('snapshot_invalid', `The snapshot ${file} does not match commit ${commit.slice(0, 10)}: ${what}`,
    'It was altered after it was written (its manifest fixed up to match), or made by a cg that indexed differently: do not use it; run `cg index` to build from scratch.',
    { reason: 'content' });
  const tree = treeEntries(root, commit);
  if (!tree) throw refuse('this clone cannot list the commit\'s files');
  const blobs = new Map(tree.filter((e) => e.mode !== '160000').map((e) => [e.path, e]));
  const submodules = tree.filter((e) => e.mode === '160000').map((e) => `${e.path}/`);
  const inSubmodule = (p: string) => submodules.some((s) => p.startsWith(s));

  const rows = db.prepare('SELECT path, hash, size FROM files').raw().all() as [string, string, number][];
  const skipped = db.prepare('SELECT path, is_dir, hash FROM skipped').raw().all() as [string, number, string | null][];
  for (const [p] of rows) {
    if (!blobs.has(p) && !inSubmodule(p)) throw refuse(`it has a row for ${p}, which is not a file of that commit`);
  }

  // Rows for every source file of the commit, as a build's walk would leave them.
  const config = loadConfig(root);
  const languageOf = walkOptions(config).languageOf;
  const accounted = new Set([...rows.map((r) => r[0]), ...skipped.filter((s) => !s[1]).map((s) => s[0])]);
  const skippedDirs = new Set(skipped.filter((s) => s[1]).map((s) => s[0]));
  const underSkippedDir = (p: string) => {
    for (let i = p.indexOf('/'); i !== -1; i = p.indexOf('/', i + 1)) if (skippedDirs.has(p.slice(0, i))) return true;
    return false;
  };
  const unaccounted = [...blobs.values()].filter((e) => {
    const parts = e.path.split('/');
    if (parts.some((x) => x === '.git' || x === CG_DIR)) return false; // never walked
    return languageOf(parts[parts.length - 1]) !== null && !accounted.has(e.path) && !underSkippedDir(e.path);
  });
  if (unaccounted.length) {
    throw refuse(`it has no row for ${unaccounted.length} source file(s) of that commit (${unaccounted.slice(0, 3).map((e) => e.path).join(', ')}): rows were deleted`);
  }

  // Content, where the working tree still has the commit's file (elsewhere the catch-up re-reads it).
  const state = workingTreeState(root);
  if (state.head.kind !== 'commit') return; // no commit checked out: nothing to compare with
  const moved = new Set([...(state.head.commit !== commit ? changedBetween(root, commit, state.head.commit) ?? [] : []), ...(state.dirty ?? [])]);
  const hashed = [...rows, ...skipped.filter((s) => !s[1] && s[2]).map(([p, , hash]) => [p, hash!, -1] as [string, string, number])];
  for (const [p, hash, size] of hashed) {
    if (moved.has(p) || inSubmodule(p)) continue;
    const read = readContained(root, p, size >= 0 ? size : config.maxFileBytes);
    if (!read.ok) {
      if (read.reason === 'too_large') throw refuse(`its row for ${p} says ${size} bytes; the file has more`);
      continue; // gone or no longer a plain file: the catch-up sees that for itself
    }
    if ((size >= 0 && read.data.length !== size) || createHash('sha256').update(read.data).digest('hex') !== hash) {
      throw refuse(`its row for ${p} does not describe that file (size or sha256 differs)`);
    }
  }
}
