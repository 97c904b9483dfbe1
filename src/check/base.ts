import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type Database from 'better-sqlite3';
import { CG_DIR, LEGACY_CONFIG_FILE, CONFIG_FILE, parseConfigText } from '../config/config.js';
import { CgError, errorMessage } from '../errors.js';
import { resolveCommit } from '../repo/git.js';
import { buildIndex } from '../indexer/build.js';
import { openReader } from '../store/db.js';
import { restoreSnapshot } from '../snapshot/restore.js';
import { defaultSnapshotDir } from '../snapshot/create.js';

/**
 * The index of the base revision a check compares with, built beside the repository and thrown away
 * after: a temporary `git worktree` of the base, whose index is restored from the repository's
 * newest snapshot of the base or an ancestor (and caught up to the base: what CI has after restoring
 * its cache), or, without one, built from scratch without embeddings (the analyses need none).
 */
export interface BaseIndex {
  commit: string;
  root: string;
  db: Database.Database;
  /** How it was made: restored from a snapshot (with its id) or built. */
  source: { kind: 'snapshot'; snapshot: string; behind: number | null } | { kind: 'build' };
  close(): void;
}

function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export async function openBaseIndex(root: string, rev: string, opts: { snapshotDir?: string; log?: (m: string) => void } = {}): Promise<BaseIndex> {
  const commit = resolveCommit(root, rev);
  if (!commit) throw new CgError('not_found', `--base ${rev} is not a commit of this repository`, 'Pass a branch, tag or commit this clone has (in CI, fetch the base branch: actions/checkout with fetch-depth: 0).');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cg-base-'));
  const wt = path.join(dir, 'tree');
  try {
    git(root, ['worktree', 'add', '--detach', '--quiet', wt, commit]);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new CgError('io', `Cannot check out ${rev} beside the repository: ${errorMessage(err)}`, 'Check that git works here and the disk has room.');
  }
  const close = () => {
    try {
      git(root, ['worktree', 'remove', '--force', wt]);
    } catch {
      // fall through: the folder is removed below and `git worktree prune` forgets it
    }
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      git(root, ['worktree', 'prune']);
    } catch {
      // nothing to prune
    }
  };
  try {
    // The repository's old local configuration applies to the base too (the shared cg.config.json is in the tree).
    const local = path.join(root, LEGACY_CONFIG_FILE);
    if (fs.existsSync(local)) {
      fs.mkdirSync(path.join(wt, CG_DIR), { recursive: true });
      fs.copyFileSync(local, path.join(wt, LEGACY_CONFIG_FILE));
    }
    let source: BaseIndex['source'];
    try {
      const r = await restoreSnapshot(wt, { dir: opts.snapshotDir ?? defaultSnapshotDir(root) });
      source = { kind: 'snapshot', snapshot: r.snapshot.id, behind: r.behind };
      opts.log?.(`base ${commit.slice(0, 10)}: restored snapshot ${r.snapshot.id}${r.behind ? ` and caught up ${r.behind} commit(s)` : ''}`);
    } catch {
      opts.log?.(`base ${commit.slice(0, 10)}: no usable snapshot, indexing it (without embeddings)`);
      // The configuration in effect there, with embeddings off, written to the base's own (temporary) checkout.
      const cfgFile = path.join(wt, CONFIG_FILE);
      const from = [CONFIG_FILE, LEGACY_CONFIG_FILE].find((rel) => fs.existsSync(path.join(wt, rel)));
      const cfg = from ? parseConfigText(fs.readFileSync(path.join(wt, from), 'utf8'), from) : {};
      fs.writeFileSync(cfgFile, JSON.stringify({ ...cfg, embeddings: { ...(cfg.embeddings ?? {}), enabled: false } }));
      await buildIndex(wt);
      source = { kind: 'build' };
    }
    const db = openReader(wt);
    return { commit, root: wt, db, source, close: () => {
      db.close();
      close();
    } };
  } catch (err) {
    close();
    throw err;
  }
}
