// One working tree and one index per training repository, at the corpus's index commit: shared by
// train/dump-features.mjs and train/compare-presets.mjs, so a second tool reuses what the first built.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildIndex } from '../dist/indexer/build.js';
import { openReader, readMeta } from '../dist/store/db.js';
import { commitLog } from '../dist/repo/git.js';
import { historyOf, pastCommitsOf, PAST_COMMITS } from '../dist/retrieve/history.js';
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

/**
 * Each task's past commits as a query at its own parent would see them (src/retrieve/history.ts): the
 * index is older than the tasks (up to mine-corpus.mjs's window), but a developer asking about a task
 * has every commit before it. One log per repository, back far enough for every task; per task the
 * newest PAST_COMMITS of its parent's non-merge ancestors. Map of task_id to History.
 */
export function taskHistories(dir, tasks) {
  const befores = [...new Set(tasks.map((t) => t.commit_before))];
  // The newest parent: the one every other is an ancestor of (tasks lie on one first-parent line). A parent
  // off that line misses the commits only its side holds: 9 repositories have a task short of 1 to 21 of
  // its 1,000 (counted on 2026-11-29; the corpus's tasks otherwise get all of them).
  let newest = befores[0];
  for (const b of befores) {
    try {
      git('-C', dir, 'merge-base', '--is-ancestor', newest, b);
      newest = b;
    } catch { /* b is not newer */ }
  }
  const window = Number(git('-C', dir, 'rev-list', '--no-merges', '--count', newest).trim());
  const log = commitLog(dir, { rev: newest, max: Math.min(window, PAST_COMMITS + 5000) });
  const scored = historyOf(pastCommitsOf(log)).commits;
  const prepared = new Map(log.map((c, i) => [c.sha, scored[i]]));
  const out = new Map();
  const byBefore = new Map();
  for (const b of befores) {
    const shas = git('-C', dir, 'rev-list', '--no-merges', '-n', String(PAST_COMMITS), b).split('\n').filter((s) => prepared.has(s));
    const commits = shas.map((s) => prepared.get(s));
    byBefore.set(b, { commits, avgLen: commits.length ? commits.reduce((a, c) => a + c.len, 0) / commits.length : 1 });
  }
  for (const t of tasks) out.set(t.task_id, byBefore.get(t.commit_before));
  return out;
}
