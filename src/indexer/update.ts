import { spawn } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../config/config.js';
import { CgError } from '../errors.js';
import { appendRecord, pendingRecords, type ChangeRecord } from '../changes/log.js';
import { PACKAGE_ROOT } from '../paths.js';
import { currentBuildId } from '../store/db.js';
import { applyLocked, type ApplySummary } from './apply.js';
import { buildIndex, type BuildProgress } from './build.js';
import { acquireWriterLock } from './lock.js';

export interface UpdateResult {
  /** One summary per round: a round repeats while records keep arriving during the previous one. */
  rounds: ApplySummary[];
  /** Another process was applying; it re-reads the log before it exits, so nothing is lost. */
  busy: boolean;
}

/**
 * `cg update`: apply pending changes until none are left. The re-check after releasing the lock
 * closes the gap in which a hook saw the lock held and did not start an applier of its own.
 */
export async function updateIndex(root: string, opts: { background?: boolean; onProgress?: (p: BuildProgress) => void } = {}):
  Promise<UpdateResult> {
  const result: UpdateResult = { rounds: [], busy: false };
  if (!currentBuildId(root)) {
    if (opts.background) return result;
    const started = performance.now();
    const built = await buildIndex(root, opts.onProgress);
    result.rounds.push({
      mode: 'rebuild', reason: 'there was no index yet', records: 0, problems: [], added: built.files, modified: 0, deleted: 0,
      unchanged: 0, resolvedFiles: built.files, generation: 1, commit: built.commit, checkpoint: 0, durationMs: Math.round(performance.now() - started),
    });
    return result;
  }
  for (let round = 0; round < 100; round++) {
    let lock;
    try {
      lock = acquireWriterLock(root);
    } catch (err) {
      if (err instanceof CgError && err.code === 'index_busy' && (opts.background || round > 0)) {
        result.busy = true;
        return result;
      }
      throw err;
    }
    let summary: ApplySummary;
    try {
      summary = await applyLocked(root, opts.onProgress);
    } finally {
      lock.release();
    }
    result.rounds.push(summary);
    if (pendingRecords(root, summary.checkpoint) === 0) break;
  }
  return result;
}

/** Records saved paths (`cg notify`, `cg watch`) in the change log. */
export function recordSaves(root: string, paths: string[]): void {
  const record: ChangeRecord = { v: 1, event: 'save', paths, at: Math.floor(Date.now() / 1000) };
  appendRecord(root, record);
}

/** Starts `cg update --background` detached, as the git hooks do, unless the user turned it off. */
export function startBackgroundApplier(root: string): 'started' | 'off' {
  if (!loadConfig(root).hooks.autoApply) return 'off';
  const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'cg.js'), 'update', '--background'], {
    cwd: root, detached: true, stdio: 'ignore',
  });
  child.unref();
  return 'started';
}
