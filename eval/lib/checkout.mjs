// One working tree per task at commit_before, borrowing the mirror's objects (README §4).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

export function mirrorOf(mirrors, repo) {
  return path.join(mirrors, repo.replace('/', '+'), 'repo');
}

/** Where a task's working tree is (or will be) in the cache. */
export function checkoutDir(task, cache) {
  return path.join(cache, task.task_id.replace(/[^\w.@-]/g, '_'));
}

export function checkout(task, { mirrors, cache }) {
  const dir = checkoutDir(task, cache);
  // Synthetic tasks (fixtures/ground_truth.jsonl) run on a copy of one of our fixture repositories.
  if (task.fixture) {
    if (!fs.existsSync(dir)) fs.cpSync(path.join(FIXTURES, task.fixture), dir, { recursive: true });
    return dir;
  }
  if (fs.existsSync(path.join(dir, '.git'))) return dir;
  fs.mkdirSync(cache, { recursive: true });
  const git = (...a) => execFileSync('git', a, { stdio: ['ignore', 'pipe', 'pipe'] });
  git('clone', '--quiet', '--shared', '--no-checkout', mirrorOf(mirrors, task.repo), dir);
  git('-C', dir, 'checkout', '--quiet', '--detach', task.commit_before);
  return dir;
}
