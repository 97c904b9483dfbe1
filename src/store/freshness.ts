import type Database from 'better-sqlite3';
import type { HeadState } from '../repo/git.js';
import { readMeta } from './db.js';

/** Promise 4: every answer says which state of the code it describes and how old that is. */
export interface Freshness {
  indexedCommit: string | null;
  headCommit: string | null;
  /** HEAD moved since the index was built (uncommitted edits are not detected here). */
  behindHead: boolean;
  generation: number;
  indexedAt: string;
  ageSeconds: number;
  /** Change-log records (hooks, saves) not yet applied to the index. */
  pendingChanges: number;
}

/** `pending` counts change-log records after the index's checkpoint (see changes/log.ts). */
export function freshnessOf(db: Database.Database, head: HeadState, pending: (checkpoint: number) => number,
  now = Date.now()): Freshness {
  const meta = readMeta(db);
  const indexedCommit = meta.indexed_commit || null;
  const headCommit = head.kind === 'commit' ? head.commit : null;
  return {
    indexedCommit,
    headCommit,
    behindHead: indexedCommit !== headCommit,
    generation: Number(meta.generation ?? 0),
    indexedAt: meta.indexed_at ?? '',
    ageSeconds: meta.indexed_at ? Math.max(0, Math.round((now - Date.parse(meta.indexed_at)) / 1000)) : 0,
    pendingChanges: pending(Number(meta.changelog_offset ?? 0)),
  };
}
