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
  /** Change-log records not yet applied; null until the change log exists (see README). */
  pendingChanges: number | null;
}

export function freshnessOf(db: Database.Database, head: HeadState, now = Date.now()): Freshness {
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
    pendingChanges: null,
  };
}
