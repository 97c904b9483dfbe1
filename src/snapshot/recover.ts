import { CgError, errorMessage } from '../errors.js';
import { resolveCommit } from '../repo/git.js';
import { committedHint, nearestTrustedSnapshot } from './catalog.js';
import { defaultSnapshotDir } from './create.js';
import { restoreSnapshot } from './restore.js';

/** What a reader that found no usable index did about it; answers carry it so the user knows. */
export interface Recovery {
  /** The snapshot restored (its id in the snapshot folder). */
  snapshot: string;
  /** Why the live index could not be used. */
  reason: string;
  /** The generation the caught-up index reached. */
  generation: number;
  /** How the catch-up to the working tree went: incremental, rebuild or none. */
  catchUp: string;
}

/** Live-index failures a snapshot can repair (an index of another schema is rebuilt by `cg index` instead). */
const RECOVERABLE = new Set(['index_missing', 'index_corrupt']);

/**
 * Promise 6 for readers: a missing or corrupt live index is restored from the newest snapshot of HEAD
 * or an ancestor in the snapshot folder (verified, then caught up), but never from one that came with the
 * repository's history (tracked in git) unless the user said so (nearestTrustedSnapshot). Returns null, leaving the caller to report
 * the original failure, when the failure is of another kind or there is no snapshot to use; a snapshot
 * that fails verification is reported together with the original failure.
 */
export async function recoverFromSnapshot(root: string, failure: unknown): Promise<Recovery | null> {
  if (!(failure instanceof CgError) || !RECOVERABLE.has(failure.code)) return null;
  const head = resolveCommit(root, 'HEAD');
  const dir = defaultSnapshotDir(root);
  if (!head) return null;
  const { picked, committed } = nearestTrustedSnapshot(root, dir, head, null);
  if (!picked) {
    if (!committed.length) return null;
    throw new CgError(failure.code, `${failure.message}; a snapshot in ${dir} was not restored automatically`, committedHint(committed), failure.details);
  }
  try {
    const res = await restoreSnapshot(root, { ref: picked.file, dir });
    return { snapshot: res.snapshot.id, reason: failure.message, generation: res.catchUp?.generation ?? res.generation, catchUp: res.catchUp?.mode ?? 'none' };
  } catch (err) {
    throw new CgError(failure.code, `${failure.message}; restoring it from the snapshot ${picked.id} failed too: ${errorMessage(err)}`,
      failure.hint, failure.details);
  }
}
