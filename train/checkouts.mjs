// One working tree and one index per training repository, at the corpus's index commit: shared by
// train/dump-features.mjs and train/compare-presets.mjs, so a second tool reuses what the first built.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildIndex } from '../dist/indexer/build.js';
import { openReader, readMeta } from '../dist/store/db.js';
import { gitDirOf } from './mine-corpus.mjs';

const git = (...a) => execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** A working tree of the repository at `commit` under `work`, borrowing the mirror's objects. */
export function checkout(work, mirrors, repo, commit) {
  const dir = path.join(work, repo.replace('/', '+'));
  if (fs.existsSync(path.join(dir, '.git'))) {
    if (git('-C', dir, 'rev-parse', 'HEAD').trim() === commit) return dir;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.mkdirSync(work, { recursive: true });
  git('clone', '--quiet', '--shared', '--no-checkout', gitDirOf(mirrors, repo), dir);
  git('-C', dir, 'checkout', '--quiet', '--detach', commit);
  return dir;
}

/** An index of the checkout at its HEAD: reused when one exists (unless `reindex`), else built; `ms` the build's time. */
export async function indexOf(dir, commit, reindex = false) {
  if (!reindex) {
    try {
      const db = openReader(dir);
      if (readMeta(db).indexed_commit === commit) return { db, ms: 0 };
      db.close();
    } catch { /* none yet, or of another schema */ }
  }
  fs.rmSync(path.join(dir, '.codegraph'), { recursive: true, force: true });
  const t = performance.now();
  await buildIndex(dir);
  return { db: openReader(dir), ms: performance.now() - t };
}
